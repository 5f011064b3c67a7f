import { toIso } from '../../db/values';
import { createTestApp, type TestApp } from '../../test/app';

const REDIS_URL = process.env.REDIS_URL || null;

describe('the api rate limiter', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' } });
  });
  afterAll(() => t.close());

  const profile = (cookie?: string, remoteAddress?: string) =>
    t.api({ method: 'GET', url: '/api/v1/users/profile/me', cookie, ...(remoteAddress ? { remoteAddress } : {}) });

  it('allows RATE_LIMIT_MAX requests per session, then answers 429 too_many_requests with Retry-After', async () => {
    const cookie = await t.cookieFor('lead@acme.test');
    for (let i = 0; i < 3; i++) {
      const res = await profile(cookie);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await profile(cookie);
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json()).toEqual({
      code: 'too_many_requests',
      message: expect.stringMatching(/^Too many requests: please wait \d+ seconds and try again\.$/),
      requestId: limited.headers['x-request-id'],
    });
    // another session is counted apart
    expect((await profile(await t.cookieFor('member@acme.test'))).statusCode).toBe(200);
  });

  it('counts anonymous callers per address', async () => {
    for (let i = 0; i < 3; i++) expect((await profile(undefined, '10.5.0.1')).statusCode).toBe(401);
    expect((await profile(undefined, '10.5.0.1')).statusCode).toBe(429);
    expect((await profile(undefined, '10.5.0.2')).statusCode).toBe(401);
  });

  it('leaves the health check and the pages outside /api/v1 alone', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await t.inject({ method: 'GET', url: '/api/v1/health', remoteAddress: '10.6.0.1' })).statusCode).toBe(
        200,
      );
      expect((await t.inject({ method: 'GET', url: '/auth/saml/login', remoteAddress: '10.6.0.1' })).statusCode).toBe(
        200,
      );
    }
  });
});

(REDIS_URL ? describe : describe.skip)('the api rate limiter in Redis (REDIS_URL)', () => {
  it('counts one session across instances', async () => {
    const env = { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60', REDIS_URL: REDIS_URL! };
    const first = await createTestApp({ env });
    const second = await createTestApp({ env });
    try {
      // the same session id on both instances: a session row copied into the second database
      const cookie = await first.cookieFor('lead@acme.test');
      const row = await first.database.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
      const leadId = (
        await second.database.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'lead@acme.test')
          .executeTakeFirstOrThrow()
      ).id;
      await second.database.db
        .insertInto('sessions')
        .values({
          ...row,
          user_id: leadId,
          created_at: toIso(row.created_at),
          last_seen_at: toIso(row.last_seen_at),
          expires_at: toIso(row.expires_at),
        })
        .execute();
      const call = (app: typeof first) => app.api({ method: 'GET', url: '/api/v1/users/profile/me', cookie });
      expect((await call(first)).statusCode).toBe(200);
      expect((await call(second)).statusCode).toBe(200);
      expect((await call(first)).statusCode).toBe(200);
      expect((await call(second)).statusCode).toBe(429);
    } finally {
      await first.close();
      await second.close();
    }
  }, 30_000);
});
