import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { findUserCredentialsByEmail, setUserStatus } from '../../db/users';
import { samlBindingHash, serviceProviderFor } from '../../lib/saml';
import { samlRedirectForEmail } from '../../lib/saml-login';
import { createTestApp, type TestApp } from '../../test/app';
import {
  authnRequestOf,
  buildAssertion,
  buildResponse,
  createTestIdentityProvider,
  encodeResponse,
  signAssertion,
  type AssertionOptions,
  type TestIdentityProvider,
} from '../../test/saml-idp';

/** The portal's PUBLIC_URL in tests (light-my-request's default Host is localhost). */
const ORIGIN = 'http://localhost';
/** The binding cookie of "this browser": the one that starts the sign-ins below. */
const BINDING = 'b'.repeat(43);
const ACME_IDP = createTestIdentityProvider('acme-idp');

let t: TestApp;
let acmeId: string;
let globexId: string;
const sp = () => serviceProviderFor(t.config);

async function companyId(name: string) {
  return (await t.database.db.selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow())
    .id;
}

async function configure(id: string, idp: TestIdentityProvider) {
  const res = await t.api({
    method: 'PUT',
    url: `/api/v1/companies/${id}/identity-provider`,
    cookie: await t.cookieFor('admin@demo.test'),
    payload: { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: idp.certificate },
  });
  expect(res.statusCode).toBe(200);
}

/** The company claims the domain and a staff admin confirms it. */
async function verifyDomain(id: string, domain: string) {
  const cookie = await t.cookieFor('admin@demo.test');
  const added = await t.api({ method: 'POST', url: `/api/v1/companies/${id}/domains`, cookie, payload: { domain } });
  expect(added.statusCode).toBe(201);
  const confirmed = await t.api({
    method: 'POST',
    url: `/api/v1/companies/${id}/domains/${added.json().id}/confirm`,
    cookie,
  });
  expect(confirmed.statusCode).toBe(200);
  return added.json().id as string;
}

beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
  acmeId = await companyId('Acme Corp');
  globexId = await companyId('Globex Inc');
  await configure(acmeId, ACME_IDP);
  await verifyDomain(acmeId, 'acme.test');
});
afterAll(() => t.close());

/** Starts sign-in as the login form does and returns the AuthnRequest's ID. */
async function startSignIn(email: string, returnPath = '/', binding = BINDING): Promise<string> {
  const url = await samlRedirectForEmail(t.app, email, returnPath, binding);
  if (!url) throw new Error(`${email} does not sign in through an identity provider`);
  return authnRequestOf(url).id;
}

/** An assertion as Acme's identity provider issues it for this portal. */
function assertionFor(email: string, requestId: string | null, overrides: Partial<AssertionOptions> = {}): string {
  return buildAssertion({
    issuer: ACME_IDP.entityId,
    email,
    audience: sp().entityId,
    recipient: sp().acsUrl,
    inResponseTo: requestId,
    ...overrides,
  });
}

function responseWith(
  requestId: string | null,
  assertions: string[],
  issuer = ACME_IDP.entityId,
  destination = sp().acsUrl,
): string {
  return buildResponse({ issuer, destination, inResponseTo: requestId, assertions });
}

/** A valid, signed response to the request. */
function signedResponse(email: string, requestId: string, overrides: Partial<AssertionOptions> = {}): string {
  return responseWith(requestId, [signAssertion(assertionFor(email, requestId, overrides), ACME_IDP)]);
}

/** The identity provider's auto-submitted form: a cross-site POST, with the browser's binding cookie (null: none). */
function postToAcs(
  responseXml: string | null,
  relayState = '/',
  binding: string | null = BINDING,
  headers: Record<string, string> = {},
) {
  const fields: Record<string, string> = { RelayState: relayState };
  if (responseXml !== null) fields.SAMLResponse = encodeResponse(responseXml);
  return t.inject({
    method: 'POST',
    url: '/auth/saml/acs',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://acme-idp.example.test',
      ...(binding ? { cookie: `pe_saml_binding=${binding}` } : {}),
      ...headers,
    },
    payload: new URLSearchParams(fields).toString(),
  });
}

function sessionCookie(setCookie: string | string[] | undefined): string | null {
  const line = [setCookie ?? []].flat().find((c) => c.startsWith('pe_session_token='));
  return line ? line.split(';')[0] : null;
}

async function isFederated(email: string) {
  return (await findUserCredentialsByEmail(t.database.db, email))!.user.isFederated;
}

/** A refusal: the status, a self-contained HTML page with the message and a way back, and no session. */
function expectRefused(res: Awaited<ReturnType<typeof postToAcs>>, status: number, message: RegExp) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.body).toMatch(message);
  expect(res.body).toContain('href="/auth/saml/login"');
  expect(res.body).not.toMatch(/<script|<link|src="http/);
  expect(sessionCookie(res.headers['set-cookie'])).toBeNull();
}

describe('samlRedirectForEmail (identifier-first)', () => {
  it('sends a member of a company with an identity provider there, with an AuthnRequest it remembers', async () => {
    const url = await samlRedirectForEmail(t.app, ' Lead@Acme.test ', '/v2/projects?view=list', BINDING);
    expect(url).not.toBeNull();
    const target = new URL(url!);
    expect(`${target.origin}${target.pathname}`).toBe(ACME_IDP.ssoUrl);
    const request = authnRequestOf(url!);
    expect(request.relayState).toBe('/v2/projects?view=list');
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${ORIGIN}/auth/saml/acs"`);
    expect(request.xml).toContain(
      `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${ORIGIN}/auth/saml/metadata</saml:Issuer>`,
    );

    const row = await t.database.db
      .selectFrom('saml_requests')
      .selectAll()
      .where('id', '=', request.id)
      .executeTakeFirstOrThrow();
    expect(row.company_id).toBe(acmeId);
    // the browser's binding cookie, kept as its hash only
    expect(row.binding_hash).toBe(samlBindingHash(BINDING));
    const ttl = new Date(row.expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
  });

  it('answers null for unknown emails, staff, and users whose companies have none (the password form)', async () => {
    expect(await samlRedirectForEmail(t.app, 'nobody@acme.test', '/', BINDING)).toBeNull();
    expect(await samlRedirectForEmail(t.app, 'admin@demo.test', '/', BINDING)).toBeNull();
    expect(await samlRedirectForEmail(t.app, 'client@globex.test', '/', BINDING)).toBeNull();
  });

  it('signs in nobody through an identity provider without a verified domain (rows from before domains)', async () => {
    const globexIdp = createTestIdentityProvider('globex-unverified');
    await configure(globexId, globexIdp);
    try {
      expect(await samlRedirectForEmail(t.app, 'client@globex.test', '/', BINDING)).toBeNull();
      // a pending (unverified) claim changes nothing either
      const cookie = await t.cookieFor('admin@demo.test');
      const added = await t.api({
        method: 'POST',
        url: `/api/v1/companies/${globexId}/domains`,
        cookie,
        payload: { domain: 'globex.test' },
      });
      expect(added.statusCode).toBe(201);
      expect(await samlRedirectForEmail(t.app, 'client@globex.test', '/', BINDING)).toBeNull();
      await t.api({ method: 'DELETE', url: `/api/v1/companies/${globexId}/domains/${added.json().id}`, cookie });
    } finally {
      await t.database.db.deleteFrom('identity_providers').where('company_id', '=', globexId).execute();
    }
  });
});

describe('POST /auth/saml/acs', () => {
  it('signs in with a valid signed assertion: session cookie, federated user, back to the RelayState path', async () => {
    const requestId = await startSignIn('lead@acme.test', '/v2/projects?view=list');
    const res = await postToAcs(signedResponse('lead@acme.test', requestId), '/v2/projects?view=list');

    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/v2/projects?view=list');
    const line = [res.headers['set-cookie']].flat().find((c) => c!.startsWith('pe_session_token='))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);

    const me = await t.api({
      method: 'GET',
      url: '/api/v1/users/profile/me',
      cookie: sessionCookie(res.headers['set-cookie'])!,
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: 'lead@acme.test', metadata: { isFederated: true } });
    // the request is answered: it cannot be answered again
    expect(
      await t.database.db.selectFrom('saml_requests').select('id').where('id', '=', requestId).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('accepts an assertion that expired within the allowed clock skew', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const res = await postToAcs(
      signedResponse('lead@acme.test', requestId, { notOnOrAfter: new Date(Date.now() - 20_000) }),
    );
    expect(res.statusCode).toBe(303);
  });

  it('completes the sign-in the email form starts: identity provider, then back to the remembered page', async () => {
    const start = await t.inject({
      method: 'POST',
      url: '/auth/saml/login',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `toUrl=${encodeURIComponent('/settings/company')}`,
      },
      payload: new URLSearchParams({ email: 'lead@acme.test' }).toString(),
    });
    expect(start.statusCode).toBe(303);
    expect(start.headers.location!.startsWith(`${ACME_IDP.ssoUrl}?SAMLRequest=`)).toBe(true);
    const request = authnRequestOf(start.headers.location!);
    expect(request.relayState).toBe('/settings/company');
    // the browser is bound to the request: a cross-site-capable, script-proof, short-lived cookie
    const bindingLine = [start.headers['set-cookie']].flat().find((c) => c!.startsWith('pe_saml_binding='))!;
    expect(bindingLine).toMatch(/HttpOnly/i);
    expect(bindingLine).toMatch(/Secure/i);
    expect(bindingLine).toMatch(/SameSite=None/i);
    expect(bindingLine).toMatch(/Max-Age=600/i);
    const binding = bindingLine.split(';')[0].split('=')[1];

    // another browser (an attacker's own response, or a response carried elsewhere) cannot use it
    expectRefused(
      await postToAcs(signedResponse('lead@acme.test', request.id), '/', null),
      400,
      /started in another browser/,
    );
    const res = await postToAcs(signedResponse('lead@acme.test', request.id), request.relayState!, binding);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/settings/company');
    expect(sessionCookie(res.headers['set-cookie'])).not.toBeNull();
  });

  it('goes home instead of to a RelayState on another site', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const res = await postToAcs(signedResponse('lead@acme.test', requestId), '//evil.example/');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });

  it('refuses an unsigned assertion', async () => {
    const requestId = await startSignIn('member@acme.test');
    const res = await postToAcs(responseWith(requestId, [assertionFor('member@acme.test', requestId)]));
    expectRefused(res, 400, /could not be verified: it is not signed by your company&#39;s identity provider/);
    expect(await isFederated('member@acme.test')).toBe(false);
  });

  it('refuses an assertion signed with another key', async () => {
    const requestId = await startSignIn('member@acme.test');
    const other = createTestIdentityProvider('impostor');
    const res = await postToAcs(
      responseWith(requestId, [signAssertion(assertionFor('member@acme.test', requestId), other)]),
    );
    expectRefused(res, 400, /could not be verified/);
  });

  it('refuses an assertion changed after it was signed', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const signed = signAssertion(assertionFor('lead@acme.test', requestId), ACME_IDP).replace(
      'lead@acme.test',
      'member@acme.test',
    );
    const res = await postToAcs(responseWith(requestId, [signed]));
    expectRefused(res, 400, /could not be verified/);
    expect(await isFederated('member@acme.test')).toBe(false);
  });

  it('refuses an assertion for another audience', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const res = await postToAcs(
      signedResponse('lead@acme.test', requestId, { audience: 'https://other-portal.example/saml' }),
    );
    expectRefused(res, 400, /issued for another service, not this portal/);
  });

  it('refuses an expired assertion (beyond the clock skew)', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const res = await postToAcs(
      signedResponse('lead@acme.test', requestId, {
        notBefore: new Date(Date.now() - 10 * 60_000),
        notOnOrAfter: new Date(Date.now() - 2 * 60_000),
      }),
    );
    expectRefused(res, 400, /has expired or is not valid yet/);
  });

  it('refuses an assertion that is not valid yet (beyond the clock skew)', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const res = await postToAcs(
      signedResponse('lead@acme.test', requestId, { notBefore: new Date(Date.now() + 5 * 60_000) }),
    );
    expectRefused(res, 400, /has expired or is not valid yet/);
  });

  it('refuses the same response posted twice', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const response = signedResponse('lead@acme.test', requestId);
    expect((await postToAcs(response)).statusCode).toBe(303);
    expectRefused(await postToAcs(response), 400, /already used or has expired/);
  });

  it('refuses a used assertion replayed inside a response to a new sign-in', async () => {
    const first = await startSignIn('lead@acme.test');
    const assertion = signAssertion(assertionFor('lead@acme.test', first), ACME_IDP);
    expect((await postToAcs(responseWith(first, [assertion]))).statusCode).toBe(303);

    const second = await startSignIn('lead@acme.test');
    expectRefused(
      await postToAcs(responseWith(second, [assertion])),
      400,
      /does not answer a sign-in in progress here/,
    );
  });

  it('refuses a signed assertion without InResponseTo in an unsigned envelope that has a valid one', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const res = await postToAcs(
      responseWith(requestId, [signAssertion(assertionFor('lead@acme.test', null), ACME_IDP)]),
    );
    expectRefused(res, 400, /does not answer a sign-in in progress here/);
  });

  it('refuses a signed assertion answering another request than the envelope names', async () => {
    const mine = await startSignIn('lead@acme.test');
    const other = await startSignIn('lead@acme.test');
    const res = await postToAcs(responseWith(mine, [signAssertion(assertionFor('lead@acme.test', other), ACME_IDP)]));
    expectRefused(res, 400, /does not answer a sign-in in progress here|could not be accepted/);
  });

  it("refuses a response whose Destination is not the portal's ACS URL", async () => {
    const requestId = await startSignIn('lead@acme.test');
    const assertion = signAssertion(assertionFor('lead@acme.test', requestId), ACME_IDP);
    const res = await postToAcs(
      responseWith(requestId, [assertion], ACME_IDP.entityId, 'https://attacker.example/auth/saml/acs'),
    );
    expectRefused(res, 400, /addressed to another service, not this portal/);
    const missing = buildResponse({
      issuer: ACME_IDP.entityId,
      destination: '',
      inResponseTo: requestId,
      assertions: [assertion],
    }).replace(' Destination=""', '');
    expectRefused(await postToAcs(missing), 400, /addressed to another service, not this portal|does not answer/);
  });

  it("refuses a signed assertion whose Recipient is not the portal's ACS URL", async () => {
    const requestId = await startSignIn('lead@acme.test');
    const res = await postToAcs(
      signedResponse('lead@acme.test', requestId, { recipient: 'https://other-sp.example/acs' }),
    );
    expectRefused(res, 400, /addressed to another service, not this portal/);
  });

  it('refuses a response posted without the binding cookie of the browser that started the sign-in, and lets that browser finish', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const response = signedResponse('lead@acme.test', requestId);
    expectRefused(await postToAcs(response, '/', null), 400, /started in another browser/);
    expectRefused(await postToAcs(response, '/', 'x'.repeat(43)), 400, /started in another browser/);
    expect((await postToAcs(response)).statusCode).toBe(303);
  });

  it('takes the audience from PUBLIC_URL, not from the Host a response is posted with', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const forOther = signedResponse('lead@acme.test', requestId, {
      audience: 'https://other-sp.example/auth/saml/metadata',
    });
    // posted to "their" host: not a host this portal serves
    expect((await postToAcs(forOther, '/', BINDING, { host: 'other-sp.example' })).statusCode).toBe(421);
    expect(
      (
        await postToAcs(forOther, '/', BINDING, {
          'x-forwarded-host': 'other-sp.example',
          'x-forwarded-proto': 'https',
        })
      ).statusCode,
    ).toBe(421);
    expectRefused(await postToAcs(forOther), 400, /issued for another service, not this portal/);
  });

  describe('signature wrapping', () => {
    const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

    /** A response carrying lead's validly signed assertion as a DOM to rearrange, and the attacker's assertion for member. */
    function wrapped(requestId: string) {
      const signed = signAssertion(assertionFor('lead@acme.test', requestId), ACME_IDP);
      const doc = new DOMParser().parseFromString(responseWith(requestId, [signed]), 'text/xml');
      const original = doc.getElementsByTagName('saml:Assertion')[0];
      const evil = original.cloneNode(true) as Element;
      evil.getElementsByTagName('saml:NameID')[0].textContent = 'member@acme.test';
      const signature = evil.getElementsByTagNameNS(DSIG, 'Signature')[0];
      evil.removeChild(signature);
      return { doc, original, evil, signature };
    }
    const serialize = (doc: Document) => new XMLSerializer().serializeToString(doc);

    it('accepts the response rebuilt untouched (so what fails below is the rearrangement)', async () => {
      const requestId = await startSignIn('lead@acme.test');
      expect((await postToAcs(serialize(wrapped(requestId).doc))).statusCode).toBe(303);
    });

    it('refuses an injected unsigned assertion next to the signed one', async () => {
      const requestId = await startSignIn('member@acme.test');
      const { doc, original, evil } = wrapped(requestId);
      original.parentNode!.insertBefore(evil, original);
      expectRefused(await postToAcs(serialize(doc)), 400, /could not be verified/);
    });

    it('refuses the signed assertion hidden inside an unsigned one', async () => {
      const requestId = await startSignIn('member@acme.test');
      const { doc, original, evil } = wrapped(requestId);
      original.parentNode!.replaceChild(evil, original);
      evil.appendChild(original);
      expectRefused(await postToAcs(serialize(doc)), 400, /could not be verified/);
    });

    it('refuses the signature moved onto the attacker assertion, the signed one tucked into Extensions', async () => {
      const requestId = await startSignIn('member@acme.test');
      const { doc, original, evil, signature } = wrapped(requestId);
      evil.setAttribute('ID', '_evil');
      evil.insertBefore(signature, evil.getElementsByTagName('saml:Subject')[0]);
      const response = original.parentNode!;
      response.replaceChild(evil, original);
      original.removeChild(original.getElementsByTagNameNS(DSIG, 'Signature')[0]);
      const extensions = doc.createElementNS('urn:oasis:names:tc:SAML:2.0:protocol', 'samlp:Extensions');
      extensions.appendChild(original);
      response.insertBefore(extensions, evil);
      expectRefused(await postToAcs(serialize(doc)), 400, /could not be verified/);
    });

    afterAll(async () => {
      // none of it signed member in
      expect(await isFederated('member@acme.test')).toBe(false);
    });
  });

  it('refuses a response to a request it did not send', async () => {
    const res = await postToAcs(signedResponse('lead@acme.test', '_not-a-request-of-ours'));
    expectRefused(res, 400, /does not answer a sign-in in progress here/);
  });

  it('refuses an unsolicited (identity provider initiated) response', async () => {
    const res = await postToAcs(responseWith(null, [signAssertion(assertionFor('lead@acme.test', null), ACME_IDP)]));
    expectRefused(res, 400, /Sign-in must start at the portal/);
  });

  it('refuses an assertion issued by another entity than the configured one', async () => {
    const requestId = await startSignIn('lead@acme.test');
    const res = await postToAcs(
      signedResponse('lead@acme.test', requestId, { issuer: 'https://someone-else.example/saml' }),
    );
    expectRefused(res, 400, /not issued by your company&#39;s identity provider/);
  });

  it('refuses a user of another company, unknown users and staff (invalid_user)', async () => {
    for (const email of ['client@globex.test', 'nobody@acme.test', 'admin@demo.test']) {
      const requestId = await startSignIn('lead@acme.test');
      const res = await postToAcs(signedResponse(email, requestId));
      expectRefused(res, 403, /We could not find any user with that email\./);
    }
    expect(await isFederated('client@globex.test')).toBe(false);
  });

  it("refuses a member of two companies through the identity provider that is not the user's", async () => {
    const globexIdp = createTestIdentityProvider('globex-idp');
    await configure(globexId, globexIdp);
    const globexDomain = await verifyDomain(globexId, 'globex.test');
    // Globex's admin renames the company so that it sorts first: the name decides nothing
    await t.database.db.updateTable('companies').set({ name: 'AAA Globex' }).where('id', '=', globexId).execute();
    try {
      // both@acme.test is in Acme Corp and Globex Inc: Acme, which verified acme.test, decides
      const url = await samlRedirectForEmail(t.app, 'both@acme.test', '/', BINDING);
      expect(url!.startsWith(ACME_IDP.ssoUrl)).toBe(true);
      // a Globex sign-in (started by a Globex-only user) answered by Globex's identity provider for both@acme.test
      const requestId = await startSignIn('client@globex.test');
      const assertion = buildAssertion({
        issuer: globexIdp.entityId,
        email: 'both@acme.test',
        audience: sp().entityId,
        recipient: sp().acsUrl,
        inResponseTo: requestId,
      });
      const res = await postToAcs(responseWith(requestId, [signAssertion(assertion, globexIdp)], globexIdp.entityId));
      expectRefused(res, 403, /We could not find any user with that email\./);
    } finally {
      await t.database.db.updateTable('companies').set({ name: 'Globex Inc' }).where('id', '=', globexId).execute();
      await t.database.db.deleteFrom('company_domains').where('id', '=', globexDomain).execute();
      await t.database.db.deleteFrom('identity_providers').where('company_id', '=', globexId).execute();
    }
  });

  it("never sends a shared user to another company's identity provider when the domain's company has none", async () => {
    const globexIdp = createTestIdentityProvider('globex-idp2');
    await t.database.db.deleteFrom('identity_providers').where('company_id', '=', acmeId).execute();
    await configure(globexId, globexIdp);
    try {
      // both@acme.test: Acme verified acme.test but has no identity provider now, so a password
      expect(await samlRedirectForEmail(t.app, 'both@acme.test', '/', BINDING)).toBeNull();
      // and Globex cannot verify acme.test for itself
      const cookie = await t.cookieFor('admin@demo.test');
      const claim = await t.api({
        method: 'POST',
        url: `/api/v1/companies/${globexId}/domains`,
        cookie,
        payload: { domain: 'acme.test' },
      });
      expect(claim.statusCode).toBe(409);
      expect(claim.json().code).toBe('domain_taken');
    } finally {
      await t.database.db.deleteFrom('identity_providers').where('company_id', '=', globexId).execute();
      await configure(acmeId, ACME_IDP);
    }
  });

  it('refuses a suspended user', async () => {
    const member = (await findUserCredentialsByEmail(t.database.db, 'member@acme.test'))!.user;
    await setUserStatus(t.database.db, member.id, 'suspended');
    try {
      const requestId = await startSignIn('member@acme.test');
      expectRefused(
        await postToAcs(signedResponse('member@acme.test', requestId)),
        403,
        /The user is inactive\. Please contact your Tevora Portal admin\./,
      );
    } finally {
      await setUserStatus(t.database.db, member.id, 'active');
    }
  });

  it("reports the identity provider's own failure", async () => {
    const requestId = await startSignIn('lead@acme.test');
    const res = await postToAcs(
      buildResponse({
        issuer: ACME_IDP.entityId,
        destination: sp().acsUrl,
        inResponseTo: requestId,
        assertions: [],
        statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Requester',
      }),
    );
    expectRefused(res, 400, /Your identity provider did not sign you in\./);
  });

  it('refuses a post without a response, or one that is not XML', async () => {
    expectRefused(await postToAcs(null), 400, /The sign-in response from your identity provider is missing\./);
    expectRefused(await postToAcs('<<not xml'), 400, /could not be read/);
  });

  it('shows a request reference on the error page', async () => {
    const res = await postToAcs(null);
    expect(res.body).toContain(`Reference: ${res.headers['x-request-id']}`);
  });
});

describe('GET /auth/saml/metadata', () => {
  it('describes the portal as a service provider: entity id, ACS, signed assertions', async () => {
    const res = await t.inject({ method: 'GET', url: '/auth/saml/metadata' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.body).toContain(`entityID="${ORIGIN}/auth/saml/metadata"`);
    expect(res.body).toContain(`Location="${ORIGIN}/auth/saml/acs"`);
    expect(res.body).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect(res.body).toContain('WantAssertionsSigned="true"');
  });

  it('is never built on the Host a request names (421 for a host the portal does not serve)', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/auth/saml/metadata',
      headers: { host: 'portal.example.com', 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(421);
    expect(res.body).not.toContain('portal.example.com/auth/saml');
  });
});
