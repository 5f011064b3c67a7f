import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { setUserModuleAccess } from '../../db/module-access';
import { findUserCredentialsByEmail } from '../../db/users';
import { createTestApp, type TestApp } from '../../test/app';
import { policyTargetUser } from './policies';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    extend: (app) =>
      app.register(async (scope) => {
        scope.get('/api/v1/test/staff', { config: { policy: 'staff' } }, async () => ({ ok: true }));
        scope.get('/api/v1/test/staff-admin', { config: { policy: 'staffAdmin' } }, async () => ({ ok: true }));
        scope.get(
          '/api/v1/test/companies/:id/reports',
          { config: { policy: { company: 'member', module: 'reports' } } },
          async () => ({
            ok: true,
          }),
        );
        scope.get(
          '/api/v1/test/companies/:id/requests',
          { config: { policy: { company: 'member', module: 'requests' } } },
          async () => ({
            ok: true,
          }),
        );
        scope.post(
          '/api/v1/test/companies/:id/information',
          { config: { policy: { company: 'settings', permission: 'company.editInformation' } } },
          async () => ({
            ok: true,
          }),
        );
        scope.post(
          '/api/v1/test/users/:id/manage',
          { config: { policy: { targetUser: 'company.editUsersAndTeams' } } },
          async (request) => ({
            email: policyTargetUser(request).email,
          }),
        );
      }),
  });
});
afterAll(() => t.close());

async function companyId(name: string): Promise<string> {
  const row = await t.database.db
    .selectFrom('companies')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('route policies', () => {
  it('refuses to start when an api route declares no policy', async () => {
    const app: FastifyInstance = buildApp({ db: t.database.db, config: t.config });
    app.register(async (scope) => {
      scope.get('/api/v1/test/forgotten', async () => ({ ok: true }));
    });
    await expect(app.ready()).rejects.toThrow(/GET \/api\/v1\/test\/forgotten declares no policy/);
    await app.close().catch(() => undefined);
  });

  it('refuses an /auth route without a policy too', async () => {
    const app = buildApp({ db: t.database.db, config: t.config });
    app.register(async (scope) => {
      scope.post('/auth/other', async () => ({ ok: true }));
    });
    await expect(app.ready()).rejects.toThrow(/declares no policy/);
    await app.close().catch(() => undefined);
  });

  it('answers 401 without a session', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/test/staff' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });

  it('lets staff through a staff policy and refuses clients with 403', async () => {
    expect(
      (await t.api({ method: 'GET', url: '/api/v1/test/staff', cookie: await t.cookieFor('consultant@demo.test') }))
        .statusCode,
    ).toBe(200);
    const res = await t.api({ method: 'GET', url: '/api/v1/test/staff', cookie: await t.cookieFor('lead@acme.test') });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
  });

  it('keeps staffAdmin for staff admins', async () => {
    expect(
      (await t.api({ method: 'GET', url: '/api/v1/test/staff-admin', cookie: await t.cookieFor('admin@demo.test') }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.api({
          method: 'GET',
          url: '/api/v1/test/staff-admin',
          cookie: await t.cookieFor('consultant@demo.test'),
        })
      ).statusCode,
    ).toBe(403);
  });

  it('answers 403 module_access_denied when the module is off for the user', async () => {
    const acme = await companyId('Acme Corp');
    const member = await t.cookieFor('member@acme.test');
    const res = await t.api({ method: 'GET', url: `/api/v1/test/companies/${acme}/reports`, cookie: member });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('module_access_denied');
    const lead = await t.cookieFor('lead@acme.test');
    expect(
      (await t.api({ method: 'GET', url: `/api/v1/test/companies/${acme}/reports`, cookie: lead })).statusCode,
    ).toBe(200);
  });

  it('applies the company ceiling: requests off in Globex for everybody, staff included', async () => {
    const globex = await companyId('Globex Inc');
    for (const email of ['client@globex.test', 'admin@demo.test']) {
      const res = await t.api({
        method: 'GET',
        url: `/api/v1/test/companies/${globex}/requests`,
        cookie: await t.cookieFor(email),
      });
      expect(res.statusCode).toBe(403);
    }
  });

  it('follows a change of module access at once', async () => {
    const acme = await companyId('Acme Corp');
    const both = await findUserCredentialsByEmail(t.database.db, 'both@acme.test');
    const cookie = await t.cookieFor('both@acme.test');
    const url = `/api/v1/test/companies/${acme}/reports`;
    expect((await t.api({ method: 'GET', url, cookie })).statusCode).toBe(200);
    await setUserModuleAccess(t.database.db, acme, both!.user.id, 'reports', false);
    expect((await t.api({ method: 'GET', url, cookie })).statusCode).toBe(403);
    await setUserModuleAccess(t.database.db, acme, both!.user.id, 'reports', null);
    expect((await t.api({ method: 'GET', url, cookie })).statusCode).toBe(200);
  });

  it('answers 404 company_not_found for a company the user cannot see, and for one that does not exist', async () => {
    const globex = await companyId('Globex Inc');
    const cookie = await t.cookieFor('member@acme.test');
    const hidden = await t.api({ method: 'GET', url: `/api/v1/test/companies/${globex}/reports`, cookie });
    const missing = await t.api({
      method: 'GET',
      url: '/api/v1/test/companies/00000000-0000-4000-8000-000000000000/reports',
      cookie,
    });
    expect(hidden.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(hidden.json().code).toBe('company_not_found');
    expect(hidden.json().message).toBe(missing.json().message);
  });

  describe('settings permissions', () => {
    const post = async (company: string, email: string) =>
      t.api({
        method: 'POST',
        url: `/api/v1/test/companies/${await companyId(company)}/information`,
        cookie: await t.cookieFor(email),
        payload: {},
      });

    it('lets a client company admin and non-auditor staff edit the company information', async () => {
      expect((await post('Acme Corp', 'lead@acme.test')).statusCode).toBe(200);
      expect((await post('Acme Corp', 'consultant@demo.test')).statusCode).toBe(200);
    });

    it('refuses members without the permission and auditors with 403, outsiders with 404', async () => {
      const member = await post('Acme Corp', 'member@acme.test');
      expect(member.statusCode).toBe(403);
      expect(member.json().code).toBe('forbidden');
      expect((await post('Globex Inc', 'auditor@demo.test')).statusCode).toBe(403);
      expect((await post('Globex Inc', 'lead@acme.test')).statusCode).toBe(404);
    });
  });

  describe('target-user policies', () => {
    const userId = async (email: string) => (await findUserCredentialsByEmail(t.database.db, email))!.user.id;
    const manage = async (target: string, caller: string) =>
      t.api({
        method: 'POST',
        url: `/api/v1/test/users/${await userId(target)}/manage`,
        cookie: await t.cookieFor(caller),
        payload: {},
      });

    it("lets a company admin manage users of the admin's company and staff manage anyone", async () => {
      const res = await manage('member@acme.test', 'lead@acme.test');
      expect(res.statusCode).toBe(200);
      expect(res.json().email).toBe('member@acme.test');
      expect((await manage('client@globex.test', 'consultant@demo.test')).statusCode).toBe(200);
    });

    it('hides users of other companies and staff from client users (404)', async () => {
      const other = await manage('client@globex.test', 'lead@acme.test');
      expect(other.statusCode).toBe(404);
      expect(other.json().code).toBe('user_not_found');
      expect((await manage('admin@demo.test', 'lead@acme.test')).statusCode).toBe(404);
      const missing = await t.api({
        method: 'POST',
        url: '/api/v1/test/users/00000000-0000-4000-8000-000000000000/manage',
        cookie: await t.cookieFor('lead@acme.test'),
        payload: {},
      });
      expect(missing.json()).toEqual({ ...other.json(), requestId: missing.json().requestId });
    });

    it('refuses a member without the permission (403) and auditors (403)', async () => {
      expect((await manage('lead@acme.test', 'member@acme.test')).statusCode).toBe(403);
      expect((await manage('client@globex.test', 'auditor@demo.test')).statusCode).toBe(403);
    });
  });
});
