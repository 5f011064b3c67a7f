import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { toIso } from './values';

/** Only the SHA-256 of a session token is stored: a leaked table does not sign anyone in. */
export function hashSessionToken(token: string): string {
  // one call: a Hash object per request cost three times as much (every signed-in request hashes its cookie)
  return hash('sha256', token, 'hex');
}

export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: string;
  lastSeenAt: string;
  /** Absolute end of the session; the idle timeout is checked against lastSeenAt. */
  expiresAt: string;
}

export async function createSession(
  db: Kysely<Database>,
  input: { userId: string; userAgent: string | null; maxHours: number; now?: Date },
): Promise<{ token: string; session: SessionRecord }> {
  const token = randomBytes(32).toString('base64url');
  const now = input.now ?? new Date();
  const session: SessionRecord = {
    id: randomUUID(),
    userId: input.userId,
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + input.maxHours * 3_600_000).toISOString(),
  };
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      token_hash: hashSessionToken(token),
      user_id: session.userId,
      created_at: session.createdAt,
      last_seen_at: session.lastSeenAt,
      expires_at: session.expiresAt,
      user_agent: input.userAgent ? input.userAgent.slice(0, 512) : null,
    })
    .execute();
  return { token, session };
}

export async function findSessionByToken(db: Kysely<Database>, token: string): Promise<SessionRecord | null> {
  const row = await db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'created_at', 'last_seen_at', 'expires_at'])
    .where('token_hash', '=', hashSessionToken(token))
    .executeTakeFirst();
  return row ? toSessionRecord(row) : null;
}

export function toSessionRecord(row: {
  id: string;
  user_id: string;
  created_at: Date | string;
  last_seen_at: Date | string;
  expires_at: Date | string;
}): SessionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: toIso(row.created_at),
    lastSeenAt: toIso(row.last_seen_at),
    expiresAt: toIso(row.expires_at),
  };
}

export function isSessionActive(session: SessionRecord, idleMinutes: number, now: Date = new Date()): boolean {
  const t = now.getTime();
  return t < Date.parse(session.expiresAt) && t < Date.parse(session.lastSeenAt) + idleMinutes * 60_000;
}

/** Which of these sessions are still signed in (not expired, not idle too long, not deleted). */
export async function activeSessionIds(
  db: Kysely<Database>,
  ids: string[],
  idleMinutes: number,
  now: Date = new Date(),
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', 'in', ids)
    .where('expires_at', '>', now.toISOString())
    .where('last_seen_at', '>', new Date(now.getTime() - idleMinutes * 60_000).toISOString())
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function touchSession(db: Kysely<Database>, id: string, now: Date = new Date()): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now.toISOString() }).where('id', '=', id).execute();
}

export async function deleteSession(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteSessionByToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hashSessionToken(token)).execute();
}

/** Ends every session of a user (suspension, a new password). */
export async function deleteSessionsOfUser(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** Housekeeping: sessions past their absolute end. */
export async function deleteExpiredSessions(db: Kysely<Database>, now: Date = new Date()): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now.toISOString()).execute();
}
