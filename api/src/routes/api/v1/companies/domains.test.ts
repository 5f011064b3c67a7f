import { samlRedirectForEmail } from '../../../../lib/saml-login';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createTestIdentityProvider } from '../../../../test/saml-idp';

let t: TestApp;
let acmeId: string;
let globexId: string;
const txt: Record<string, string[]> = {};
const BINDING = 'c'.repeat(43);
const IDP = createTestIdentityProvider('domains-idp');

async function companyId(name: string) {
  return (await t.database.db.selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow())
    .id;
}

beforeAll(async () => {
  t = await createTestApp({ txtRecords: txt });
  acmeId = await companyId('Acme Corp');
  globexId = await companyId('Globex Inc');
});
afterAll(() => t.close());

const as = (email: string) => t.cookieFor(email);
const domainsUrl = (id: string) => `/api/v1/companies/${id}/domains`;

async function settings(id: string, email = 'admin@demo.test') {
  const res = await t.api({ method: 'GET', url: `/api/v1/companies/${id}/identity-provider`, cookie: await as(email) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('company domains', () => {
  it("lets a company's admin claim a domain, shows its TXT record, and verifies it by DNS", async () => {
    const cookie = await as('lead@acme.test');
    const added = await t.api({
      method: 'POST',
      url: domainsUrl(acmeId),
      cookie,
      payload: { domain: '  @Acme.TEST. ' },
    });
    expect(added.statusCode).toBe(201);
    const domain = added.json();
    expect(domain).toMatchObject({ domain: 'acme.test', status: 'pending', verifiedAt: null, verifiedBy: null });
    expect(domain.verification).toEqual({
      name: 'acme.test',
      type: 'TXT',
      value: expect.stringMatching(/^portal-domain-verification=[A-Za-z0-9_-]{24}$/),
    });

    // no record yet: a clear refusal, nothing verified
    const early = await t.api({ method: 'POST', url: `${domainsUrl(acmeId)}/${domain.id}/verify`, cookie });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ code: 'domain_not_verified' });
    expect(early.json().message).toContain(domain.verification.value);

    txt['acme.test'] = ['v=spf1 -all', domain.verification.value];
    const verified = await t.api({ method: 'POST', url: `${domainsUrl(acmeId)}/${domain.id}/verify`, cookie });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ status: 'verified', verifiedBy: 'dns' });

    const shown = await settings(acmeId, 'lead@acme.test');
    expect(shown.domains).toEqual([expect.objectContaining({ domain: 'acme.test', status: 'verified' })]);
    expect(shown.canConfirmDomains).toBe(false);
    expect((await settings(acmeId)).canConfirmDomains).toBe(true);
  });

  it('refuses a domain verified by another company, even with its TXT record, and a duplicate claim', async () => {
    const hannah = await as('hannah.schmidt@globex.test');
    const taken = await t.api({
      method: 'POST',
      url: domainsUrl(globexId),
      cookie: hannah,
      payload: { domain: 'acme.test' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'domain_taken', details: [{ field: 'domain' }] });

    const again = await t.api({
      method: 'POST',
      url: domainsUrl(acmeId),
      cookie: await as('lead@acme.test'),
      payload: { domain: 'acme.test' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This domain is already listed for the company.');
  });

  it('lets a second company claim a pending domain, but only one can verify it', async () => {
    const hannah = await as('hannah.schmidt@globex.test');
    const lead = await as('lead@acme.test');
    const mine = (
      await t.api({ method: 'POST', url: domainsUrl(globexId), cookie: hannah, payload: { domain: 'shared.test' } })
    ).json();
    const theirs = (
      await t.api({ method: 'POST', url: domainsUrl(acmeId), cookie: lead, payload: { domain: 'shared.test' } })
    ).json();
    txt['shared.test'] = [mine.verification.value, theirs.verification.value];
    expect(
      (await t.api({ method: 'POST', url: `${domainsUrl(globexId)}/${mine.id}/verify`, cookie: hannah })).statusCode,
    ).toBe(200);
    const second = await t.api({ method: 'POST', url: `${domainsUrl(acmeId)}/${theirs.id}/verify`, cookie: lead });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('domain_taken');
  });

  it('lets only a staff admin confirm a domain without DNS', async () => {
    const hannah = await as('hannah.schmidt@globex.test');
    const added = (
      await t.api({ method: 'POST', url: domainsUrl(globexId), cookie: hannah, payload: { domain: 'globex.test' } })
    ).json();
    const byAdmin = await t.api({ method: 'POST', url: `${domainsUrl(globexId)}/${added.id}/confirm`, cookie: hannah });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().message).toMatch(/Only a staff admin/);
    const byConsultant = await t.api({
      method: 'POST',
      url: `${domainsUrl(globexId)}/${added.id}/confirm`,
      cookie: await as('consultant@demo.test'),
    });
    expect(byConsultant.statusCode).toBe(403);
    const byStaffAdmin = await t.api({
      method: 'POST',
      url: `${domainsUrl(globexId)}/${added.id}/confirm`,
      cookie: await as('admin@demo.test'),
    });
    expect(byStaffAdmin.statusCode).toBe(200);
    expect(byStaffAdmin.json()).toMatchObject({ status: 'verified', verifiedBy: 'staff' });
    const log = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'company.domain.%')
      .execute();
    expect(log.map((r) => r.action)).toEqual(expect.arrayContaining(['company.domain.add', 'company.domain.verify']));
  });

  it("names the rule for a domain that is not one, and hides another company's domains", async () => {
    const cookie = await as('lead@acme.test');
    for (const domain of ['', 'localhost', 'https://acme.test', 'a@b.test', 'x'.repeat(300), '1.2.3.4']) {
      const res = await t.api({ method: 'POST', url: domainsUrl(acmeId), cookie, payload: { domain } });
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0]).toMatchObject({ field: 'domain', message: expect.stringMatching(/^Domain /) });
    }
    const globexDomain = (await settings(globexId)).domains[0];
    expect(
      (await t.api({ method: 'POST', url: `${domainsUrl(acmeId)}/${globexDomain.id}/verify`, cookie })).statusCode,
    ).toBe(404);
    expect(
      (await t.api({ method: 'DELETE', url: `${domainsUrl(acmeId)}/${globexDomain.id}`, cookie })).statusCode,
    ).toBe(404);
    expect(
      (await t.api({ method: 'GET', url: `/api/v1/companies/${globexId}/identity-provider`, cookie })).statusCode,
    ).toBe(404);
    // a plain member cannot manage domains
    expect(
      (
        await t.api({
          method: 'POST',
          url: domainsUrl(acmeId),
          cookie: await as('member@acme.test'),
          payload: { domain: 'm.test' },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('signs in through the identity provider only the users of a verified domain, and a removed domain ends it', async () => {
    const admin = await as('admin@demo.test');
    const put = await t.api({
      method: 'PUT',
      url: `/api/v1/companies/${globexId}/identity-provider`,
      cookie: admin,
      payload: { entityId: IDP.entityId, ssoUrl: IDP.ssoUrl, certificate: IDP.certificate },
    });
    expect(put.statusCode).toBe(200);
    // globex.test is verified (above): Globex's users go to its identity provider
    expect(await samlRedirectForEmail(t.app, 'client@globex.test', '/', BINDING)).toMatch(
      /^https:\/\/domains-idp\.example\.test\/sso\?/,
    );
    // both@acme.test belongs to Globex too, but acme.test is Acme's
    expect(await samlRedirectForEmail(t.app, 'both@acme.test', '/', BINDING)).toBeNull();

    const globexDomain = (await settings(globexId)).domains.find((d: { domain: string }) => d.domain === 'globex.test');
    expect(
      (await t.api({ method: 'DELETE', url: `${domainsUrl(globexId)}/${globexDomain.id}`, cookie: admin })).statusCode,
    ).toBe(204);
    expect(await samlRedirectForEmail(t.app, 'client@globex.test', '/', BINDING)).toBeNull();
  });
});

describe('a user shared by two companies', () => {
  it('cannot be renamed, suspended or reset by the admin of only one of them; staff can', async () => {
    const both = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'both@acme.test')
        .executeTakeFirstOrThrow()
    ).id;
    const lead = await as('lead@acme.test');
    const rename = await t.api({
      method: 'PATCH',
      url: `/api/v1/users/${both}`,
      cookie: lead,
      payload: { firstName: 'Mallory' },
    });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toMatch(/also belongs to a company you do not administer/);
    expect(
      (await t.api({ method: 'POST', url: `/api/v1/users/${both}/reset-password`, cookie: lead })).statusCode,
    ).toBe(403);
    // reading stays as it was
    expect((await t.api({ method: 'GET', url: `/api/v1/users/${both}`, cookie: lead })).statusCode).toBe(200);
    const row = await t.database.db
      .selectFrom('users')
      .select('first_name')
      .where('id', '=', both)
      .executeTakeFirstOrThrow();
    expect(row.first_name).toBe('Ben');

    // a user of Acme alone is still the Acme admin's to change
    const member = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'member@acme.test')
        .executeTakeFirstOrThrow()
    ).id;
    expect(
      (await t.api({ method: 'PATCH', url: `/api/v1/users/${member}`, cookie: lead, payload: { title: 'Analyst' } }))
        .statusCode,
    ).toBe(200);
    // staff may change the shared user
    const byStaff = await t.api({
      method: 'PATCH',
      url: `/api/v1/users/${both}`,
      cookie: await as('admin@demo.test'),
      payload: { title: 'Risk Lead' },
    });
    expect(byStaff.statusCode).toBe(200);
  });
});
