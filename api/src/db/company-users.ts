import { sql, type Kysely } from 'kysely';
import type { CompanyRoleName } from '@portal/shared/core/settings';
import { addCompanyMember } from './companies';
import { isLead } from './projects';
import type { Database, ProjectRoleName } from './schema';
import { insertUser } from './users';
import { inTransaction, likePattern, toBool, toCount, toIso } from './values';

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

export interface NewCompanyUser {
  email: string;
  firstName: string;
  lastName: string;
  title: string | null;
  role: CompanyRoleName;
  /** Signs in with the company's identity provider: no password, ever. */
  isFederated: boolean;
}

/** A new user (no password yet) and their membership; pass a transaction so both commit together. */
export async function createCompanyUser(
  db: Kysely<Database>,
  companyId: string,
  input: NewCompanyUser,
): Promise<string> {
  const id = await insertUser(db, {
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    title: input.title,
    isFederated: input.isFederated,
    firstLogin: true,
  });
  await addCompanyMember(db, companyId, id, input.role);
  return id;
}

export async function setCompanyUserRole(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
  role: CompanyRoleName,
): Promise<void> {
  await db
    .updateTable('company_memberships')
    .set({ role })
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .execute();
}

/** Revokes (a time) or restores (null) the member's access to the company; the membership stays. */
export async function setCompanyAccessRevoked(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
  revokedAt: string | null,
): Promise<void> {
  await db
    .updateTable('company_memberships')
    .set({ access_revoked_at: revokedAt })
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .execute();
}

export interface CompanyProjectRole {
  projectId: string;
  title: string;
  role: ProjectRoleName;
}

/** The user's roles on the company's projects. */
export async function projectRolesInCompany(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
): Promise<CompanyProjectRole[]> {
  const rows = await db
    .selectFrom('project_members')
    .innerJoin('projects', 'projects.id', 'project_members.project_id')
    .select(['projects.id', 'projects.title', 'project_members.role'])
    .where('projects.company_id', '=', companyId)
    .where('project_members.user_id', '=', userId)
    .orderBy('projects.title')
    .execute();
  return rows.map((r) => ({ projectId: r.id, title: r.title, role: r.role }));
}

export function isLeadRole(role: ProjectRoleName): boolean {
  return isLead([{ projectId: '', role }]);
}

/**
 * Removes the user from the company: their membership, their places in its teams, their module
 * values there and their roles on its projects. The account itself stays (other companies).
 */
export async function removeCompanyUser(db: Kysely<Database>, companyId: string, userId: string): Promise<void> {
  const work = async (trx: Kysely<Database>) => {
    await trx
      .deleteFrom('team_members')
      .where('user_id', '=', userId)
      .where('team_id', 'in', trx.selectFrom('teams').select('id').where('company_id', '=', companyId))
      .execute();
    await trx
      .deleteFrom('user_modules_access')
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .execute();
    await trx
      .deleteFrom('project_members')
      .where('user_id', '=', userId)
      .where('project_id', 'in', trx.selectFrom('projects').select('id').where('company_id', '=', companyId))
      .execute();
    await trx
      .deleteFrom('company_memberships')
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .execute();
  };
  await inTransaction(db, work);
}

/** Whether the user has an account at all (any email is unique across the portal). */
export async function emailTaken(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
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

/** Who is looking at a user: staff see all of the user's companies, client users the ones they share. */
export interface UserViewer {
  id: string;
  isTevora: boolean;
}

/**
 * The ids of the companies the viewer sees users in, as a subquery (null: all, for staff). With
 * `administered`, only those where the client viewer holds the admin role (editUsersAndTeams).
 */
function viewerCompanyIds(db: Kysely<Database>, viewer: UserViewer, administered = false) {
  if (viewer.isTevora) return null;
  let query = db
    .selectFrom('company_memberships')
    .select('company_id')
    .where('user_id', '=', viewer.id)
    .where('access_revoked_at', 'is', null);
  if (administered) query = query.where('role', '=', 'admin');
  return query;
}

/** The user's companies the viewer may see, by name. */
export async function userCompaniesFor(
  db: Kysely<Database>,
  userId: string,
  viewer: UserViewer,
): Promise<{ id: string; name: string; role: CompanyRoleName; accessRevoked: boolean }[]> {
  let query = db
    .selectFrom('company_memberships as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['c.id', 'c.name', 'm.role', 'm.access_revoked_at'])
    .where('m.user_id', '=', userId);
  const visible = viewerCompanyIds(db, viewer);
  if (visible) query = query.where('m.company_id', 'in', visible);
  const rows = await query.orderBy('c.name').orderBy('c.id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, role: r.role, accessRevoked: r.access_revoked_at !== null }));
}

export interface AssignedProjectRole {
  projectId: string;
  title: string;
  companyId: string;
  role: ProjectRoleName;
}

/** The user's project roles in companies the viewer sees (and only `companyId`'s when given). */
export async function assignedProjectsFor(
  db: Kysely<Database>,
  userId: string,
  viewer: UserViewer,
  companyId?: string,
): Promise<AssignedProjectRole[]> {
  let query = db
    .selectFrom('project_members as pm')
    .innerJoin('projects as p', 'p.id', 'pm.project_id')
    .select(['p.id', 'p.title', 'p.company_id', 'pm.role'])
    .where('pm.user_id', '=', userId);
  // Only projects of companies where the viewer manages users: an admin of one company sees and
  // removes nothing of another company they are a plain member of.
  const visible = viewerCompanyIds(db, viewer, true);
  if (visible) query = query.where('p.company_id', 'in', visible);
  if (companyId !== undefined) query = query.where('p.company_id', '=', companyId);
  const rows = await query.orderBy('p.title').orderBy('p.id').execute();
  return rows.map((r) => ({ projectId: r.id, title: r.title, companyId: r.company_id, role: r.role }));
}

export async function removeProjectRole(db: Kysely<Database>, projectId: string, userId: string): Promise<void> {
  await db.deleteFrom('project_members').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
}

/** Whether the viewer shares a company with the user (the viewer's access not revoked). */
export async function sharesCompany(db: Kysely<Database>, viewerId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('company_memberships as mine')
    .innerJoin('company_memberships as theirs', 'theirs.company_id', 'mine.company_id')
    .select('mine.company_id')
    .where('mine.user_id', '=', viewerId)
    .where('mine.access_revoked_at', 'is', null)
    .where('theirs.user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether the user's account is the caller's alone to suspend: every company the user is an active
 * member of is one where the client caller holds the admin role. Staff callers always may.
 */
export async function accountWithinCallerCompanies(
  db: Kysely<Database>,
  userId: string,
  caller: UserViewer,
): Promise<boolean> {
  if (caller.isTevora) return true;
  const outside = await db
    .selectFrom('company_memberships as theirs')
    .select('theirs.company_id')
    .where('theirs.user_id', '=', userId)
    .where('theirs.access_revoked_at', 'is', null)
    .where('theirs.company_id', 'not in', viewerCompanyIds(db, caller, true)!)
    .executeTakeFirst();
  return outside === undefined;
}
