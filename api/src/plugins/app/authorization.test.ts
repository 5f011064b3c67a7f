/**
 * The generated authorization test: it walks every route registered under /api/v1 and /auth (as the
 * policies plugin recorded them) and proves each policy holds, so a route added later is covered
 * without anyone remembering to write its test:
 *  - anonymous callers get 401 (public routes aside);
 *  - staff routes refuse client users (403), staff-admin routes refuse other staff (403), staff-permission
 *    routes refuse clients and staff without the permission (auditors, 403);
 *  - company routes answer 404 to a user of another company (existence is not revealed);
 *  - module-gated routes answer 403 when the module is off for the company;
 *  - settings-permission routes answer 403 to a member of the company without that permission;
 *  - routes about a user answer 404 to a client user of another company (users are not revealed);
 *  - project routes answer 404 to a user of another company, 403 with the projects module off, and
 *    refuse writes to a client without a role on the project and management to a Client Lead;
 *  - evidence request routes answer 404 to a user of another company, 403 with the requests module off
 *    (for the company or for the caller), and refuse management to clients (a company admin included).
 */
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp } from '../../test/app';
import { setUserModuleAccess } from '../../db/module-access';
import type { RoutePolicy } from './policies';

let t: TestApp;
let acmeId: string;
let acmeMemberId: string;
/** Acme SOC 2 Type II 2026: lead@acme.test is its Client Lead, member@acme.test holds no role on it. */
let acmeProjectId: string;
/** A seeded Acme request assigned to member@acme.test (who does not see every Acme request). */
let acmeRequestId: string;
/** A seeded Globex request: the requests module is off for Globex. */
let globexRequestId: string;

beforeAll(async () => {
  t = await createTestApp();
  acmeId = (
    await t.database.db.selectFrom('companies').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()
  ).id;
  acmeMemberId = (
    await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'member@acme.test')
      .executeTakeFirstOrThrow()
  ).id;
  acmeProjectId = (
    await t.database.db
      .selectFrom('projects')
      .select('id')
      .where('title', '=', 'Acme SOC 2 Type II 2026')
      .executeTakeFirstOrThrow()
  ).id;
  acmeRequestId = (
    await t.database.db
      .selectFrom('requests')
      .innerJoin('request_assignees', 'request_assignees.request_id', 'requests.id')
      .select('requests.id')
      .where('requests.company_id', '=', acmeId)
      .where('request_assignees.user_id', '=', acmeMemberId)
      .orderBy('requests.reference')
      .executeTakeFirstOrThrow()
  ).id;
  globexRequestId = (
    await t.database.db
      .selectFrom('requests')
      .innerJoin('companies', 'companies.id', 'requests.company_id')
      .select('requests.id')
      .where('companies.name', '=', 'Globex Inc')
      .orderBy('requests.reference')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => t.close());

const OTHER_ID = '00000000-0000-4000-8000-000000000000';

const isCompanyPolicy = (p: RoutePolicy['policy']): p is Extract<RoutePolicy['policy'], { company: string }> =>
  typeof p === 'object' && 'company' in p;
const isUserPolicy = (p: RoutePolicy['policy']): p is Extract<RoutePolicy['policy'], { targetUser: string }> =>
  typeof p === 'object' && 'targetUser' in p;
const isProjectPolicy = (p: RoutePolicy['policy']): p is Extract<RoutePolicy['policy'], { project: string }> =>
  typeof p === 'object' && 'project' in p;
const isRequestPolicy = (p: RoutePolicy['policy']): p is Extract<RoutePolicy['policy'], { request: string }> =>
  typeof p === 'object' && 'request' in p;

/**
 * `:id` is an Acme id: the company for company routes, an Acme member for user routes, the SOC 2
 * project for project routes, member@acme.test's request for request routes (unless `id` is given).
 */
function urlFor(route: RoutePolicy, id?: string): string {
  const target =
    id ??
    (isUserPolicy(route.policy)
      ? acmeMemberId
      : isProjectPolicy(route.policy)
        ? acmeProjectId
        : isRequestPolicy(route.policy)
          ? acmeRequestId
          : acmeId);
  return route.url
    .replace(/:id\b/g, target)
    .replace(/:[A-Za-z]+/g, OTHER_ID)
    .replace(/\*$/, 'x');
}

function call(route: RoutePolicy, cookie?: string, id?: string) {
  const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
  return t.api({
    method: route.method as InjectOptions['method'],
    url: urlFor(route, id),
    cookie,
    ...(body ? { payload: body } : {}),
  });
}

const routes = () => t.app.routePolicies.filter((r) => r.method !== 'HEAD');
const label = (r: RoutePolicy) => `${r.method} ${r.url}`;

describe('authorization of every registered route', () => {
  it('has routes to check, each with a policy', () => {
    expect(routes().length).toBeGreaterThan(5);
    for (const r of routes()) expect(r.policy).toBeDefined();
  });

  it('answers 401 to anonymous callers on every route that is not public', async () => {
    const checked: string[] = [];
    for (const r of routes()) {
      const res = await call(r);
      if (r.policy === 'public') {
        expect({ route: label(r), status: res.statusCode === 401 ? 401 : 'not 401' }).toEqual({
          route: label(r),
          status: 'not 401',
        });
      } else {
        expect({ route: label(r), status: res.statusCode }).toEqual({ route: label(r), status: 401 });
        expect(res.json()).toMatchObject({ code: 'unauthorized' });
      }
      checked.push(label(r));
    }
    // every registered route was walked
    expect(checked).toHaveLength(routes().length);
  });

  it('keeps staff routes from clients and staff-admin routes from other staff', async () => {
    const client = await t.cookieFor('member@acme.test');
    const staff = await t.cookieFor('consultant@demo.test');
    for (const r of routes()) {
      if (r.policy === 'staff' || r.policy === 'staffAdmin') {
        expect({ route: label(r), status: (await call(r, client)).statusCode }).toEqual({
          route: label(r),
          status: 403,
        });
      }
      if (r.policy === 'staffAdmin') {
        expect({ route: label(r), status: (await call(r, staff)).statusCode }).toEqual({
          route: label(r),
          status: 403,
        });
      }
    }
  });

  it('keeps staff-permission routes from clients and from staff without the permission (auditors)', async () => {
    const client = await t.cookieFor('member@acme.test');
    const auditor = await t.cookieFor('auditor@demo.test');
    const staffRoutes = routes().filter((r) => typeof r.policy === 'object' && 'staff' in r.policy);
    expect(staffRoutes.length).toBeGreaterThan(0);
    for (const r of staffRoutes) {
      expect({ route: label(r), status: (await call(r, client)).statusCode }).toEqual({ route: label(r), status: 403 });
      expect({ route: label(r), status: (await call(r, auditor)).statusCode }).toEqual({
        route: label(r),
        status: 403,
      });
    }
  });

  it('answers 404 to a user of another company on every company route', async () => {
    const outsider = await t.cookieFor('client@globex.test');
    const companyRoutes = routes().filter((r) => isCompanyPolicy(r.policy));
    expect(companyRoutes.length).toBeGreaterThan(0);
    for (const r of companyRoutes) {
      const res = await call(r, outsider);
      expect({ route: label(r), status: res.statusCode }).toEqual({ route: label(r), status: 404 });
      expect(res.json()).toMatchObject({ code: 'company_not_found' });
    }
  });

  it('answers 403 on every module-gated route when the module is off for the company', async () => {
    const admin = await t.cookieFor('admin@demo.test');
    // the requests module gates the company's request routes (list, create, bulk, import, export...)
    const requestsGated = routes().filter(
      (r) => isCompanyPolicy(r.policy) && r.policy.company === 'member' && r.policy.module === 'requests',
    );
    expect(requestsGated.length).toBeGreaterThanOrEqual(5);
    for (const r of routes()) {
      if (!isCompanyPolicy(r.policy) || r.policy.company !== 'member' || !r.policy.module) continue;
      const module = r.policy.module;
      const where = t.database.db
        .updateTable('company_modules_access')
        .where('company_id', '=', acmeId)
        .where('module', '=', module);
      await where.set({ enabled: false }).execute();
      try {
        const res = await call(r, admin);
        expect({ route: label(r), status: res.statusCode }).toEqual({ route: label(r), status: 403 });
        expect(res.json()).toMatchObject({ code: 'module_access_denied' });
      } finally {
        await where.set({ enabled: true }).execute();
      }
    }
  });

  it('answers 403 on every settings-permission route to a member of the company without the permission', async () => {
    const member = await t.cookieFor('member@acme.test');
    for (const r of routes()) {
      if (!isCompanyPolicy(r.policy) || r.policy.company !== 'settings') continue;
      const res = await call(r, member);
      expect({ route: label(r), status: res.statusCode }).toEqual({ route: label(r), status: 403 });
    }
  });

  it('answers 404 on every route about a user to a client user of another company', async () => {
    const outsider = await t.cookieFor('client@globex.test');
    for (const r of routes()) {
      if (!isUserPolicy(r.policy)) continue;
      const res = await call(r, outsider);
      expect({ route: label(r), status: res.statusCode }).toEqual({ route: label(r), status: 404 });
      expect(res.json()).toMatchObject({ code: 'user_not_found' });
    }
  });

  it('answers 404 project_not_found on every project route to a user of another company', async () => {
    const outsider = await t.cookieFor('client@globex.test');
    const projectRoutes = routes().filter((r) => isProjectPolicy(r.policy));
    expect(projectRoutes.length).toBeGreaterThan(10);
    for (const r of projectRoutes) {
      const res = await call(r, outsider);
      expect({ route: label(r), status: res.statusCode, code: res.json().code }).toEqual({
        route: label(r),
        status: 404,
        code: 'project_not_found',
      });
    }
  });

  it('answers 403 on every project route when the projects module is off for the company', async () => {
    const admin = await t.cookieFor('admin@demo.test');
    const where = t.database.db
      .updateTable('company_modules_access')
      .where('company_id', '=', acmeId)
      .where('module', '=', 'projects');
    await where.set({ enabled: false }).execute();
    try {
      for (const r of routes()) {
        if (!isProjectPolicy(r.policy)) continue;
        const res = await call(r, admin);
        expect({ route: label(r), status: res.statusCode, code: res.json().code }).toEqual({
          route: label(r),
          status: 403,
          code: 'module_access_denied',
        });
      }
    } finally {
      await where.set({ enabled: true }).execute();
    }
  });

  it('refuses project writes to a client without a role and project management to a Client Lead', async () => {
    const member = await t.cookieFor('member@acme.test');
    const clientLead = await t.cookieFor('lead@acme.test');
    for (const r of routes()) {
      if (!isProjectPolicy(r.policy) || r.policy.project === 'read') continue;
      // A task's assignee may move its status without write access: the route checks that itself.
      const callers = r.policy.project === 'manage' ? [member, clientLead] : [member];
      for (const cookie of callers) {
        const res = await call(r, cookie);
        expect({ route: label(r), status: res.statusCode }).toEqual({ route: label(r), status: 403 });
      }
    }
  });

  it('answers 404 request_not_found on every request route to a user of another company', async () => {
    const outsider = await t.cookieFor('client@globex.test');
    const requestRoutes = routes().filter((r) => isRequestPolicy(r.policy));
    expect(requestRoutes.length).toBeGreaterThanOrEqual(5);
    for (const r of requestRoutes) {
      const res = await call(r, outsider);
      expect({ route: label(r), status: res.statusCode, code: res.json().code }).toEqual({
        route: label(r),
        status: 404,
        code: 'request_not_found',
      });
    }
  });

  it("answers a Globex request (requests module off there) with 403 to Globex's members and 404 to Acme's", async () => {
    const globexMember = await t.cookieFor('both@acme.test');
    const acmeOnly = await t.cookieFor('lead@acme.test');
    for (const r of routes()) {
      if (!isRequestPolicy(r.policy)) continue;
      const off = await call(r, globexMember, globexRequestId);
      expect({ route: label(r), status: off.statusCode, code: off.json().code }).toEqual({
        route: label(r),
        status: 403,
        code: 'module_access_denied',
      });
      const hidden = await call(r, acmeOnly, globexRequestId);
      expect({ route: label(r), status: hidden.statusCode, code: hidden.json().code }).toEqual({
        route: label(r),
        status: 404,
        code: 'request_not_found',
      });
    }
  });

  it('answers 403 on every request route when the requests module is off for the company', async () => {
    const admin = await t.cookieFor('admin@demo.test');
    const where = t.database.db
      .updateTable('company_modules_access')
      .where('company_id', '=', acmeId)
      .where('module', '=', 'requests');
    await where.set({ enabled: false }).execute();
    try {
      for (const r of routes()) {
        if (!isRequestPolicy(r.policy)) continue;
        const res = await call(r, admin);
        expect({ route: label(r), status: res.statusCode, code: res.json().code }).toEqual({
          route: label(r),
          status: 403,
          code: 'module_access_denied',
        });
      }
    } finally {
      await where.set({ enabled: true }).execute();
    }
  });

  it('answers 403 on every request route to a client whose own requests access is off, on a request assigned to them', async () => {
    const member = await t.cookieFor('member@acme.test');
    const route = routes().find((r) => r.method === 'GET' && r.url === '/api/v1/requests/:id');
    expect(route).toBeDefined();
    // with the module on, member@acme.test sees the chosen request
    expect((await call(route!, member)).statusCode).toBe(200);
    await setUserModuleAccess(t.database.db, acmeId, acmeMemberId, 'requests', false);
    try {
      for (const r of routes()) {
        if (!isRequestPolicy(r.policy)) continue;
        const res = await call(r, member);
        expect({ route: label(r), status: res.statusCode, code: res.json().code }).toEqual({
          route: label(r),
          status: 403,
          code: 'module_access_denied',
        });
      }
    } finally {
      await t.database.db
        .deleteFrom('user_modules_access')
        .where('company_id', '=', acmeId)
        .where('user_id', '=', acmeMemberId)
        .where('module', '=', 'requests')
        .execute();
    }
  });

  it('refuses request management to clients, a company admin and Client Lead included', async () => {
    const clientLead = await t.cookieFor('lead@acme.test');
    const member = await t.cookieFor('member@acme.test');
    const manageRoutes = routes().filter((r) => isRequestPolicy(r.policy) && r.policy.request === 'manage');
    expect(manageRoutes.length).toBeGreaterThan(0);
    for (const r of manageRoutes) {
      for (const cookie of [clientLead, member]) {
        const res = await call(r, cookie);
        expect({ route: label(r), status: res.statusCode, code: res.json().code }).toEqual({
          route: label(r),
          status: 403,
          code: 'forbidden',
        });
      }
    }
  });

  it('answers 404 (never a server error) when the id in the path is empty', async () => {
    const admin = await t.cookieFor('admin@demo.test');
    const idRoutes = routes().filter(
      (r) =>
        /:id\b/.test(r.url) &&
        (isCompanyPolicy(r.policy) || isProjectPolicy(r.policy) || isRequestPolicy(r.policy) || isUserPolicy(r.policy)),
    );
    expect(idRoutes.length).toBeGreaterThan(20);
    for (const r of idRoutes) {
      const res = await call(r, admin, '');
      expect({ route: label(r), status: res.statusCode }).toEqual({ route: label(r), status: 404 });
    }
  });
});
