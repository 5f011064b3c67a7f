import {
  accessPermissions as accessPermissionsSchema,
  company as companySchema,
  companyList,
} from '@portal/shared/core/companies/results';
import { insertCompany } from '../../../../db/companies';
import { createTestApp, type TestApp } from '../../../../test/app';

let t: TestApp;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const row of await t.database.db.selectFrom('companies').select(['id', 'name']).execute())
    ids[row.name] = row.id;
});
afterAll(() => t.close());

/** The seed: Acme Corp and Globex Inc first by name, then ten more clients. */
const SEEDED = [
  'Acme Corp',
  'Globex Inc',
  'Hooli',
  'Initech LLC',
  'Massive Dynamic',
  'Soylent Foods',
  'Tyrell Corporation',
  'Umbrella Health',
  'Vandelay Industries',
  'Wayne Enterprises',
  'Wonka Confections',
  'Zorin Industries',
];

async function names(email: string, query = ''): Promise<string[]> {
  const res = await t.api({ method: 'GET', url: `/api/v1/companies${query}`, cookie: await t.cookieFor(email) });
  expect({ status: res.statusCode, query }).toEqual({ status: 200, query });
  return companyList.parse(res.json()).results.map((c) => c.name);
}

describe('GET /api/v1/companies', () => {
  it('answers 401 without a session', async () => {
    expect((await t.api({ method: 'GET', url: '/api/v1/companies' })).statusCode).toBe(401);
  });

  it('shows staff every company, sorted by name, with paging fields', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/companies', cookie: await t.cookieFor('admin@demo.test') });
    const body = companyList.parse(res.json());
    expect(body.results.map((c) => c.name)).toEqual(SEEDED);
    expect(body).toMatchObject({ total: SEEDED.length, page: 1, pageSize: 50 });
    expect(body.results[1].modulesAccess).toEqual({
      risks: true,
      projects: true,
      requests: false,
      reports: true,
      assets: true,
    });
    expect(await names('consultant@demo.test')).toEqual(SEEDED);
  });

  it('shows auditors only the companies of projects where they hold a role', async () => {
    expect(await names('auditor@demo.test')).toEqual(['Globex Inc']);
    const auditor = await t.cookieFor('auditor@demo.test');
    const acme = (
      await t.database.db.selectFrom('companies').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()
    ).id;
    const res = await t.api({ method: 'GET', url: `/api/v1/companies/${acme}`, cookie: auditor });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('company_not_found');
  });

  it('shows client users only their companies', async () => {
    expect(await names('member@acme.test')).toEqual(['Acme Corp']);
    expect(await names('lead@acme.test')).toEqual(['Acme Corp']);
    expect(await names('both@acme.test')).toEqual(['Acme Corp', 'Globex Inc']);
    expect(await names('client@globex.test')).toEqual(['Globex Inc']);
  });

  it('pages, searches case-insensitively and can ignore pagination', async () => {
    await insertCompany(t.database.db, {
      name: 'Initech 100%_Co',
      modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true },
    });
    expect(await names('admin@demo.test', '?pageSize=1&page=2')).toEqual(['Globex Inc']);
    const page = (
      await t.api({
        method: 'GET',
        url: '/api/v1/companies?pageSize=1&page=2',
        cookie: await t.cookieFor('admin@demo.test'),
      })
    ).json();
    expect(page).toMatchObject({ total: SEEDED.length + 1, page: 2, pageSize: 1 });
    expect(await names('admin@demo.test', '?search=GLOB')).toEqual(['Globex Inc']);
    expect(await names('admin@demo.test', '?search=100%25_')).toEqual(['Initech 100%_Co']);
    expect(await names('admin@demo.test', '?search=%25')).toEqual(['Initech 100%_Co']);
    expect(await names('admin@demo.test', '?search=initech')).toEqual(['Initech 100%_Co', 'Initech LLC']);
    expect(await names('admin@demo.test', '?pageSize=1&ignorePagination=true')).toEqual(
      [...SEEDED, 'Initech 100%_Co'].sort((a, b) => (a < b ? -1 : 1)),
    );
    expect(await names('member@acme.test', '?search=initech')).toEqual([]);
  });

  it('sorts by name either way, across pages', async () => {
    const all = await names('admin@demo.test', '?ignorePagination=true');
    expect(await names('admin@demo.test', '?ignorePagination=true&sort=-name')).toEqual([...all].reverse());
    expect(await names('admin@demo.test', '?sort=-name&pageSize=2&page=1')).toEqual([...all].reverse().slice(0, 2));
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['pageSize=201', 'pageSize'],
    ['ignorePagination=yes', 'ignorePagination'],
    ['sort=title', 'sort'],
  ])('rejects %s with 400 naming %s', async (query, field) => {
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/companies?${query}`,
      cookie: await t.cookieFor('admin@demo.test'),
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    expect(body.message).toContain(field);
    expect(body.details).toEqual([expect.objectContaining({ field })]);
  });
});

describe('GET /api/v1/companies/:id', () => {
  it('returns a company the user belongs to', async () => {
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${ids['Acme Corp']}`,
      cookie: await t.cookieFor('member@acme.test'),
    });
    expect(res.statusCode).toBe(200);
    expect(companySchema.parse(res.json())).toMatchObject({ id: ids['Acme Corp'], name: 'Acme Corp', logo: null });
  });

  it("answers 404 company_not_found for another company's id", async () => {
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${ids['Globex Inc']}`,
      cookie: await t.cookieFor('member@acme.test'),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'company_not_found', message: 'Company not found.' });
  });
});

describe('GET /api/v1/companies/:id/access-permissions', () => {
  async function permissions(email: string, company: string) {
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${ids[company]}/access-permissions`,
      cookie: await t.cookieFor(email),
    });
    expect(res.statusCode).toBe(200);
    return accessPermissionsSchema.parse(res.json());
  }

  it('turns reports off for member@acme.test in Acme, the rest on', async () => {
    const { modulesAccess, settingsPermissions } = await permissions('member@acme.test', 'Acme Corp');
    expect(modulesAccess).toEqual({ risks: true, projects: true, requests: true, reports: false, assets: true });
    expect(settingsPermissions.company.editInformation).toBe(false);
  });

  it('turns requests off for both@acme.test in Globex', async () => {
    const { modulesAccess } = await permissions('both@acme.test', 'Globex Inc');
    expect(modulesAccess.requests).toBe(false);
    expect(modulesAccess.reports).toBe(true);
  });

  it('gives the staff admin every settings permission', async () => {
    const { settingsPermissions } = await permissions('admin@demo.test', 'Acme Corp');
    for (const group of [settingsPermissions.users, settingsPermissions.company]) {
      expect(Object.values(group).every(Boolean)).toBe(true);
    }
    expect(settingsPermissions.loaded).toBe(true);
  });

  it('lets the company admin lead@acme.test edit the company information', async () => {
    const { settingsPermissions } = await permissions('lead@acme.test', 'Acme Corp');
    expect(settingsPermissions.company).toMatchObject({
      editInformation: true,
      editUsersAndTeams: true,
      addCompany: false,
    });
  });

  it('answers 404 for a company the user cannot see', async () => {
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${ids['Acme Corp']}/access-permissions`,
      cookie: await t.cookieFor('client@globex.test'),
    });
    expect(res.statusCode).toBe(404);
  });
});
