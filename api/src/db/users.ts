import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { invalidatePasswordTokensOfUser } from './password-tokens';
import { preparedQuery } from './prepared';
import type { Database, UsersTable } from './schema';
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

export function toUserRecord(row: Selectable<UsersTable>): UserRecord {
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
 * The session of this token and its user, in one query (every signed-in request starts with it).
 * Null when the token names no session.
 */
export async function findSessionWithUser(db: Kysely<Database>, token: string): Promise<{ session: SessionRecord; user: UserRecord } | null> {
  const [row] = await sessionWithUser(db, hashSessionToken(token));
  if (!row) return null;
  return {
    session: toSessionRecord({ id: row.session_id, user_id: row.user_id, created_at: row.session_created_at, last_seen_at: row.last_seen_at, expires_at: row.expires_at }),
    user: toUserRecord(row),
  };
}

const sessionWithUser = preparedQuery((db, tokenHash: string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select(['s.id as session_id', 's.user_id', 's.created_at as session_created_at', 's.last_seen_at', 's.expires_at'])
    .where('s.token_hash', '=', tokenHash),
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
export async function setUserPassword(db: Kysely<Database>, id: string, passwordHash: string, now: Date = new Date()): Promise<void> {
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
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return toCount(row.n as string | number);
}
