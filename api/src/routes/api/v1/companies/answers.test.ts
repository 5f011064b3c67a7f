/**
 * Users, companies, company users, teams and the audit log: their real answers on the seeded data
 * (and on writes made here) against their operations' result schemas (test/answers.ts).
 */
import { companyUser } from '@portal/shared/core/companies/results';
import { createTestApp, type TestApp } from '../../../../test/app';
import { ANSWER_TESTS, answerProblem, resultOf } from '../../../../test/answers';
import { createTestIdentityProvider } from '../../../../test/saml-idp';

const KEYS = ANSWER_TESTS['routes/api/v1/companies/answers.test.ts'];

let t: TestApp;
/** DNS TXT answers for the domain verification below. */
const txt: Record<string, string[]> = {};
// every company, member, team and user of the seed is called: no rate limit in the way
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: '1000000' }, txtRecords: txt });
});
afterAll(() => t.close());

interface Answer {
  key: string;
  url: string;
  status: number;
  body: unknown;
}

/** url + first issue of every answer its schema refuses. */
function problems(answers: Answer[]): string[] {
  return answers.flatMap(({ key, url, body }) => answerProblem(t.app, key, url, body) ?? []);
}

describe('the answers of users, companies, company users, teams and the audit log', () => {
  /** Every GET operation with a result schema, called for every seeded company, member, team and user. */
  async function answers(cookie: string): Promise<Answer[]> {
    const db = t.database.db;
    const companies = (await db.selectFrom('companies').select('id').execute()).map((r) => r.id);
    const members = await db.selectFrom('company_memberships').select(['company_id', 'user_id']).execute();
    const teams = await db.selectFrom('teams').select(['id', 'company_id']).execute();
    const users = (await db.selectFrom('users').select('id').execute()).map((r) => r.id);
    const calls: { key: string; url: string }[] = [
      { key: 'GET /api/v1/users/profile/me', url: '/api/v1/users/profile/me' },
      { key: 'GET /api/v1/users/staff', url: '/api/v1/users/staff?pageSize=200' },
      { key: 'GET /api/v1/audit-log', url: '/api/v1/audit-log?pageSize=200' },
      { key: 'GET /api/v1/companies', url: '/api/v1/companies?pageSize=200' },
      { key: 'GET /api/v1/companies', url: '/api/v1/companies?ignorePagination=true' },
      // all of nothing: one page of 0 rows
      { key: 'GET /api/v1/companies', url: '/api/v1/companies?ignorePagination=true&search=no-such-company' },
      ...companies.flatMap((c) => [
        { key: 'GET /api/v1/companies/:id', url: `/api/v1/companies/${c}` },
        { key: 'GET /api/v1/companies/:id/access-permissions', url: `/api/v1/companies/${c}/access-permissions` },
        { key: 'GET /api/v1/companies/:id/password-policy', url: `/api/v1/companies/${c}/password-policy` },
        { key: 'GET /api/v1/companies/:id/identity-provider', url: `/api/v1/companies/${c}/identity-provider` },
        { key: 'GET /api/v1/companies/:id/users', url: `/api/v1/companies/${c}/users?pageSize=200` },
        { key: 'GET /api/v1/companies/:id/users', url: `/api/v1/companies/${c}/users?ignorePagination=true` },
        {
          key: 'GET /api/v1/companies/:id/users',
          url: `/api/v1/companies/${c}/users?ignorePagination=true&search=no-such-user`,
        },
        { key: 'GET /api/v1/companies/:id/teams', url: `/api/v1/companies/${c}/teams` },
      ]),
      ...members.map((m) => ({
        key: 'GET /api/v1/companies/:id/users/:userId/modules-access',
        url: `/api/v1/companies/${m.company_id}/users/${m.user_id}/modules-access`,
      })),
      ...teams.flatMap((team) => [
        {
          key: 'GET /api/v1/companies/:id/teams/:teamId/modules-access',
          url: `/api/v1/companies/${team.company_id}/teams/${team.id}/modules-access`,
        },
        {
          key: 'GET /api/v1/companies/:id/teams/:teamId/assigned-objects',
          url: `/api/v1/companies/${team.company_id}/teams/${team.id}/assigned-objects`,
        },
      ]),
      ...users.flatMap((u) => [
        { key: 'GET /api/v1/users/:id', url: `/api/v1/users/${u}` },
        { key: 'GET /api/v1/users/:id/status', url: `/api/v1/users/${u}/status` },
        { key: 'GET /api/v1/users/:id/assigned-objects', url: `/api/v1/users/${u}/assigned-objects` },
        { key: 'GET /api/v1/users/:id/practices', url: `/api/v1/users/${u}/practices` },
        { key: 'GET /api/v1/users/:id/get-projects', url: `/api/v1/users/${u}/get-projects` },
      ]),
    ];
    const out: Answer[] = [];
    for (const call of calls) {
      const res = await t.api({ method: 'GET', url: call.url, cookie });
      if (res.statusCode === 200) out.push({ ...call, status: res.statusCode, body: res.json() });
    }
    return out;
  }

  const getKeys = KEYS.filter((key) => key.startsWith('GET '));

  it.each(['admin@demo.test', 'lead@acme.test'])('allow every real answer to %s', async (email) => {
    const seen = await answers(await t.cookieFor(email));
    if (email === 'admin@demo.test') {
      // each GET operation answered at least once, so no schema goes unchecked
      expect(new Set(seen.map((a) => a.key))).toEqual(new Set(getKeys));
    } else {
      expect(seen.length).toBeGreaterThan(0);
    }
    expect(problems(seen)).toEqual([]);
  });

  it('allow the answers of the writes', async () => {
    const db = t.database.db;
    const cookie = await t.cookieFor('admin@demo.test');
    const userId = async (email: string) =>
      (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const member = await userId('member@acme.test');
    const consultant = await userId('consultant@demo.test');
    const practices = (await db.selectFrom('practices').select('id').execute()).map((p) => p.id);
    const seen: Answer[] = [];
    async function call(key: string, url: string, payload?: object): Promise<unknown> {
      const method = key.split(' ')[0] as 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET';
      const res = await t.api({ method, url, cookie, ...(payload === undefined ? {} : { payload }) });
      if (res.statusCode >= 300) throw new Error(`${key} ${url}: ${res.statusCode} ${res.body}`);
      const body = res.json();
      seen.push({ key, url, status: res.statusCode, body });
      return body;
    }

    await call('PUT /api/v1/users/profile/me', '/api/v1/users/profile/me', {
      firstName: 'Ada',
      lastName: 'Admin',
      title: 'Director',
      primaryPhone: '+1 555 0100',
    });
    await call('DELETE /api/v1/users/profile/me/avatar', '/api/v1/users/profile/me/avatar');
    await call('PATCH /api/v1/users/:id', `/api/v1/users/${member}`, { title: 'Engineer', primaryPhone: null });
    await call('DELETE /api/v1/users/:id/avatar', `/api/v1/users/${member}/avatar`);
    await call('PUT /api/v1/users/admin/:id', `/api/v1/users/admin/${consultant}`, { role: 'admin' });
    await call('PUT /api/v1/users/admin/:id', `/api/v1/users/admin/${consultant}`, { role: 'staff' });
    await call('PUT /api/v1/users/:id/practices', `/api/v1/users/${consultant}/practices`, {
      practiceIds: practices.slice(0, 1),
    });
    await call('PUT /api/v1/users/:id/practices', `/api/v1/users/${consultant}/practices`, { practiceIds: [] });

    const company = (await call('POST /api/v1/companies', '/api/v1/companies', { name: 'Paper Street Soap' })) as {
      id: string;
    };
    const c = `/api/v1/companies/${company.id}`;
    await call('PATCH /api/v1/companies/:id', c, { name: 'Paper Street Soap Co' });
    await call('PATCH /api/v1/companies/:id/modules-access', `${c}/modules-access`, { risks: false });
    await call('POST /api/v1/companies/:id/password-policy', `${c}/password-policy`, {
      minimumLength: 14,
      rotationInDays: 90,
    });
    const idp = createTestIdentityProvider('initech-idp');
    await call('PUT /api/v1/companies/:id/identity-provider', `${c}/identity-provider`, {
      entityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificate: idp.certificate,
    });
    await call('GET /api/v1/companies/:id/identity-provider', `${c}/identity-provider`);
    await call('PUT /api/v1/companies/:id/identity-provider', `${c}/identity-provider`, {
      entityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificate: idp.certificate,
      sloUrl: 'https://idp.example.test/slo',
    });
    const byDns = (await call('POST /api/v1/companies/:id/domains', `${c}/domains`, {
      domain: 'paper-street.test',
    })) as {
      id: string;
      verification: { value: string };
    };
    txt['paper-street.test'] = [byDns.verification.value];
    await call('POST /api/v1/companies/:id/domains/:domainId/verify', `${c}/domains/${byDns.id}/verify`);
    const byStaff = (await call('POST /api/v1/companies/:id/domains', `${c}/domains`, { domain: 'soap.test' })) as {
      id: string;
    };
    await call('POST /api/v1/companies/:id/domains/:domainId/confirm', `${c}/domains/${byStaff.id}/confirm`);
    await call('GET /api/v1/companies/:id/identity-provider', `${c}/identity-provider`);
    const invited = (await call('POST /api/v1/companies/:id/users', `${c}/users`, {
      email: 'milton@initech.test',
      firstName: 'Milton',
      lastName: 'Waddams',
    })) as { id: string };
    const u = `${c}/users/${invited.id}`;
    await call('PATCH /api/v1/companies/:id/users/:userId/role', `${u}/role`, { role: 'admin' });
    await call('DELETE /api/v1/companies/:id/users/:userId/revoke-access', `${u}/revoke-access`);
    await call('GET /api/v1/companies/:id/users', `${c}/users?ignorePagination=true`);
    await call('POST /api/v1/companies/:id/users/:userId/restore-access', `${u}/restore-access`);
    await call('PATCH /api/v1/companies/:id/users/:userId/modules-access', `${u}/modules-access`, {
      projects: false,
      requests: true,
    });
    await call('PATCH /api/v1/companies/:id/users/:userId/modules-access', `${u}/modules-access`, { projects: null });
    const team = (await call('POST /api/v1/companies/:id/teams', `${c}/teams`, { name: 'TPS' })) as { id: string };
    await call('PATCH /api/v1/companies/:id/teams/:teamId', `${c}/teams/${team.id}`, { name: 'TPS Reports' });
    await call('PUT /api/v1/companies/:id/teams/:teamId/modules-access', `${c}/teams/${team.id}/modules-access`, {
      risks: null,
      projects: true,
      requests: false,
      reports: null,
      assets: null,
    });
    await call('GET /api/v1/companies/:id/teams', `${c}/teams`);
    await call('GET /api/v1/users/:id', `/api/v1/users/${invited.id}`);
    await call('GET /api/v1/audit-log', '/api/v1/audit-log?pageSize=200');

    // every write of the list answered at least once
    const writes = KEYS.filter((key) => !key.startsWith('GET '));
    expect(new Set(seen.map((a) => a.key).filter((key) => !key.startsWith('GET ')))).toEqual(new Set(writes));
    expect(problems(seen)).toEqual([]);
  });

  it('refuse a body with a field missing, of another type or undocumented', async () => {
    const [acme] = await t.database.db.selectFrom('companies').select('id').where('name', '=', 'Acme Corp').execute();
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${acme.id}/users`,
      cookie: await t.cookieFor('admin@demo.test'),
    });
    const body = res.json() as { results: Record<string, unknown>[] };
    expect(body.results.length).toBeGreaterThan(0);
    const list = resultOf(t.app, 'GET /api/v1/companies/:id/users');
    expect(list.safeParse(body).success).toBe(true);
    const withRow = (change: (row: Record<string, unknown>) => void) => {
      const copy = structuredClone(body);
      change(copy.results[0]);
      return list.safeParse(copy).success && companyUser.safeParse(copy.results[0]).success;
    };
    expect(withRow((row) => delete row.accessRevoked)).toBe(false);
    expect(withRow((row) => (row.invited = 'no'))).toBe(false);
    expect(withRow((row) => (row.role = 'owner'))).toBe(false);
    expect(withRow((row) => (row.joinedAt = 'yesterday'))).toBe(false);
    expect(withRow((row) => (row.title = undefined))).toBe(false);
    expect(withRow((row) => (row.secret = 1))).toBe(false);
  });
});
