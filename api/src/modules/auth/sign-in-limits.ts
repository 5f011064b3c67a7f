/**
 * Sign-in and password-reset limits: counted in the database (`rate_limits`), so every instance
 * behind the proxy counts together. See docs/adr/0009-sign-in-throttling-without-lockout.md. The
 * general api limiter's counters (memory or Redis) are infrastructure: lib/rate-limit.ts.
 */
import type { Kysely } from 'kysely';
import {
  clearRateLimit,
  deleteExpiredRateLimits,
  hitRateLimit,
  hitRateLimitWhenDue,
  peekRateLimit,
  refundRateLimit,
  setRateLimit,
  type RateLimitCount,
} from '../../db/rate-limits';
import type { Database } from '../../db/schema';
import { normalizeEmail } from '../../db/users';

export interface Limit {
  max: number;
  windowMinutes: number;
}

/**
 * Failed sign-ins (and wrong current passwords) slow down; they never lock an account. Failures are
 * counted per account and client address together (the pair): the first `freeFailures` cost
 * nothing, then after each further failure the pair waits 1, 2, 4 … seconds (doubling, at most
 * `maxWaitSeconds`) before its next attempt is taken. A pair's failures are forgotten
 * `forgetMinutes` after its latest one, and cleared by the right password. Someone failing on an
 * account from one address never slows down the owner signing in from another.
 */
export const SIGN_IN_THROTTLE = {
  freeFailures: 4,
  firstWaitSeconds: 1,
  maxWaitSeconds: 60,
  forgetMinutes: 60,
} as const;

/**
 * Fixed windows on top of the pair's waits, counting every attempt that reaches the password check
 * (a correct password gives its hit back).
 *
 * `address`: one client address across accounts (a guesser trying many accounts). Its refusal can
 * last the rest of the window, also for the right password from that address.
 *
 * `account`: every address together on one account, per minute: the safeguard against a guesser
 * spread over many addresses, each pair of which stays within its own waits (without it, such a
 * guesser gets as many guesses as it has addresses). It is a rate, not a lockout, so that it cannot
 * be turned against the owner: it takes more than one address can make (a pair gets ten attempts in
 * its first minute, then one a minute), a refusal lasts at most until the minute ends (Retry-After
 * of 60 s or less), and addresses from which the account signed in within `KNOWN_ADDRESS_DAYS` are
 * not subject to it at all: a guesser keeping the account busy minute after minute still does not
 * keep its owner out from their usual address.
 */
export const SIGN_IN_LIMITS = {
  account: { max: 20, windowMinutes: 1 },
  address: { max: 20, windowMinutes: 15 },
} as const satisfies Record<string, Limit>;

/** How long an address that signed in to an account is exempt from the account's per-minute limit. */
export const KNOWN_ADDRESS_DAYS = 30;

/** "Forgot password?" requests per email and per client address, failed or not: each may send mail. */
export const FORGOT_PASSWORD_LIMITS = {
  email: { max: 3, windowMinutes: 60 },
  address: { max: 10, windowMinutes: 15 },
} as const satisfies Record<string, Limit>;

/** The answer to an attempt: allowed, or refused with the seconds until it may be tried again. */
export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A wait in the screens' words: seconds under a minute, whole minutes (rounded up) from a minute on. */
export function waitText(seconds: number): string {
  if (seconds < 60) {
    const s = Math.max(1, Math.ceil(seconds));
    return s === 1 ? '1 second' : `${s} seconds`;
  }
  const m = Math.ceil(seconds / 60);
  return m === 1 ? '1 minute' : `${m} minutes`;
}

/** The seconds a pair waits after `failures` failures before its next attempt (0: none). */
export function signInWaitSeconds(failures: number): number {
  const { freeFailures, firstWaitSeconds, maxWaitSeconds } = SIGN_IN_THROTTLE;
  if (failures <= freeFailures) return 0;
  // The exponent is bounded too, so a long run of failures cannot reach Infinity.
  return Math.min(firstWaitSeconds * 2 ** Math.min(failures - freeFailures - 1, 30), maxWaitSeconds);
}

/** The pair's waits by failures so far, in milliseconds, up to the first capped one. */
const PAIR_WAITS_MS: readonly number[] = (() => {
  const waits: number[] = [];
  for (let n = 0; waits.at(-1) !== SIGN_IN_THROTTLE.maxWaitSeconds * 1000; n++) waits.push(signInWaitSeconds(n) * 1000);
  return waits;
})();
const PAIR_TTL_MS = SIGN_IN_THROTTLE.forgetMinutes * 60_000;

// Addresses are percent-encoded, so no address can end a key early and no two pairs share a key.
const signInAccountKey = (email: string) => `sign-in:account-minute:${normalizeEmail(email)}`;
const signInAddressKey = (address: string) => `sign-in:address:${address}`;
const signInPairKey = (email: string, address: string | null) =>
  `sign-in:pair:${encodeURIComponent(address ?? '')}:${normalizeEmail(email)}`;
const knownAddressKey = (email: string, address: string) =>
  `sign-in:known:${encodeURIComponent(address)}:${normalizeEmail(email)}`;

function secondsUntil(resetAt: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(resetAt) - now.getTime()) / 1000));
}

let lastSweep = 0;
/** Ended windows are deleted now and then (at most every 10 minutes per instance), not on every hit. */
async function sweepNowAndThen(db: Kysely<Database>, now: Date): Promise<void> {
  if (now.getTime() - lastSweep < 600_000) return;
  lastSweep = now.getTime();
  await deleteExpiredRateLimits(db, now);
}

async function take(db: Kysely<Database>, entries: [key: string, limit: Limit][], now: Date): Promise<LimitDecision> {
  await sweepNowAndThen(db, now);
  let retryAfterSeconds = 0;
  for (const [key, limit] of entries) {
    const count = await hitRateLimit(db, key, limit.windowMinutes * 60_000, now);
    if (count.hits > limit.max) retryAfterSeconds = Math.max(retryAfterSeconds, secondsUntil(count.resetAt, now));
  }
  return retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds } : { allowed: true };
}

/** Seconds until the window ends if `count` has reached `limit` (`counted`: this attempt's own hit is in it), else 0. */
function overLimit(count: RateLimitCount | null, limit: Limit, counted: boolean, now: Date): number {
  if (!count) return 0;
  return (counted ? count.hits > limit.max : count.hits >= limit.max) ? secondsUntil(count.resetAt, now) : 0;
}

/** The seconds the pair must still wait, read after its attempt was not taken. */
async function pairRetryAfter(db: Kysely<Database>, key: string, now: Date): Promise<number> {
  const count = await peekRateLimit(db, key, now);
  if (!count) return 1; // cleared in between: the next attempt is due at once
  const latestFailure = Date.parse(count.resetAt) - PAIR_TTL_MS;
  const dueAt = latestFailure + signInWaitSeconds(count.hits) * 1000;
  return Math.min(SIGN_IN_THROTTLE.maxWaitSeconds, Math.max(1, Math.ceil((dueAt - now.getTime()) / 1000)));
}

/**
 * Takes a password attempt before the password is checked, so that parallel guesses are counted
 * too: refused while a limit already reached holds the account or the address, or while the pair
 * must wait; otherwise counted as a failure of the pair, the account and the address until
 * `signInSucceeded` says it was right. A refused attempt counts nowhere, so trying again early does
 * not make the wait longer. Parallel attempts past the pair can still push the account or the
 * address over its limit: those are refused, having been counted.
 */
export async function beginSignInAttempt(
  db: Kysely<Database>,
  email: string,
  address: string | null,
  now: Date = new Date(),
): Promise<LimitDecision> {
  await sweepNowAndThen(db, now);
  const accountKey = signInAccountKey(email);
  const addressKey = address ? signInAddressKey(address) : null;
  let known: Promise<boolean> | undefined;
  const exempt = () =>
    (known ??= address
      ? peekRateLimit(db, knownAddressKey(email, address), now).then(Boolean)
      : Promise.resolve(false));

  const refusal = async (
    counted: boolean,
    accountCount: RateLimitCount | null,
    addressCount: RateLimitCount | null,
  ) => {
    let seconds = overLimit(addressCount, SIGN_IN_LIMITS.address, counted, now);
    const accountSeconds = overLimit(accountCount, SIGN_IN_LIMITS.account, counted, now);
    if (accountSeconds > 0 && !(await exempt())) seconds = Math.max(seconds, accountSeconds);
    return seconds;
  };

  const before = await refusal(
    false,
    await peekRateLimit(db, accountKey, now),
    addressKey ? await peekRateLimit(db, addressKey, now) : null,
  );
  if (before > 0) return { allowed: false, retryAfterSeconds: before };

  const pairKey = signInPairKey(email, address);
  if (!(await hitRateLimitWhenDue(db, pairKey, PAIR_TTL_MS, PAIR_WAITS_MS, now))) {
    return { allowed: false, retryAfterSeconds: await pairRetryAfter(db, pairKey, now) };
  }

  const accountCount = await hitRateLimit(db, accountKey, SIGN_IN_LIMITS.account.windowMinutes * 60_000, now);
  const addressCount = addressKey
    ? await hitRateLimit(db, addressKey, SIGN_IN_LIMITS.address.windowMinutes * 60_000, now)
    : null;
  const after = await refusal(true, accountCount, addressCount);
  return after > 0 ? { allowed: false, retryAfterSeconds: after } : { allowed: true };
}

/**
 * A correct password: the pair's failures are cleared, the account's and the address's hits given
 * back, and the address is known to the account for `KNOWN_ADDRESS_DAYS`.
 */
export async function signInSucceeded(
  db: Kysely<Database>,
  email: string,
  address: string | null,
  now: Date = new Date(),
): Promise<void> {
  await clearRateLimit(db, signInPairKey(email, address));
  await refundRateLimit(db, signInAccountKey(email));
  if (address) {
    await refundRateLimit(db, signInAddressKey(address));
    await setRateLimit(
      db,
      knownAddressKey(email, address),
      1,
      new Date(now.getTime() + KNOWN_ADDRESS_DAYS * 86_400_000),
    );
  }
}

/**
 * A new password was set through a one-time link: the failures of the pair that set it are
 * cleared, and its address is known to the account. Other addresses keep waiting: a new password is
 * no reason to let a guesser go faster.
 */
export async function clearSignInFailures(
  db: Kysely<Database>,
  email: string,
  address: string | null,
  now: Date = new Date(),
): Promise<void> {
  await clearRateLimit(db, signInPairKey(email, address));
  if (address)
    await setRateLimit(
      db,
      knownAddressKey(email, address),
      1,
      new Date(now.getTime() + KNOWN_ADDRESS_DAYS * 86_400_000),
    );
}

export function takeForgotPasswordAttempt(
  db: Kysely<Database>,
  email: string,
  address: string | null,
  now: Date = new Date(),
): Promise<LimitDecision> {
  const entries: [string, Limit][] = [[`forgot-password:email:${normalizeEmail(email)}`, FORGOT_PASSWORD_LIMITS.email]];
  if (address) entries.push([`forgot-password:address:${address}`, FORGOT_PASSWORD_LIMITS.address]);
  return take(db, entries, now);
}
