import { createHmac } from 'node:crypto';
import { userSchema } from '@portal/shared/core/schemas';
import { createTestApp, type TestApp } from '../../../../test/app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/v1/users/profile/me', () => {
  it('answers 401 without a session', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/users/profile/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized', requestId: res.headers['x-request-id'] });
  });

  it('returns the signed-in user in the shape of userSchema', async () => {
    const res = await t.api({
      method: 'GET',
      url: '/api/v1/users/profile/me',
      cookie: await t.cookieFor('admin@demo.test'),
    });
    expect(res.statusCode).toBe(200);
    const me = userSchema.parse(res.json());
    expect(me).toMatchObject({
      email: 'admin@demo.test',
      login: 'admin@demo.test',
      firstName: 'Alice',
      lastName: 'Morgan',
      status: 'active',
      isTevora: true,
      isAuditor: false,
      admin: { active: true },
      metadata: { firstLogin: false, isFederated: false, isLead: false },
      projectRoles: [],
    });
    expect(me.ldhmac).toBe(createHmac('sha256', 'test-flag-secret').update(me.id).digest('hex'));
    expect(JSON.stringify(res.json())).not.toMatch(/password|hash/i);
  });

  it('reports the auditor and client flags', async () => {
    const auditor = (
      await t.api({ method: 'GET', url: '/api/v1/users/profile/me', cookie: await t.cookieFor('auditor@demo.test') })
    ).json();
    expect(auditor).toMatchObject({ isTevora: true, isAuditor: true, admin: { active: false } });
    const client = (
      await t.api({ method: 'GET', url: '/api/v1/users/profile/me', cookie: await t.cookieFor('client@globex.test') })
    ).json();
    expect(client).toMatchObject({ isTevora: false, isAuditor: false, admin: { active: false } });
  });
});
