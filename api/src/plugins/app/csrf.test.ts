import { createTestApp, type TestApp } from '../../test/app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    seed: false,
    env: { TRUST_PROXY: 'true', ALLOWED_HOSTS: 'portal.example:8080' },
    extend: (app) =>
      app.register(async (scope) => {
        scope.post('/api/v1/test/change', { config: { policy: 'public' } }, async () => ({ changed: true }));
        scope.get('/api/v1/test/read', { config: { policy: 'public' } }, async () => ({ read: true }));
      }),
  });
});
afterAll(() => t.close());

const post = (headers: Record<string, string>) =>
  t.inject({
    method: 'POST',
    url: '/api/v1/test/change',
    headers: { host: 'portal.example:8080', ...headers },
    payload: {},
  });

describe('CSRF rule for state-changing api calls', () => {
  it('rejects a POST without the X-Portal-Client header', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'csrf_rejected', requestId: res.headers['x-request-id'] });
  });

  it('rejects a wrong header value', async () => {
    expect((await post({ 'x-portal-client': 'curl' })).statusCode).toBe(403);
  });

  it('rejects the header without an Origin or Referer', async () => {
    const res = await post({ 'x-portal-client': 'web' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'csrf_rejected',
      message: 'The request was rejected: the Origin header is missing.',
    });
  });

  it('accepts a same-origin Referer where the Origin is missing, and refuses a foreign one', async () => {
    const same = await post({ 'x-portal-client': 'web', referer: 'http://portal.example:8080/settings' });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual({ changed: true });
    expect((await post({ 'x-portal-client': 'web', referer: 'https://evil.example/page' })).statusCode).toBe(403);
  });

  it('accepts the header with a same-origin Origin', async () => {
    expect((await post({ 'x-portal-client': 'web', origin: 'http://portal.example:8080' })).statusCode).toBe(200);
  });

  it('rejects a cross-origin Origin even with the header', async () => {
    const res = await post({ 'x-portal-client': 'web', origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf_rejected');
  });

  it('rejects the same host on another port or scheme', async () => {
    expect((await post({ 'x-portal-client': 'web', origin: 'http://portal.example:9090' })).statusCode).toBe(403);
    expect((await post({ 'x-portal-client': 'web', origin: 'https://portal.example:8080' })).statusCode).toBe(403);
  });

  it('honours X-Forwarded-Proto behind a proxy', async () => {
    const res = await post({
      'x-portal-client': 'web',
      origin: 'https://portal.example:8080',
      'x-forwarded-proto': 'https',
    });
    expect(res.statusCode).toBe(200);
  });

  it('does not apply to reads', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/api/v1/test/read',
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(200);
  });
});
