import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { toIso } from './values';

/** A fixed-window counter: `hits` in the window that ends at `resetAt`. */
export interface RateLimitCount {
  hits: number;
  resetAt: string;
}

/**
 * Counts one hit on `key` and returns the window's count, in one statement so that instances
 * sharing the database count together: a window that has ended starts again at 1.
 */
export async function hitRateLimit(db: Kysely<Database>, key: string, windowMs: number, now: Date = new Date()): Promise<RateLimitCount> {
  const nowIsoString = now.toISOString();
  const resetAt = new Date(now.getTime() + windowMs).toISOString();
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        hits: eb.case().when('rate_limits.reset_at', '<=', nowIsoString).then(1).else(eb('rate_limits.hits', '+', 1)).end(),
        reset_at: eb.case().when('rate_limits.reset_at', '<=', nowIsoString).then(eb.ref('excluded.reset_at')).else(eb.ref('rate_limits.reset_at')).end(),
      })),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), resetAt: toIso(row.reset_at) };
}

/** The count of the window still running on `key`, without counting; null when there is none. */
export async function peekRateLimit(db: Kysely<Database>, key: string, now: Date = new Date()): Promise<RateLimitCount | null> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['hits', 'reset_at'])
    .where('key', '=', key)
    .where('reset_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ? { hits: Number(row.hits), resetAt: toIso(row.reset_at) } : null;
}

/** Takes back one hit counted ahead of an attempt that turned out fine (never below 0). */
export async function refundRateLimit(db: Kysely<Database>, key: string): Promise<void> {
  await db.updateTable('rate_limits').set((eb) => ({ hits: eb('hits', '-', 1) })).where('key', '=', key).where('hits', '>', 0).execute();
}

export async function clearRateLimit(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Housekeeping: windows that have ended. */
export async function deleteExpiredRateLimits(db: Kysely<Database>, now: Date = new Date()): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now.toISOString()).execute();
}
