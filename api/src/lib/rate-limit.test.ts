import net from 'node:net';
import { Redis } from 'ioredis';
import { clearRateLimit, hitRateLimit, hitRateLimitWhenDue, peekRateLimit, refundRateLimit } from '../db/rate-limits';
import { createTestDatabase, type TestDatabase } from '../test/app';
import { migrateToLatest } from '../db/migrate';
import { FallbackRateLimitStore, MemoryRateLimitStore, RedisRateLimitStore, createRateLimitStore } from './rate-limit';

const REDIS_URL = process.env.REDIS_URL || null;

function quietLog() {
  return { warn: jest.fn(), info: jest.fn() };
}

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('MemoryRateLimitStore', () => {
  it('counts hits per key in fixed windows', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    expect(await store.hit('a', 60_000)).toEqual({ hits: 1, resetAt: 1_060_000 });
    expect((await store.hit('a', 60_000)).hits).toBe(2);
    expect((await store.hit('b', 60_000)).hits).toBe(1);
    now += 59_999;
    expect(await store.hit('a', 60_000)).toEqual({ hits: 3, resetAt: 1_060_000 });
    now += 1;
    expect(await store.hit('a', 60_000)).toEqual({ hits: 1, resetAt: 1_120_000 });
  });

  it('peeks at a window without counting', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    expect(await store.peek('a')).toBeNull();
    await store.hit('a', 60_000);
    expect(await store.peek('a')).toEqual({ hits: 1, resetAt: 1_060_000 });
    expect(await store.peek('a')).toEqual({ hits: 1, resetAt: 1_060_000 });
    now += 60_000;
    expect(await store.peek('a')).toBeNull();
  });
});

describe('rate_limits in the database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateToLatest(database.db, database.dialect);
  });
  afterAll(() => database.destroy());

  it('counts in fixed windows and starts again once a window has ended', async () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    expect(await hitRateLimit(database.db, 'k', 60_000, now)).toEqual({ hits: 1, resetAt: '2026-01-01T00:01:00.000Z' });
    expect(await hitRateLimit(database.db, 'k', 60_000, new Date('2026-01-01T00:00:30.000Z'))).toEqual({ hits: 2, resetAt: '2026-01-01T00:01:00.000Z' });
    expect(await peekRateLimit(database.db, 'k', new Date('2026-01-01T00:00:59.000Z'))).toEqual({ hits: 2, resetAt: '2026-01-01T00:01:00.000Z' });
    expect(await peekRateLimit(database.db, 'k', new Date('2026-01-01T00:01:00.000Z'))).toBeNull();
    expect(await hitRateLimit(database.db, 'k', 60_000, new Date('2026-01-01T00:01:00.000Z'))).toEqual({ hits: 1, resetAt: '2026-01-01T00:02:00.000Z' });
  });

  it('gives hits back (never below 0) and clears', async () => {
    const now = new Date();
    await hitRateLimit(database.db, 'r', 60_000, now);
    await refundRateLimit(database.db, 'r');
    await refundRateLimit(database.db, 'r');
    expect((await peekRateLimit(database.db, 'r', now))!.hits).toBe(0);
    await clearRateLimit(database.db, 'r');
    expect(await peekRateLimit(database.db, 'r', now)).toBeNull();
  });

  it('counts every one of many parallel hits', async () => {
    const counts = await Promise.all(Array.from({ length: 12 }, () => hitRateLimit(database.db, 'parallel', 60_000)));
    expect(counts.map((c) => c.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('counts a hit only when it is due, sliding the row on, and forgets a row untouched for its time', async () => {
    const at = (ms: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + ms);
    const waits = [0, 1_000, 5_000];
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(0))).toEqual({ hits: 1, resetAt: '2026-01-01T00:01:00.000Z' });
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(999))).toBeNull();
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(1_000))).toEqual({ hits: 2, resetAt: '2026-01-01T00:01:01.000Z' });
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(5_999))).toBeNull();
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(6_000))).toEqual({ hits: 3, resetAt: '2026-01-01T00:01:06.000Z' });
    // the last wait holds for any count beyond
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(10_999))).toBeNull();
    expect((await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(11_000)))!.hits).toBe(4);
    expect(await peekRateLimit(database.db, 'due', at(11_000))).toEqual({ hits: 4, resetAt: '2026-01-01T00:01:11.000Z' });
    expect(await hitRateLimitWhenDue(database.db, 'due', 60_000, waits, at(71_000))).toEqual({ hits: 1, resetAt: '2026-01-01T00:02:11.000Z' });
  });

  it('lets exactly one of parallel hits through when one is due', async () => {
    const now = new Date();
    const waits = [0, 0, 60_000];
    await hitRateLimitWhenDue(database.db, 'due-parallel', 60_000, waits, now);
    const answers = await Promise.all(Array.from({ length: 8 }, () => hitRateLimitWhenDue(database.db, 'due-parallel', 60_000, waits, now)));
    expect(answers.filter(Boolean)).toEqual([expect.objectContaining({ hits: 2 })]);
    expect((await peekRateLimit(database.db, 'due-parallel', now))!.hits).toBe(2);
  });
});

describe('FallbackRateLimitStore', () => {
  it('keeps counting in memory when Redis cannot be reached, and logs that once', async () => {
    const log = quietLog();
    const store = await createRateLimitStore({ redisUrl: `redis://127.0.0.1:${await closedPort()}`, log, connectWaitMs: 500 });
    try {
      expect(store).toBeInstanceOf(FallbackRateLimitStore);
      for (let i = 1; i <= 5; i++) expect((await store.hit('k', 60_000)).hits).toBe(i);
      expect(log.warn).toHaveBeenCalledTimes(1);
      expect(log.warn.mock.calls[0][1]).toMatch(/Redis is unreachable/);
    } finally {
      await store.close();
    }
  });

  it('falls back for a request whose Redis command fails', async () => {
    const log = quietLog();
    const redis = new Redis({ lazyConnect: true });
    Object.defineProperty(redis, 'status', { get: () => 'ready' });
    jest.spyOn(redis, 'eval').mockRejectedValue(new Error('Connection is closed.'));
    const store = new FallbackRateLimitStore(new RedisRateLimitStore(redis), new MemoryRateLimitStore(), log);
    expect((await store.hit('k', 60_000)).hits).toBe(1);
    expect((await store.hit('k', 60_000)).hits).toBe(2);
    expect(log.warn).toHaveBeenCalledTimes(1);
    redis.disconnect();
  });

  it('is plain memory without REDIS_URL', async () => {
    expect(await createRateLimitStore({ redisUrl: null, log: quietLog() })).toBeInstanceOf(MemoryRateLimitStore);
  });
});

(REDIS_URL ? describe : describe.skip)('RedisRateLimitStore (REDIS_URL)', () => {
  it('shares fixed windows between stores (instances) and expires them', async () => {
    const log = quietLog();
    const a = await createRateLimitStore({ redisUrl: REDIS_URL, log });
    const b = await createRateLimitStore({ redisUrl: REDIS_URL, log });
    const key = `test-${Date.now()}-${Math.random()}`;
    try {
      expect((await a.hit(key, 1_000)).hits).toBe(1);
      expect((await b.hit(key, 1_000)).hits).toBe(2);
      const third = await a.hit(key, 1_000);
      expect(third.hits).toBe(3);
      expect(third.resetAt - Date.now()).toBeLessThanOrEqual(1_000);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await b.hit(key, 1_000)).hits).toBe(1);
      expect(log.warn).not.toHaveBeenCalled();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
