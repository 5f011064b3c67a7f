import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/* ------------------------------------------------------------------------------------------------
 * The general api limiter's counters (plugins/app/rate-limit.ts, and the transfer passphrase check):
 * @fastify/rate-limit's own stores, fixed windows per key, in memory by default and in Redis when
 * REDIS_URL is set (several instances then share the counters). Ours: memory while Redis is down.
 * The sign-in and password-reset limits, counted in the database, are modules/auth/sign-in-limits.ts.
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

/** A window as @fastify/rate-limit's stores report it: the hits, and the milliseconds left of it. */
interface Counted {
  current: number;
  ttl: number;
}
type Done = (error: Error | null, counted?: Counted) => void;

/** @fastify/rate-limit's store interface, as its LocalStore and RedisStore implement it. */
interface CounterStore {
  incr(key: string, done: Done, timeWindow: number, max: number): void;
  read(key: string, done: Done, timeWindow: number, max: number): void;
}

// The plugin's stores are files of its own (no `exports` map, no types): required as they are. Neither
// `continueExceeding` nor `exponentialBackoff` is used.
const LocalStore: new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache: number,
) => CounterStore = require('@fastify/rate-limit/store/LocalStore');
const RedisStore: new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  prefix: string,
) => CounterStore = require('@fastify/rate-limit/store/RedisStore');

/** Keys counted in memory per window length; the least recently used go first beyond that. */
const MEMORY_KEYS = 100_000;
/** `hit` has no maximum of its own (its caller compares): the stores only read one to extend windows, which is off. */
const NO_MAX = Number.MAX_SAFE_INTEGER;

function count(store: CounterStore, method: 'incr' | 'read', key: string, windowMs: number, max: number) {
  return new Promise<Counted>((resolve, reject) =>
    store[method](
      key,
      (error, counted) => (error || !counted ? reject(error ?? new Error('no count')) : resolve(counted)),
      windowMs,
      max,
    ),
  );
}

/**
 * The api's counters: @fastify/rate-limit's Redis store while Redis answers, its memory store while it
 * does not (a rate limiter never fails a request; an outage is logged once when it starts and once
 * when it ends), or memory alone without REDIS_URL. It is the plugin's `store` (`incr`, `read`,
 * `child`) and the `hit`/`peek` modules/transfers/access.ts counts wrong passphrases with.
 */
export class FallbackRateLimitStore implements RateLimitStore {
  private down = false;
  private readonly primary: CounterStore | null;
  /** One memory store per window length: @fastify/rate-limit's LocalStore reads a window with its length. */
  private readonly memory = new Map<number, CounterStore>();

  constructor(
    readonly redis: Redis | null,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
  ) {
    this.primary = redis && new RedisStore(false, false, redis, 'portal:rate-limit:');
    redis?.on('error', (error: Error) => this.markDown(error));
    redis?.on('ready', () => {
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

  private memoryFor(windowMs: number): CounterStore {
    let store = this.memory.get(windowMs);
    if (!store) this.memory.set(windowMs, (store = new LocalStore(false, false, MEMORY_KEYS)));
    return store;
  }

  private async counted(method: 'incr' | 'read', key: string, windowMs: number, max: number): Promise<Counted> {
    if (this.primary && this.redis?.status === 'ready') {
      try {
        return await count(this.primary, method, key, windowMs, max);
      } catch (error) {
        this.markDown(error);
      }
    }
    if (method === 'incr') return count(this.memoryFor(windowMs), 'incr', key, windowMs, max);
    // a peek does not know the window's length: each length has its own store
    for (const [length, store] of this.memory) {
      const counted = await count(store, 'read', key, length, max);
      if (counted.current > 0) return counted;
    }
    return { current: 0, ttl: 0 };
  }

  /** @fastify/rate-limit's store: counts a request. */
  incr(key: string, done: Done, timeWindow: number, max: number): void {
    this.counted('incr', key, timeWindow, max).then(
      // never a window of 0 s: the answer says how many seconds to wait (at least 1)
      ({ current, ttl }) => done(null, { current, ttl: Math.max(1, ttl) }),
      (error: Error) => done(error),
    );
  }

  /** @fastify/rate-limit's store: reads a key's window without counting. */
  read(key: string, done: Done, timeWindow: number, max: number): void {
    this.counted('read', key, timeWindow, max).then(
      (counted) => done(null, counted),
      (error: Error) => done(error),
    );
  }

  /** @fastify/rate-limit's store for a route with its own limit: the same counters (no route has one). */
  child(): this {
    return this;
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const { current, ttl } = await this.counted('incr', key, windowMs, NO_MAX);
    return { hits: current, resetAt: Date.now() + Math.max(1, ttl) };
  }

  async peek(key: string): Promise<WindowCount | null> {
    const { current, ttl } = await this.counted('read', key, 0, NO_MAX);
    return current > 0 && ttl > 0 ? { hits: current, resetAt: Date.now() + ttl } : null;
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
    this.memory.clear();
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
}): Promise<FallbackRateLimitStore> {
  if (!options.redisUrl) return new FallbackRateLimitStore(null, options.log);
  const redis = new Redis(options.redisUrl, {
    lazyConnect: true,
    // Commands fail at once while disconnected instead of queueing: the request falls back to memory.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    retryStrategy: (times) => Math.min(times * 500, 5_000),
  });
  const store = new FallbackRateLimitStore(redis, options.log);
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
