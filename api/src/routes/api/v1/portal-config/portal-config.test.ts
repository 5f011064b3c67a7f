import { portalConfigSchema } from '@portal/shared/core/schemas';
import { createTestApp, type TestApp } from '../../../../test/app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    seed: false,
    env: { BRAND_NAME: 'Acme Assurance', API_VERSION: '2.0.1', UI_VERSION: '3.4.5' },
  });
});
afterAll(() => t.close());

describe('GET /api/v1/portal-config', () => {
  it('answers the configured brand and versions to anyone, never from a stale cache', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/v1/portal-config' });
    expect(res.statusCode).toBe(200);
    expect(portalConfigSchema.parse(res.json())).toEqual({
      brandName: 'Acme Assurance',
      apiVersion: '2.0.1',
      uiVersion: '3.4.5',
    });
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-api-version']).toBe('2.0.1');
    expect(res.headers['x-ui-version']).toBe('3.4.5');
  });

  it('stays public when the caller’s session cookie is stale', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/portal-config', cookie: 'pe_session_token=not-a-session' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ brandName: 'Acme Assurance' });
  });
});

describe('GET /api/v1/portal-config defaults', () => {
  it('says Tevora and dev when nothing is configured', async () => {
    const plain = await createTestApp({ seed: false });
    try {
      const res = await plain.inject({ method: 'GET', url: '/api/v1/portal-config' });
      expect(res.json()).toEqual({ brandName: 'Tevora', apiVersion: 'dev', uiVersion: 'dev' });
    } finally {
      await plain.close();
    }
  });
});
