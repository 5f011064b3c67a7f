import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { clearRateLimit, deleteExpiredRateLimits, hitRateLimit, refundRateLimit } from '../db/rate-limits';
import type { Database } from '../db/schema';
import { normalizeEmail } from '../db/users';

/* ------------------------------------------------------------------------------------------------
 * Sign-in and password-reset limits: counted in the database (`rate_limits`), so every instance
 * behind the proxy counts together. Fixed windows.
 * ---------------------------------------------------------------------------------------------- */

export interface Limit {
  max: number;
  windowMinutes: number;
}

/** Failed sign-ins (and wrong current passwords) per account, and per client address. */
export const SIGN_IN_LIMITS = {
  account: { max: 5, windowMinutes: 15 },
  address: { max: 20, windowMinutes: 15 },
} as const satisfies Record<string, Limit>;

/** "Forgot password?" requests per email and per client address, failed or not: each may send mail. */
export const FORGOT_PASSWORD_LIMITS = {
  email: { max: 3, windowMinutes: 60 },
  address: { max: 10, windowMinutes: 15 },
} as const satisfies Record<string, Limit>;

/** The answer to an attempt: allowed, or refused with the seconds until the window ends. */
export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const signInAccountKey = (email: string) => `sign-in:account:${normalizeEmail(email)}`;
const signInAddressKey = (address: string) => `sign-in:address:${address}`;

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

/**
 * Counts a password attempt for the account and the address before the password is checked (so
 * parallel guesses are counted too). Refused once the failures of the window reach the limit; a
 * correct password then gives its hits back with `signInSucceeded`.
 */
export function beginSignInAttempt(db: Kysely<Database>, email: string, address: string | null, now: Date = new Date()): Promise<LimitDecision> {
  const entries: [string, Limit][] = [[signInAccountKey(email), SIGN_IN_LIMITS.account]];
  if (address) entries.push([signInAddressKey(address), SIGN_IN_LIMITS.address]);
  return take(db, entries, now);
}

/** A correct password: the account's failures are forgiven and the address's hit is given back. */
export async function signInSucceeded(db: Kysely<Database>, email: string, address: string | null): Promise<void> {
  await clearRateLimit(db, signInAccountKey(email));
  if (address) await refundRateLimit(db, signInAddressKey(address));
}

/** A new password was set (by reset link or change): the account is not locked any more. */
export function clearSignInFailures(db: Kysely<Database>, email: string): Promise<void> {
  return clearRateLimit(db, signInAccountKey(email));
}

export function takeForgotPasswordAttempt(db: Kysely<Database>, email: string, address: string | null, now: Date = new Date()): Promise<LimitDecision> {
  const entries: [string, Limit][] = [[`forgot-password:email:${normalizeEmail(email)}`, FORGOT_PASSWORD_LIMITS.email]];
  if (address) entries.push([`forgot-password:address:${address}`, FORGOT_PASSWORD_LIMITS.address]);
  return take(db, entries, now);
}

/* ------------------------------------------------------------------------------------------------
 * The general api limiter: fixed windows per session (or per address), in memory by default and in
 * Redis when REDIS_URL is set (several instances then share the counters).
 * ---------------------------------------------------------------------------------------------- */

export interface WindowCount {
  hits: number;
  /** Epoch milliseconds when the window ends. */
  resetAt: number;
}

export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** The key's current window without counting a hit (null when it has none). */
  peek(key: string): Promise<WindowCount | null>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, WindowCount>();
  private nextSweep = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.clock();
    if (now >= this.nextSweep) {
      for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
      this.nextSweep = now + windowMs;
    }
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { hits: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.hits += 1;
    return { ...window };
  }

  async peek(key: string): Promise<WindowCount | null> {
    const window = this.windows.get(key);
    return window && window.resetAt > this.clock() ? { ...window } : null;
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

/** INCR, and start the window's expiry on its first hit; one round trip, atomic. */
const HIT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}
`;

/** The hits and the milliseconds left of a window; one round trip. */
const PEEK_SCRIPT = `
local hits = redis.call('GET', KEYS[1])
if not hits then return {0, -2} end
return {tonumber(hits), redis.call('PTTL', KEYS[1])}
`;

export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    readonly redis: Redis,
    private readonly prefix = 'portal:rate-limit:',
  ) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [hits, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs))) as [number, number];
    return { hits: Number(hits), resetAt: Date.now() + Number(ttl) };
  }

  async peek(key: string): Promise<WindowCount | null> {
    const [hits, ttl] = (await this.redis.eval(PEEK_SCRIPT, 1, this.prefix + key)) as [number, number];
    return Number(ttl) <= 0 ? null : { hits: Number(hits), resetAt: Date.now() + Number(ttl) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/**
 * Redis while it answers, memory while it does not: a rate limiter never fails a request. An outage
 * is logged once when it starts and once when it ends.
 */
export class FallbackRateLimitStore implements RateLimitStore {
  private down = false;

  constructor(
    private readonly primary: RedisRateLimitStore,
    private readonly fallback: RateLimitStore,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
  ) {
    primary.redis.on('error', (error: Error) => this.markDown(error));
    primary.redis.on('ready', () => {
      if (!this.down) return;
      this.down = false;
      this.log.info('Redis is reachable again: api rate limits are kept in Redis');
    });
  }

  private markDown(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.log.warn({ err: error }, 'Redis is unreachable: api rate limits are kept in memory until it is back');
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    if (this.primary.redis.status === 'ready') {
      try {
        return await this.primary.hit(key, windowMs);
      } catch (error) {
        this.markDown(error);
      }
    }
    return this.fallback.hit(key, windowMs);
  }

  async peek(key: string): Promise<WindowCount | null> {
    if (this.primary.redis.status === 'ready') {
      try {
        return await this.primary.peek(key);
      } catch (error) {
        this.markDown(error);
      }
    }
    return this.fallback.peek(key);
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}

/**
 * The store for REDIS_URL (or memory without one). Waits up to `connectWaitMs` for Redis at start,
 * so the first requests already count there; never rejects.
 */
export async function createRateLimitStore(options: {
  redisUrl: string | null;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  connectWaitMs?: number;
}): Promise<RateLimitStore> {
  const memory = new MemoryRateLimitStore();
  if (!options.redisUrl) return memory;
  const redis = new Redis(options.redisUrl, {
    lazyConnect: true,
    // Commands fail at once while disconnected instead of queueing: the request falls back to memory.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    retryStrategy: (times) => Math.min(times * 500, 5_000),
  });
  const store = new FallbackRateLimitStore(new RedisRateLimitStore(redis), memory, options.log);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    redis.connect().catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, options.connectWaitMs ?? 2_000);
    }),
  ]);
  clearTimeout(timer);
  return store;
}
