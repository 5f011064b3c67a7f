import { X509Certificate } from 'node:crypto';
import { samlRedirectForEmail } from '../../../../lib/saml-login';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createTestIdentityProvider } from '../../../../test/saml-idp';

const IDP = createTestIdentityProvider('acme-idp');
const VALID = { entityId: IDP.entityId, ssoUrl: IDP.ssoUrl, certificate: IDP.certificate };

let t: TestApp;
let acmeId: string;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  acmeId = (
    await t.database.db.selectFrom('companies').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()
  ).id;
  url = `/api/v1/companies/${acmeId}/identity-provider`;
});
afterAll(() => t.close());

async function put(payload: unknown, email = 'lead@acme.test') {
  return t.api({ method: 'PUT', url, cookie: await t.cookieFor(email), payload: payload as object });
}

const SERVICE_PROVIDER = {
  entityId: 'http://localhost/auth/saml/metadata',
  acsUrl: 'http://localhost/auth/saml/acs',
  metadataUrl: 'http://localhost/auth/saml/metadata',
};

describe('/api/v1/companies/:id/identity-provider', () => {
  it('answers null while none is configured, with what the identity provider needs to know about the portal', async () => {
    const res = await t.api({ method: 'GET', url, cookie: await t.cookieFor('lead@acme.test') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      identityProvider: null,
      serviceProvider: SERVICE_PROVIDER,
      domains: [],
      canConfirmDomains: false,
    });
  });

  it('saves the settings of a company admin and returns them with the certificate fingerprint and expiry', async () => {
    const res = await put({ ...VALID, sloUrl: 'https://acme-idp.example.test/slo' });
    expect(res.statusCode).toBe(200);
    const x509 = new X509Certificate(IDP.certificate);
    const body = res.json();
    expect(body).toEqual({
      identityProvider: {
        ...VALID,
        certificate: x509.toString(),
        sloUrl: 'https://acme-idp.example.test/slo',
        certificateFingerprint: x509.fingerprint256,
        certificateExpiresAt: new Date(x509.validTo).toISOString(),
        updatedAt: expect.any(String),
      },
      serviceProvider: SERVICE_PROVIDER,
      domains: [],
      canConfirmDomains: false,
    });
    const admin = await t.cookieFor('admin@demo.test');
    const again = await t.api({ method: 'GET', url, cookie: admin });
    expect(again.json()).toEqual({ ...body, canConfirmDomains: true });
    // sign-in goes to the identity provider once the company's email domain is verified, not before
    expect(await samlRedirectForEmail(t.app, 'member@acme.test', '/', 'b'.repeat(43))).toBeNull();
    const domain = await t.api({
      method: 'POST',
      url: `/api/v1/companies/${acmeId}/domains`,
      cookie: admin,
      payload: { domain: 'acme.test' },
    });
    await t.api({
      method: 'POST',
      url: `/api/v1/companies/${acmeId}/domains/${domain.json().id}/confirm`,
      cookie: admin,
    });
    expect(await samlRedirectForEmail(t.app, 'member@acme.test', '/', 'b'.repeat(43))).toMatch(
      /^https:\/\/acme-idp\.example\.test\/sso\?SAMLRequest=/,
    );
  });

  it('accepts a base64 DER certificate and stores it as PEM; sloUrl may be null', async () => {
    const der = IDP.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
    const res = await put({ ...VALID, certificate: der, sloUrl: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().identityProvider).toMatchObject({
      certificate: new X509Certificate(IDP.certificate).toString(),
      sloUrl: null,
    });
  });

  it('allows http only for a local identity provider', async () => {
    expect((await put({ ...VALID, ssoUrl: 'http://localhost:7000/sso' })).statusCode).toBe(200);
    const res = await put({ ...VALID, ssoUrl: 'http://idp.example.test/sso' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      message: 'Invalid field: ssoUrl',
      details: [{ field: 'ssoUrl', message: 'ssoUrl must be an https URL (http only for localhost)' }],
    });
    await put(VALID);
  });

  it('names every missing or invalid field', async () => {
    const res = await put({ entityId: '', sloUrl: 'ftp://idp.example.test/slo' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(
      res
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['certificate', 'entityId', 'sloUrl', 'ssoUrl']);
    expect((await put({ ...VALID, entityId: 'x'.repeat(1025) })).json().message).toBe('Invalid field: entityId');
  });

  it('refuses a certificate that is not X.509, naming the field', async () => {
    const privateKey = IDP.privateKey;
    const garbage = Buffer.from('not a certificate at all, only some bytes that are long enough').toString('base64');
    for (const certificate of [garbage, privateKey, 'hello']) {
      const res = await put({ ...VALID, certificate });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message: 'Invalid field: certificate' });
      expect(res.json().details[0].field).toBe('certificate');
    }
    // the stored settings are unchanged
    const current = await t.api({ method: 'GET', url, cookie: await t.cookieFor('lead@acme.test') });
    expect(current.json().identityProvider.certificate).toBe(new X509Certificate(IDP.certificate).toString());
  });

  it('is refused to a member without the permission (403) and hidden from another company (404)', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const member = await t.api({
        method,
        url,
        cookie: await t.cookieFor('member@acme.test'),
        payload: method === 'PUT' ? VALID : undefined,
      });
      expect({ method, status: member.statusCode }).toEqual({ method, status: 403 });
      const outsider = await t.api({
        method,
        url,
        cookie: await t.cookieFor('client@globex.test'),
        payload: method === 'PUT' ? VALID : undefined,
      });
      expect({ method, status: outsider.statusCode, code: outsider.json().code }).toEqual({
        method,
        status: 404,
        code: 'company_not_found',
      });
    }
  });

  it('removes the identity provider: users sign in with a password again', async () => {
    const res = await t.api({ method: 'DELETE', url, cookie: await t.cookieFor('consultant@demo.test') });
    expect(res.statusCode).toBe(204);
    const after = await t.api({ method: 'GET', url, cookie: await t.cookieFor('lead@acme.test') });
    expect(after.json().identityProvider).toBeNull();
    expect(await samlRedirectForEmail(t.app, 'member@acme.test', '/', 'http://localhost')).toBeNull();
  });
});
