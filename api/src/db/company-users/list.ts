/**
 * A company's members as the users list shows them: the record (its role, status, invitation, teams
 * and whether single sign-on is theirs), a filtered and sorted page of them, one member, their teams,
 * and a user's invitation and last sign-in.
 */
import { sql, type Kysely } from 'kysely';
import type { CompanyRoleName } from '@portal/shared/core/settings';
import type { Database } from '../schema';
import { likePattern, toBool, toCount, toIso } from '../values';

/** A member of a company with what the users list shows (the avatar is the stored key). */
export interface CompanyUserRecord {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  title: string | null;
  avatar: string | null;
  role: CompanyRoleName;
  status: 'active' | 'suspended';
  invited: boolean;
  accessRevoked: boolean;
  isFederated: boolean;
  teams: { id: string; name: string }[];
  lastSignInAt: string | null;
  joinedAt: string;
}

export type CompanyUserStatus = 'active' | 'suspended' | 'invited' | 'revoked';
export type CompanyUserSort = 'name' | '-name' | 'email' | '-email' | 'lastSignInAt' | '-lastSignInAt';

export interface CompanyUsersListQuery {
  search?: string;
  role?: CompanyRoleName;
  status?: CompanyUserStatus;
  sort: CompanyUserSort;
  /** null: every row (offset is then ignored). */
  limit: number | null;
  offset: number;
}

/** Invited: has neither chosen a password nor signed in (with single sign-on) yet. */
const invitedSql = sql<boolean>`(u.password_hash is null and u.last_sign_in_at is null)`;

function membersOf(db: Kysely<Database>, companyId: string) {
  return db
    .selectFrom('company_memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.company_id', '=', companyId);
}

function selectMember(query: ReturnType<typeof membersOf>) {
  return query.select((eb) => [
    'u.id',
    'u.first_name',
    'u.last_name',
    'u.email',
    'u.title',
    'u.avatar',
    'u.status',
    'u.is_tevora',
    'u.is_federated',
    'u.last_sign_in_at',
    'm.role',
    'm.created_at as joined_at',
    'm.access_revoked_at',
    sql<number>`case when ${invitedSql} then 1 else 0 end`.as('invited'),
    // As findFederationByEmail decides: a client member of a company with an identity provider that
    // has verified the user's email domain signs in there. (A domain holds no % or _: see isDomainName.)
    eb
      .exists(
        eb
          .selectFrom('company_memberships as fm')
          .innerJoin('identity_providers as ip', 'ip.company_id', 'fm.company_id')
          .innerJoin('company_domains as fd', 'fd.company_id', 'fm.company_id')
          .select('fm.user_id')
          .whereRef('fm.user_id', '=', 'u.id')
          .where('fm.access_revoked_at', 'is', null)
          .where('fd.verified_at', 'is not', null)
          .where(sql<boolean>`u.email like '%@' || fd.domain`),
      )
      .as('in_federated_company'),
  ]);
}

type MemberRow = Awaited<ReturnType<ReturnType<typeof selectMember>['executeTakeFirstOrThrow']>>;

function toRecord(row: MemberRow, teams: { id: string; name: string }[]): CompanyUserRecord {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    title: row.title,
    avatar: row.avatar,
    role: row.role,
    status: row.status,
    invited: toBool(row.invited),
    accessRevoked: row.access_revoked_at !== null,
    isFederated:
      toBool(row.is_federated) || (!toBool(row.is_tevora) && toBool(row.in_federated_company as boolean | number)),
    teams,
    lastSignInAt: row.last_sign_in_at === null ? null : toIso(row.last_sign_in_at),
    joinedAt: toIso(row.joined_at),
  };
}

/** The teams of the company each user belongs to, by name: one query (all of the company's when `userIds` is null). */
export async function companyUserTeams(
  db: Kysely<Database>,
  companyId: string,
  userIds: string[] | null,
): Promise<Map<string, { id: string; name: string }[]>> {
  const out = new Map<string, { id: string; name: string }[]>();
  if (userIds !== null && userIds.length === 0) return out;
  let query = db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['team_members.user_id', 'teams.id', 'teams.name'])
    .where('teams.company_id', '=', companyId);
  if (userIds !== null) query = query.where('team_members.user_id', 'in', userIds);
  for (const row of await query.orderBy('teams.name').orderBy('teams.id').execute()) {
    const list = out.get(row.user_id) ?? [];
    list.push({ id: row.id, name: row.name });
    out.set(row.user_id, list);
  }
  return out;
}

/** A page of the company's members, filtered and sorted in SQL, with their teams. */
export async function listCompanyUsers(
  db: Kysely<Database>,
  companyId: string,
  query: CompanyUsersListQuery,
): Promise<{ results: CompanyUserRecord[]; total: number }> {
  let base = membersOf(db, companyId);
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where(
      sql<boolean>`(lower(u.first_name || ' ' || u.last_name) like ${pattern} escape '!' or lower(u.email) like ${pattern} escape '!')`,
    );
  }
  if (query.role) base = base.where('m.role', '=', query.role);
  // The statuses are exclusive: revoked, else suspended, else invited, else active.
  if (query.status === 'revoked') base = base.where('m.access_revoked_at', 'is not', null);
  if (query.status && query.status !== 'revoked') base = base.where('m.access_revoked_at', 'is', null);
  if (query.status === 'suspended') base = base.where('u.status', '=', 'suspended');
  if (query.status === 'invited') base = base.where('u.status', '=', 'active').where(invitedSql);
  if (query.status === 'active') base = base.where('u.status', '=', 'active').where(sql<boolean>`not ${invitedSql}`);

  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const direction = query.sort.startsWith('-') ? 'desc' : 'asc';
  let page = selectMember(base);
  switch (query.sort.replace(/^-/, '')) {
    case 'email':
      page = page.orderBy('u.email', direction);
      break;
    case 'lastSignInAt':
      // Never signed in: last, whichever the direction (the dialects disagree on where nulls go).
      page = page
        .orderBy(sql`case when u.last_sign_in_at is null then 1 else 0 end`)
        .orderBy('u.last_sign_in_at', direction);
      break;
    default:
      page = page.orderBy(sql`lower(u.first_name)`, direction).orderBy(sql`lower(u.last_name)`, direction);
  }
  page = page.orderBy('u.id');
  // SQLite accepts OFFSET only after a LIMIT.
  if (query.limit !== null) page = page.limit(query.limit).offset(query.offset);
  const rows = await page.execute();
  const teams = await companyUserTeams(db, companyId, query.limit === null ? null : rows.map((r) => r.id));
  return {
    results: rows.map((r) => toRecord(r, teams.get(r.id) ?? [])),
    total: toCount(totalRow.n as string | number),
  };
}

/** The member, revoked or not; null when the user is not a member of the company. */
export async function findCompanyUser(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
): Promise<CompanyUserRecord | null> {
  const row = await selectMember(membersOf(db, companyId).where('u.id', '=', userId)).executeTakeFirst();
  if (!row) return null;
  const teams = await companyUserTeams(db, companyId, [userId]);
  return toRecord(row, teams.get(userId) ?? []);
}

/** What the users list and status show beside the user record: whether invited, and the last sign-in. */
export async function userSignInState(
  db: Kysely<Database>,
  userId: string,
): Promise<{ invited: boolean; lastSignInAt: string | null } | null> {
  const row = await db
    .selectFrom('users as u')
    .select(['u.last_sign_in_at', sql<number>`case when ${invitedSql} then 1 else 0 end`.as('invited')])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    invited: toBool(row.invited),
    lastSignInAt: row.last_sign_in_at === null ? null : toIso(row.last_sign_in_at),
  };
}
