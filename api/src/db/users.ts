import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { companyRecord, type CompanyRecord } from './companies';
import { dialectOf } from './database';
import { invalidatePasswordTokensOfUser } from './password-tokens';
import { preparedQuery } from './prepared';
import type { Database, ProjectRoleName, UsersTable } from './schema';
import { deleteSessionsOfUser, hashSessionToken, toSessionRecord, type SessionRecord } from './sessions';
import { inTransaction, nowIso, toBool, toCount, toIso } from './values';

export interface UserRecord {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  title: string | null;
  primaryPhone: string | null;
  avatar: string | null;
  status: 'active' | 'suspended';
  isTevora: boolean;
  isAuditor: boolean;
  isAdmin: boolean;
  sendDailyEmails: boolean;
  isFederated: boolean;
  firstLogin: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The columns of users a UserRecord is made of (not the password's). */
const USER_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'title',
  'primary_phone',
  'avatar',
  'status',
  'is_tevora',
  'is_auditor',
  'is_admin',
  'send_daily_emails',
  'is_federated',
  'first_login',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof UsersTable)[];

type UserRow = Pick<Selectable<UsersTable>, (typeof USER_COLUMNS)[number]>;

export function toUserRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    title: row.title,
    primaryPhone: row.primary_phone,
    avatar: row.avatar,
    status: row.status,
    isTevora: toBool(row.is_tevora),
    isAuditor: toBool(row.is_auditor),
    isAdmin: toBool(row.is_admin),
    sendDailyEmails: toBool(row.send_daily_emails),
    isFederated: toBool(row.is_federated),
    firstLogin: toBool(row.first_login),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRecord | null> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toUserRecord(row) : null;
}

/**
 * What a request's policy reads in the same query as the session (policies.ts): the project or the
 * company of the route's `:id`.
 */
export type SessionAlong = { project: string } | { company: string };

/** A project as the project policies read it (policies.ts projectAccessFor): the caller's role on it, its kept count of top-level tasks and its company. */
export interface ProjectRead {
  id: string;
  companyId: string;
  title: string;
  status: string;
  role: ProjectRoleName | null;
  /** project_task_counts; null when the project has no count row. */
  topLevel: number | null;
  company: CompanyRecord;
}

export interface SessionWithUser {
  session: SessionRecord;
  user: UserRecord;
  /** With `along`: the project or the company (null when there is no such one). */
  along?: { project: ProjectRead | null } | { company: CompanyRecord | null };
}

/**
 * The session of this token and its user, in one query (every signed-in request starts with it).
 * Null when the token names no session.
 *
 * On PostgreSQL, with `along`, the same query reads what the request's policy needs of its project
 * or company: one round trip to the database fewer on every request of a project or company page
 * (each costs the api a `writev` and PostgreSQL a wake-up). Not on SQLite, where a query is a call
 * in the process: the joined query cost more there than the two (measured taking turns: 10-connection
 * p99 15.0 to 17.0 ms before, 17.5 to 19.5 with it), so `along` is left out and the policy reads its own.
 */
export async function findSessionWithUser(
  db: Kysely<Database>,
  token: string,
  wanted?: SessionAlong,
): Promise<SessionWithUser | null> {
  const tokenHash = hashSessionToken(token);
  const along = dialectOf(db) === 'postgres' ? wanted : undefined;
  const rows: SessionRow[] = !along
    ? await sessionWithUser(db, tokenHash)
    : 'project' in along
      ? await sessionWithProject(db, tokenHash, along.project)
      : await sessionWithCompany(db, tokenHash, along.company);
  const [row] = rows;
  if (!row) return null;
  const found: SessionWithUser = {
    session: toSessionRecord({
      id: row.session_id,
      user_id: row.user_id,
      created_at: row.session_created_at,
      last_seen_at: row.last_seen_at,
      expires_at: row.expires_at,
    }),
    user: toUserRecord(row),
  };
  if (along) {
    const r = row as SessionRow & AlongColumns;
    const modules = (r.along_modules ?? []).map(([module, enabled]) => ({ module, enabled }));
    const company =
      r.along_id === null
        ? null
        : companyRecord(
            { id: 'project' in along ? r.along_company_id! : r.along_id, name: r.along_name!, logo: r.along_logo },
            modules,
          );
    found.along =
      'project' in along
        ? {
            project: company && {
              id: r.along_id!,
              companyId: company.id,
              title: r.along_title!,
              status: r.along_status!,
              role: r.along_role ?? null,
              topLevel: r.along_top_level == null ? null : toCount(r.along_top_level),
              company,
            },
          }
        : { company };
  }
  return found;
}

type SessionRow = UserRow & {
  session_id: string;
  user_id: string;
  session_created_at: Date | string;
  last_seen_at: Date | string;
  expires_at: Date | string;
};

interface AlongColumns {
  along_id: string | null;
  along_name: string | null;
  along_logo: string | null;
  /** The company's module access as pairs [module, enabled] (JSON, parsed by the driver); null without modules. */
  along_modules: [string, boolean][] | null;
  along_company_id?: string | null;
  along_title?: string | null;
  along_status?: string | null;
  along_role?: ProjectRoleName | null;
  along_top_level?: number | string | null;
}

/**
 * The module access of company `c` as one column (AlongColumns.along_modules; PostgreSQL): the
 * session's query stays one row, instead of one per module with every column of the user and
 * session repeated.
 */
function modulesColumn() {
  return sql<
    [string, boolean][] | null
  >`(select json_agg(json_build_array(m.module, m.enabled)) from company_modules_access m where m.company_id = c.id)`.as(
    'along_modules',
  );
}

/**
 * The session of a token hash and its user. The user's columns are named (not `u.*`): the password's
 * are not read on every request, and SQLite reads the row as an array (sqlite-statements.ts).
 */
function sessionQuery(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(USER_COLUMNS.map((column) => `u.${column}` as const))
    .select(['s.id as session_id', 's.user_id', 's.created_at as session_created_at', 's.last_seen_at', 's.expires_at'])
    .where('s.token_hash', '=', tokenHash);
}

const sessionWithUser = preparedQuery((db, tokenHash: string) => sessionQuery(db, tokenHash));

/** The session, and left joined to it the project (policies.ts projectAccessFor) with its company. */
const sessionWithProject = preparedQuery((db, tokenHash: string, projectId: string) =>
  sessionQuery(db, tokenHash)
    .leftJoin('projects as p', (join) => join.on('p.id', '=', projectId))
    .leftJoin('project_members as pm', (join) =>
      join.onRef('pm.project_id', '=', 'p.id').onRef('pm.user_id', '=', 'u.id'),
    )
    .leftJoin('companies as c', 'c.id', 'p.company_id')
    .leftJoin('project_task_counts as ptc', 'ptc.project_id', 'p.id')
    .select([
      'p.id as along_id',
      'p.company_id as along_company_id',
      'p.title as along_title',
      'p.status as along_status',
      'pm.role as along_role',
      'c.name as along_name',
      'c.logo as along_logo',
      modulesColumn(),
      'ptc.top_level as along_top_level',
    ]),
);

/** The session, and left joined to it the company. */
const sessionWithCompany = preparedQuery((db, tokenHash: string, companyId: string) =>
  sessionQuery(db, tokenHash)
    .leftJoin('companies as c', (join) => join.on('c.id', '=', companyId))
    .select(['c.id as along_id', 'c.name as along_name', 'c.logo as along_logo', modulesColumn()]),
);

export interface UserCredentials {
  user: UserRecord;
  passwordHash: string | null;
  /** When the password was last set; null when unknown (treated as due for a change under a rotation policy). */
  passwordChangedAt: string | null;
}

function toCredentials(row: Selectable<UsersTable>): UserCredentials {
  return {
    user: toUserRecord(row),
    passwordHash: row.password_hash,
    passwordChangedAt: row.password_changed_at === null ? null : toIso(row.password_changed_at),
  };
}

/** The user and its password hash, for sign-in and password changes only. */
export async function findUserCredentialsByEmail(db: Kysely<Database>, email: string): Promise<UserCredentials | null> {
  const row = await db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
  return row ? toCredentials(row) : null;
}

export async function findUserCredentialsById(db: Kysely<Database>, id: string): Promise<UserCredentials | null> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toCredentials(row) : null;
}

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  title?: string | null;
  primaryPhone?: string | null;
  passwordHash?: string | null;
  status?: 'active' | 'suspended';
  isTevora?: boolean;
  isAuditor?: boolean;
  isAdmin?: boolean;
  sendDailyEmails?: boolean;
  isFederated?: boolean;
  firstLogin?: boolean;
}

export async function insertUser(db: Kysely<Database>, input: NewUser): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('users')
    .values({
      id,
      email: normalizeEmail(input.email),
      first_name: input.firstName,
      last_name: input.lastName,
      title: input.title ?? null,
      primary_phone: input.primaryPhone ?? null,
      avatar: null,
      password_hash: input.passwordHash ?? null,
      password_changed_at: input.passwordHash ? now : null,
      status: input.status ?? 'active',
      is_tevora: input.isTevora ?? false,
      is_auditor: input.isAuditor ?? false,
      is_admin: input.isAdmin ?? false,
      send_daily_emails: input.sendDailyEmails ?? false,
      is_federated: input.isFederated ?? false,
      first_login: input.firstLogin ?? true,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** Suspending a user ends all their sessions at once (not only at their next request). */
export async function setUserStatus(db: Kysely<Database>, id: string, status: 'active' | 'suspended'): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.updateTable('users').set({ status, updated_at: nowIso() }).where('id', '=', id).execute();
    if (status === 'suspended') {
      await deleteSessionsOfUser(trx, id);
      await invalidatePasswordTokensOfUser(trx, id);
    }
  });
}

export function suspendUser(db: Kysely<Database>, id: string): Promise<void> {
  return setUserStatus(db, id, 'suspended');
}

export function unsuspendUser(db: Kysely<Database>, id: string): Promise<void> {
  return setUserStatus(db, id, 'active');
}

/**
 * Sets a new password (already hashed). Every session of the user ends and every unused reset or
 * invite token stops working: whoever knew the old password, or held an old link, is out.
 */
export async function setUserPassword(
  db: Kysely<Database>,
  id: string,
  passwordHash: string,
  now: Date = new Date(),
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', id)
      .execute();
    await deleteSessionsOfUser(trx, id);
    await invalidatePasswordTokensOfUser(trx, id, now);
  });
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return toCount(row.n as string | number);
}
