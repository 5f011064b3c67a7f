import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, PasswordTokensTable } from './schema';
import { toIso } from './values';

export type PasswordTokenPurpose = PasswordTokensTable['purpose'];

/** Only the SHA-256 of a token is stored: a leaked table resets nobody's password. */
export function hashPasswordToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface PasswordTokenRecord {
  userId: string;
  purpose: PasswordTokenPurpose;
  createdAt: string;
  expiresAt: string;
}

/** A new one-time token (256 random bits) for the user; returns the token itself, which only its holder then knows. */
export async function createPasswordToken(
  db: Kysely<Database>,
  input: { userId: string; purpose: PasswordTokenPurpose; ttlMinutes: number; now?: Date },
): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + input.ttlMinutes * 60_000).toISOString();
  await db
    .insertInto('password_tokens')
    .values({
      token_hash: hashPasswordToken(token),
      user_id: input.userId,
      purpose: input.purpose,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
    })
    .execute();
  return { token, expiresAt };
}

/** The token's record while it is unused and unexpired; null otherwise (unknown, used, expired). */
export async function findUsablePasswordToken(
  db: Kysely<Database>,
  token: string,
  now: Date = new Date(),
): Promise<PasswordTokenRecord | null> {
  const row = await db
    .selectFrom('password_tokens')
    .select(['user_id', 'purpose', 'created_at', 'expires_at'])
    .where('token_hash', '=', hashPasswordToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!row) return null;
  return {
    userId: row.user_id,
    purpose: row.purpose,
    createdAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
  };
}

/**
 * Marks the token used if it still is usable, in one statement: of two requests racing with the
 * same token, exactly one gets true.
 */
export async function consumePasswordToken(
  db: Kysely<Database>,
  token: string,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable('password_tokens')
    .set({ used_at: now.toISOString() })
    .where('token_hash', '=', hashPasswordToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Every unused token of the user stops working (a password was set, or the account changed). */
export async function invalidatePasswordTokensOfUser(
  db: Kysely<Database>,
  userId: string,
  now: Date = new Date(),
): Promise<void> {
  await db
    .updateTable('password_tokens')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

export async function deletePasswordToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('password_tokens').where('token_hash', '=', hashPasswordToken(token)).execute();
}

/** Housekeeping: tokens past their end are of no use to anyone. */
export async function deleteExpiredPasswordTokens(db: Kysely<Database>, now: Date = new Date()): Promise<void> {
  await db.deleteFrom('password_tokens').where('expires_at', '<', now.toISOString()).execute();
}
