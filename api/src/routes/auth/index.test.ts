import { DEMO_PASSWORD } from '../../db/seed';
import { hashSessionToken } from '../../db/sessions';
import { findUserCredentialsByEmail, setUserStatus } from '../../db/users';
import { createTestApp, type TestApp } from '../../test/app';
import { escapeHtml, renderLoginPage } from './login-page';
import { safeReturnPath } from './index';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function signIn(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return t.inject({
    method: 'POST',
    url: '/auth/saml/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

function sessionToken(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : [setCookie ?? ''];
  const line = all.find((c) => c.startsWith('pe_session_token='));
  if (!line) throw new Error('no session cookie set');
  return line.split(';')[0].slice('pe_session_token='.length);
}

describe('GET /auth/saml/login', () => {
  it('renders an accessible sign-in page with the brand and an alert area', async () => {
    const res = await t.inject({ method: 'GET', url: '/auth/saml/login' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('Tevora Portal');
    expect(res.body).toMatch(/<label for="email">Email<\/label>/);
    expect(res.body).toMatch(/<label for="password">Password<\/label>/);
    expect(res.body).toContain('role="alert"');
    expect(res.body).not.toMatch(/<link|<script|src="http/);
  });

  it('sends a signed-in user home', async () => {
    const res = await t.inject({ method: 'GET', url: '/auth/saml/login', headers: { cookie: await t.cookieFor('lead@acme.test') } });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });

  it('escapes every interpolated value', () => {
    const html = renderLoginPage({ brandName: '<b>Brand</b>', email: '"><script>alert(1)</script>', error: '<img src=x>' });
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x>');
    expect(html).not.toContain('<b>Brand</b>');
    expect(escapeHtml(`<>&"'`)).toBe('&#60;&#62;&#38;&#34;&#39;');
  });
});

describe('POST /auth/saml/login', () => {
  it('signs in: HttpOnly SameSite=Lax cookie, stores only the token hash, redirects home', async () => {
    const res = await signIn({ email: 'Lead@Acme.test', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookieLine = [res.headers['set-cookie']].flat().find((c) => c!.startsWith('pe_session_token='))!;
    expect(cookieLine).toMatch(/HttpOnly/i);
    expect(cookieLine).toMatch(/SameSite=Lax/i);
    expect(cookieLine).toMatch(/Path=\//);
    expect(cookieLine).not.toMatch(/Secure/i);
    const token = sessionToken(res.headers['set-cookie']);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    const user = await findUserCredentialsByEmail(t.database.db, 'lead@acme.test');
    const rows = await t.database.db.selectFrom('sessions').selectAll().where('user_id', '=', user!.user.id).execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.token_hash).not.toBe(token);
    expect(rows.map((r) => r.token_hash)).toContain(hashSessionToken(token));

    const me = await t.inject({ method: 'GET', url: '/api/v1/users/profile/me', headers: { cookie: `pe_session_token=${token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('lead@acme.test');
  });

  it('sets a Secure cookie when the request came over https through the proxy', async () => {
    const res = await signIn({ email: 'lead@acme.test', password: DEMO_PASSWORD }, { 'x-forwarded-proto': 'https' });
    expect(res.statusCode).toBe(303);
    expect([res.headers['set-cookie']].flat().find((c) => c!.startsWith('pe_session_token='))).toMatch(/Secure/);
  });

  it('refuses a wrong password with 401, the catalogue message, and keeps the email', async () => {
    const res = await signIn({ email: 'lead@acme.test', password: 'wrong-password' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('Your credentials are not correct.');
    expect(res.body).toContain('value="lead@acme.test"');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an unknown user the same way', async () => {
    const res = await signIn({ email: 'nobody@nowhere.test', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('Your credentials are not correct.');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('answers 400 naming the missing field', async () => {
    const noPassword = await signIn({ email: 'lead@acme.test' });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.body).toContain('Password is required');
    const noEmail = await signIn({ password: DEMO_PASSWORD });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.body).toContain('Email is required');
  });

  it('refuses a suspended user', async () => {
    const user = await findUserCredentialsByEmail(t.database.db, 'client@globex.test');
    await setUserStatus(t.database.db, user!.user.id, 'suspended');
    try {
      const res = await signIn({ email: 'client@globex.test', password: DEMO_PASSWORD });
      expect(res.statusCode).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).toContain('The user is inactive.');
    } finally {
      await setUserStatus(t.database.db, user!.user.id, 'active');
    }
  });

  it('rejects a sign-in posted from another origin', async () => {
    const res = await signIn({ email: 'lead@acme.test', password: DEMO_PASSWORD }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf_rejected');
    const byReferer = await signIn({ email: 'lead@acme.test', password: DEMO_PASSWORD }, { referer: 'https://evil.example/login' });
    expect(byReferer.statusCode).toBe(403);
  });

  it('accepts a same-origin Origin', async () => {
    const res = await signIn({ email: 'lead@acme.test', password: DEMO_PASSWORD }, { origin: 'http://localhost:80' });
    expect(res.statusCode).toBe(303);
  });

  it.each([
    ['%2Frequests%2F1%3Fx%3Dy', '/requests/1?x=y'],
    ['/requests/1?x=y', '/requests/1?x=y'],
    ['https%3A%2F%2Felsewhere.example%2F', '/'],
    ['%2F%2Felsewhere.example', '/'],
    ['%2F%5Celsewhere.example', '/'],
  ])('returns to the toUrl cookie %s -> %s and clears it', async (cookieValue, expected) => {
    const res = await signIn({ email: 'both@acme.test', password: DEMO_PASSWORD }, { cookie: `toUrl=${cookieValue}` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(expected);
    expect([res.headers['set-cookie']].flat().some((c) => /^toUrl=;/.test(c!) && /Max-Age=0/.test(c!))).toBe(true);
  });

  it('accepts only same-origin paths as return addresses', () => {
    expect(safeReturnPath('/v2/projects/1')).toBe('/v2/projects/1');
    for (const bad of ['https://elsewhere.example/', '//elsewhere.example', '/\\elsewhere.example', 'javascript:alert(1)', '/\t/evil.example', '', undefined]) {
      expect(safeReturnPath(bad)).toBe('/');
    }
  });
});

describe('sessions', () => {
  it('logout deletes the session, clears the cookie, and the old cookie then gets 401', async () => {
    const res = await signIn({ email: 'member@acme.test', password: DEMO_PASSWORD });
    const token = sessionToken(res.headers['set-cookie']);
    const cookie = `pe_session_token=${token}`;
    expect((await t.inject({ method: 'GET', url: '/api/v1/users/profile/me', headers: { cookie } })).statusCode).toBe(200);

    const out = await t.inject({ method: 'GET', url: '/auth/saml/logout', headers: { cookie } });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/auth/saml/login');
    expect([out.headers['set-cookie']].flat().some((c) => /^pe_session_token=;/.test(c!))).toBe(true);
    const hash = hashSessionToken(token);
    expect(await t.database.db.selectFrom('sessions').select('id').where('token_hash', '=', hash).executeTakeFirst()).toBeUndefined();

    const again = await t.inject({ method: 'GET', url: '/api/v1/users/profile/me', headers: { cookie } });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('unauthorized');
  });

  it('answers 401 for a session past its absolute end', async () => {
    const res = await signIn({ email: 'member@acme.test', password: DEMO_PASSWORD });
    const token = sessionToken(res.headers['set-cookie']);
    const hash = hashSessionToken(token);
    await t.database.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token_hash', '=', hash).execute();
    const me = await t.inject({ method: 'GET', url: '/api/v1/users/profile/me', headers: { cookie: `pe_session_token=${token}` } });
    expect(me.statusCode).toBe(401);
  });

  it('answers 401 for a session idle longer than the idle timeout, and touches active ones', async () => {
    const res = await signIn({ email: 'member@acme.test', password: DEMO_PASSWORD });
    const token = sessionToken(res.headers['set-cookie']);
    const hash = hashSessionToken(token);
    const cookie = `pe_session_token=${token}`;

    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
    await t.database.db.updateTable('sessions').set({ last_seen_at: twoMinutesAgo }).where('token_hash', '=', hash).execute();
    expect((await t.inject({ method: 'GET', url: '/api/v1/users/profile/me', headers: { cookie } })).statusCode).toBe(200);
    const touched = await t.database.db.selectFrom('sessions').select('last_seen_at').where('token_hash', '=', hash).executeTakeFirstOrThrow();
    expect(Date.parse(String(touched.last_seen_at instanceof Date ? touched.last_seen_at.toISOString() : touched.last_seen_at))).toBeGreaterThan(Date.parse(twoMinutesAgo));

    const idle = new Date(Date.now() - (t.config.sessionIdleMinutes + 1) * 60_000).toISOString();
    await t.database.db.updateTable('sessions').set({ last_seen_at: idle }).where('token_hash', '=', hash).execute();
    expect((await t.inject({ method: 'GET', url: '/api/v1/users/profile/me', headers: { cookie } })).statusCode).toBe(401);
  });

  it('answers 401 for a made-up token', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/v1/users/profile/me', headers: { cookie: 'pe_session_token=forged' } });
    expect(res.statusCode).toBe(401);
  });
});
