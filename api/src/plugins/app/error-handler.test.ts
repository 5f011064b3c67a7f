const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(v);
import { HttpError } from '../../lib/http-error';
import { createTestApp, type TestApp } from '../../test/app';

let t: TestApp;
let reached = 0;

beforeAll(async () => {
  t = await createTestApp({
    seed: false,
    extend: (app) =>
      app.register(async (scope) => {
        scope.post('/api/v1/test/echo', { config: { policy: 'public' } }, async (request) => ({
          received: request.body,
        }));
        scope.get('/api/v1/test/boom', { config: { policy: 'public' } }, async () => {
          throw new Error('secret database detail');
        });
        scope.get('/api/v1/test/teapot', { config: { policy: 'public' } }, async () => {
          throw new HttpError(409, 'project_already_exist');
        });
        scope.get('/api/v1/test/refused/:code', { config: { policy: 'public' } }, async (request) => {
          // what the pg driver throws when PostgreSQL refuses a value
          throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
            code: (request.params as { code: string }).code,
            severity: 'ERROR',
          });
        });
        scope.get('/api/v1/test/unreachable/:kind', { config: { policy: 'public' } }, async (request) => {
          // what the pg driver and better-sqlite3 throw when the database cannot be reached
          const kind = (request.params as { kind: string }).kind;
          if (kind === 'shutdown')
            throw Object.assign(new Error('terminating connection due to administrator command'), {
              code: '57P01',
              severity: 'FATAL',
            });
          if (kind === 'starting')
            throw Object.assign(new Error('the database system is starting up'), { code: '57P03', severity: 'FATAL' });
          if (kind === 'refused')
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          if (kind === 'cut') throw new Error('Connection terminated unexpectedly');
          if (kind === 'pool') throw new Error('timeout exceeded when trying to connect');
          throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        });
        scope.delete('/api/v1/test/items/:itemId/parts/:partId', { config: { policy: 'public' } }, async () => {
          reached += 1;
          return {};
        });
        scope.get('/api/v1/test/items/:itemId', { config: { policy: 'public' } }, async (request) => {
          reached += 1;
          return { params: request.params, query: request.query };
        });
      }),
  });
});
afterAll(() => t.close());

function expectStandardHeaders(headers: Record<string, unknown>) {
  expect(isUuid(String(headers['x-request-id']))).toBe(true);
  expect(headers['x-api-version']).toBe('dev');
  expect(headers['x-ui-version']).toBe('dev');
}

describe('error handling and standard headers', () => {
  it('adds request id and version headers to api replies, with a new id per request', async () => {
    const a = await t.api({ method: 'GET', url: '/api/v1/health' });
    const b = await t.api({ method: 'GET', url: '/api/v1/health' });
    expectStandardHeaders(a.headers);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('ignores a request id sent by the client', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'forged' } });
    expect(res.headers['x-request-id']).not.toBe('forged');
  });

  it('answers an unknown /api/v1 path with a JSON 404 carrying the request id', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/nope', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expectStandardHeaders(res.headers);
    expect(res.json()).toEqual({
      code: 'not_found',
      message: expect.any(String),
      requestId: res.headers['x-request-id'],
    });
  });

  it('answers an unknown method on an api path with a JSON 404', async () => {
    const res = await t.api({ method: 'DELETE', url: '/api/v1/health' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });

  it('rejects malformed JSON with 400 bad_request', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/JSON body is malformed/) });
    expectStandardHeaders(res.headers);
  });

  it('accepts well-formed JSON', async () => {
    const res = await t.api({ method: 'POST', url: '/api/v1/test/echo', payload: { a: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: { a: 1 } });
  });

  it('rejects an unsupported content type with 415', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type', requestId: res.headers['x-request-id'] });
  });

  it('rejects a body over the limit with 413', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ big: 'x'.repeat(t.config.bodyLimitBytes + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });

  it('hides the details of a 500 and keeps the request id', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      code: 'internal_error',
      message: 'Internal server error',
      requestId: res.headers['x-request-id'],
    });
    expect(res.body).not.toMatch(/secret/);
    expectStandardHeaders(res.headers);
  });

  it('uses the catalogue message for a mapped code thrown without a message', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/test/teapot' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'project_already_exist',
      message: 'A project with this title already exists.',
    });
  });

  it.each(['22021', '22P02'])(
    'answers a value PostgreSQL refused (%s) with 400 validation_failed, without its detail',
    async (code) => {
      const res = await t.api({ method: 'GET', url: `/api/v1/test/refused/${code}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 'validation_failed',
        message: 'The request has invalid values.',
        requestId: res.headers['x-request-id'],
      });
    },
  );

  it.each(['shutdown', 'starting', 'refused', 'cut', 'pool', 'locked'])(
    'answers a database it cannot reach (%s) with 503 service_unavailable and Retry-After, without the detail',
    async (kind) => {
      const res = await t.api({ method: 'GET', url: `/api/v1/test/unreachable/${kind}` });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        code: 'service_unavailable',
        message: 'The portal cannot reach its database for a moment. Try again in 5 seconds.',
        requestId: res.headers['x-request-id'],
      });
      expectStandardHeaders(res.headers);
    },
  );

  it('keeps other database failures a 500', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/test/refused/23505' });
    expect(res.statusCode).toBe(500);
  });

  it.each([
    ['/api/v1/test/items/%00', 'path parameter', 'itemId'],
    ['/api/v1/test/items/a%00b', 'path parameter', 'itemId'],
    ['/api/v1/test/items/1?search=%00', 'query parameter', 'search'],
    ['/api/v1/test/items/1?tags[]=a&tags[]=b%00', 'query parameter', 'tags'],
    ['/api/v1/test/items/1?a%00=1', 'query parameter', 'a\\0'],
  ])('refuses %s before the handler runs, naming the %s', async (url, where, field) => {
    const before = reached;
    const res = await t.api({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      message: `Invalid ${where}: ${field}`,
      details: [{ field, message: `${field} must not contain a NUL character` }],
    });
    expect(reached).toBe(before);
  });

  it('lets parameters without NUL through', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/test/items/x%20y?search=caf%C3%A9' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ params: { itemId: 'x y' }, query: { search: 'café' } });
  });

  it("answers a path parameter too long to be an id with the JSON 404, not fastify's own 414", async () => {
    const before = reached;
    // (fastify's router refuses it with its own 414 and body when the method's tree has that route)
    const res = await t.api({
      method: 'DELETE',
      url: `/api/v1/test/items/1/parts/${'x'.repeat(300)}`,
      headers: { 'x-portal-client': 'web' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toMatchObject({
      code: 'not_found',
      message: 'Not found: a value in the path is too long to name anything',
    });
    expect(isUuid(body.requestId)).toBe(true);
    expect(body).not.toHaveProperty('statusCode');
    expectStandardHeaders(res.headers);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(reached).toBe(before);
  });
});
