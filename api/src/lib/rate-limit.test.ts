import net from 'node:net';
import { Redis } from 'ioredis';
import { FallbackRateLimitStore, createRateLimitStore } from './rate-limit';

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

describe('the api rate-limit store in memory (no REDIS_URL)', () => {
  let store: FallbackRateLimitStore;
  beforeEach(async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    store = await createRateLimitStore({ redisUrl: null, log: quietLog() });
  });
  afterEach(async () => {
    await store.close();
    jest.useRealTimers();
  });

  it('counts hits per key in fixed windows', async () => {
    expect(await store.hit('a', 60_000)).toEqual({ hits: 1, resetAt: 1_060_000 });
    expect((await store.hit('a', 60_000)).hits).toBe(2);
    expect((await store.hit('b', 60_000)).hits).toBe(1);
    jest.setSystemTime(1_059_999);
    expect(await store.hit('a', 60_000)).toEqual({ hits: 3, resetAt: 1_060_000 });
    jest.setSystemTime(1_060_000);
    expect(await store.hit('a', 60_000)).toEqual({ hits: 1, resetAt: 1_120_000 });
  });

  it('peeks at a window without counting', async () => {
    expect(await store.peek('a')).toBeNull();
    await store.hit('a', 60_000);
    expect(await store.peek('a')).toEqual({ hits: 1, resetAt: 1_060_000 });
    expect(await store.peek('a')).toEqual({ hits: 1, resetAt: 1_060_000 });
    jest.setSystemTime(1_060_000);
    expect(await store.peek('a')).toBeNull();
  });

  it('peeks at windows of any length', async () => {
    await store.hit('api', 60_000);
    await store.hit('passphrase', 900_000);
    await store.hit('passphrase', 900_000);
    expect(await store.peek('passphrase')).toEqual({ hits: 2, resetAt: 1_900_000 });
    jest.setSystemTime(1_060_000);
    expect(await store.peek('api')).toBeNull();
    expect(await store.peek('passphrase')).toEqual({ hits: 2, resetAt: 1_900_000 });
  });
});

describe('FallbackRateLimitStore', () => {
  it('keeps counting in memory when Redis cannot be reached, and logs that once', async () => {
    const log = quietLog();
    const store = await createRateLimitStore({
      redisUrl: `redis://127.0.0.1:${await closedPort()}`,
      log,
      connectWaitMs: 500,
    });
    try {
      expect(store).toBeInstanceOf(FallbackRateLimitStore);
      expect(store.redis).not.toBeNull();
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
    jest.spyOn(redis, 'sendCommand').mockImplementation((command) => {
      command.reject(new Error('Connection is closed.'));
      return command.promise;
    });
    const store = new FallbackRateLimitStore(redis, log);
    expect((await store.hit('k', 60_000)).hits).toBe(1);
    expect((await store.hit('k', 60_000)).hits).toBe(2);
    expect(log.warn).toHaveBeenCalledTimes(1);
    redis.disconnect();
  });

  it('is plain memory without REDIS_URL', async () => {
    const store = await createRateLimitStore({ redisUrl: null, log: quietLog() });
    expect(store.redis).toBeNull();
    expect((await store.hit('k', 60_000)).hits).toBe(1);
  });
});

(REDIS_URL ? describe : describe.skip)('the api rate-limit store in Redis (REDIS_URL)', () => {
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

  it("peeks at another instance's window without counting", async () => {
    const log = quietLog();
    const a = await createRateLimitStore({ redisUrl: REDIS_URL, log });
    const b = await createRateLimitStore({ redisUrl: REDIS_URL, log });
    const key = `test-${Date.now()}-${Math.random()}`;
    try {
      expect(await b.peek(key)).toBeNull();
      await a.hit(key, 60_000);
      const seen = await b.peek(key);
      expect(seen?.hits).toBe(1);
      expect(seen!.resetAt - Date.now()).toBeGreaterThan(50_000);
      expect((await b.peek(key))?.hits).toBe(1);
      expect(log.warn).not.toHaveBeenCalled();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
