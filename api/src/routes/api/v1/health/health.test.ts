import { healthSchema } from '@portal/shared/core/schemas';
import { buildApp } from '../../../../app';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../../../../db/schema';
import { createTestApp, inject, type TestApp } from '../../../../test/app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ seed: false, env: { API_VERSION: '1.2.3', UI_VERSION: '4.5.6' } });
});
afterAll(() => t.close());

describe('GET /api/v1/health', () => {
  it('answers ok with the api version, publicly', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(healthSchema.parse(res.json())).toEqual({ status: 'ok', database: 'ok', apiVersion: '1.2.3' });
    expect(res.headers['x-api-version']).toBe('1.2.3');
    expect(res.headers['x-ui-version']).toBe('4.5.6');
  });

  it('answers 503 service_unavailable when the database is gone', async () => {
    // A database that cannot be reached: every connection attempt fails.
    const unreachable = new Kysely<Database>({
      dialect: new SqliteDialect({
        database: async () => {
          throw new Error('database is down');
        },
      }),
    });
    const app = buildApp({ db: unreachable, config: t.config });
    await app.ready();
    const res = await inject(app, { method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'service_unavailable', requestId: res.headers['x-request-id'] });
    await app.close();
    await unreachable.destroy().catch(() => undefined);
  });
});
