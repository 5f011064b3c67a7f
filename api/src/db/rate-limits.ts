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
export async function hitRateLimit(
  db: Kysely<Database>,
  key: string,
  windowMs: number,
  now: Date = new Date(),
): Promise<RateLimitCount> {
  const nowIsoString = now.toISOString();
  const resetAt = new Date(now.getTime() + windowMs).toISOString();
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        hits: eb
          .case()
          .when('rate_limits.reset_at', '<=', nowIsoString)
          .then(1)
          .else(eb('rate_limits.hits', '+', 1))
          .end(),
        reset_at: eb
          .case()
          .when('rate_limits.reset_at', '<=', nowIsoString)
          .then(eb.ref('excluded.reset_at'))
          .else(eb.ref('rate_limits.reset_at'))
          .end(),
      })),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), resetAt: toIso(row.reset_at) };
}

/**
 * Counts one hit on `key` only when it is due, in one statement (parallel callers are each counted
 * or refused, never let through on the same count). The row's `reset_at` is then `now + ttlMs`, so
 * its latest hit was at `reset_at - ttlMs`; a row untouched for `ttlMs` is forgotten (starts at 1).
 * `waitsMs[n]` is the wait after `n` hits before the next one is due (the last entry for any count
 * beyond). Returns the new count, or null when the hit is not due yet (nothing is counted).
 */
export async function hitRateLimitWhenDue(
  db: Kysely<Database>,
  key: string,
  ttlMs: number,
  waitsMs: readonly number[],
  now: Date = new Date(),
): Promise<RateLimitCount | null> {
  if (waitsMs.length === 0) throw new Error('hitRateLimitWhenDue needs at least one wait');
  const nowIsoString = now.toISOString();
  const last = waitsMs.length - 1;
  // Due after n hits: the latest hit (reset_at - ttl) at least waitsMs[n] ago, that is
  // reset_at <= now + ttl - waitsMs[n]; compared as timestamps so both databases can use the index.
  const latestAllowed = (waitMs: number) => new Date(now.getTime() + ttlMs - waitMs).toISOString();
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, reset_at: new Date(now.getTime() + ttlMs).toISOString() })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet((eb) => ({
          hits: eb
            .case()
            .when('rate_limits.reset_at', '<=', nowIsoString)
            .then(1)
            .else(eb('rate_limits.hits', '+', 1))
            .end(),
          reset_at: eb.ref('excluded.reset_at'),
        }))
        .where((eb) =>
          eb.or([
            eb('rate_limits.reset_at', '<=', nowIsoString),
            ...waitsMs.map((waitMs, n) => {
              const count = n === last ? eb('rate_limits.hits', '>=', n) : eb('rate_limits.hits', '=', n);
              return waitMs <= 0 ? count : eb.and([count, eb('rate_limits.reset_at', '<=', latestAllowed(waitMs))]);
            }),
          ]),
        ),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirst();
  return row ? { hits: Number(row.hits), resetAt: toIso(row.reset_at) } : null;
}

/** Sets `key` to `hits` until `resetAt`, whatever it held: a marker rather than a count. */
export async function setRateLimit(db: Kysely<Database>, key: string, hits: number, resetAt: Date): Promise<void> {
  const reset = resetAt.toISOString();
  await db
    .insertInto('rate_limits')
    .values({ key, hits, reset_at: reset })
    .onConflict((oc) => oc.column('key').doUpdateSet({ hits, reset_at: reset }))
    .execute();
}

/** The count of the window still running on `key`, without counting; null when there is none. */
export async function peekRateLimit(
  db: Kysely<Database>,
  key: string,
  now: Date = new Date(),
): Promise<RateLimitCount | null> {
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
  await db
    .updateTable('rate_limits')
    .set((eb) => ({ hits: eb('hits', '-', 1) }))
    .where('key', '=', key)
    .where('hits', '>', 0)
    .execute();
}

export async function clearRateLimit(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Housekeeping: windows that have ended. */
export async function deleteExpiredRateLimits(db: Kysely<Database>, now: Date = new Date()): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now.toISOString()).execute();
}
