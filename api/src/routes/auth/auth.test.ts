import { buildApp } from '../../app';
import { savePasswordPolicy } from '../../db/password-policies';
import { DEMO_PASSWORD } from '../../db/seed';
import { hashSessionToken } from '../../db/sessions';
import { findUserCredentialsByEmail, setUserStatus } from '../../db/users';
import { SIGN_IN_LIMITS } from '../../modules/auth/sign-in-limits';
import * as samlLogin from '../../lib/saml-login';
import { createTestApp, inject, type TestApp } from '../../test/app';
import { freezeDate } from '../../test/clock';
import {
  companyId,
  createUserWithPassword,
  hiddenToken,
  postForm,
  sessionTokenOf,
  setCookies,
} from '../../test/identity';
import { escapeHtml, renderAuthPage, renderLoginPage } from '../../modules/auth/login-page';
import { safeReturnPath } from '../../modules/auth/sign-in-forms';

// argon2 hashes (the production cost) make some of these tests take seconds on a busy machine.
jest.setTimeout(20_000);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.deleteFrom('rate_limits').execute();
  jest.restoreAllMocks();
});

function signIn(fields: Record<string, string>, headers: Record<string, string> = {}, remoteAddress?: string) {
  return postForm(t, '/auth/saml/login', fields, headers, remoteAddress);
}

function sessionToken(res: Awaited<ReturnType<typeof signIn>>): string {
  const token = sessionTokenOf(res);
  if (!token) throw new Error(`no session cookie set (status ${res.statusCode})`);
  return token;
}

const me = (cookie: string) => t.inject({ method: 'GET', url: '/api/v1/users/profile/me', headers: { cookie } });

describe('GET /auth/saml/login (step 1)', () => {
  it('asks for the email only: labelled, focused, with an alert area and no external assets', async () => {
    const res = await t.inject({ method: 'GET', url: '/auth/saml/login' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('Tevora Portal');
    expect(res.body).toMatch(/<label for="email">Email<\/label>/);
    expect(res.body).toMatch(/<input id="email"[^>]*autocomplete="username"[^>]*autofocus>/);
    expect(res.body).toMatch(/<button type="submit">Continue<\/button>/);
    expect(res.body).not.toContain('type="password"');
    expect(res.body).toContain('role="alert"');
    expect(res.body).not.toMatch(/<link|<script|src="http/);
  });

  it('sends a signed-in user home', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/auth/saml/login',
      headers: { cookie: await t.cookieFor('lead@acme.test') },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });

  it('escapes every interpolated value', () => {
    for (const step of ['email', 'password'] as const) {
      const html = renderLoginPage({
        brandName: '<b>Brand</b>',
        step,
        email: '"><script>alert(1)</script>',
        error: '<img src=x>',
      });
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('<img src=x>');
      expect(html).not.toContain('<b>Brand</b>');
    }
    const page = renderAuthPage({ brandName: 'B', title: '<t>', heading: '<h>', lead: '<l>', notice: '<n>', body: '' });
    expect(page).not.toMatch(/<t>|<h>|<l>|<n>/);
    expect(escapeHtml(`<>&"'`)).toBe('&#60;&#62;&#38;&#34;&#39;');
  });
});

describe('POST /auth/saml/login with an email only', () => {
  it('shows the password step: the email kept, a way back, the password focused, a forgot-password link', async () => {
    const res = await signIn({ email: ' lead@acme.test ' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<input id="email"[^>]*readonly[^>]*>/);
    expect(res.body).toContain('value="lead@acme.test"');
    expect(res.body).toMatch(/<a href="\/auth\/saml\/login">Use another email<\/a>/);
    expect(res.body).toMatch(/<label for="password">Password<\/label>/);
    expect(res.body).toMatch(
      /<input id="password"[^>]*type="password"[^>]*autocomplete="current-password"[^>]* autofocus>/,
    );
    expect(res.body).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(res.body).toMatch(/<a href="\/auth\/forgot-password">Forgot password\?<\/a>/);
    expect(res.body).toContain('name="step" value="password"');
    expect(setCookies(res)).toEqual([]);
  });

  it('shows unknown emails the same password step (no user enumeration)', async () => {
    const known = await signIn({ email: 'lead@acme.test' });
    const unknown = await signIn({ email: 'nobody@acme.test' });
    expect(unknown.statusCode).toBe(known.statusCode);
    // the same page but for the CSP nonce every page has its own of
    const page = (body: string) => body.replace(/nonce="[^"]+"/g, 'nonce');
    expect(page(unknown.body.replace('nobody@acme.test', 'lead@acme.test'))).toBe(page(known.body));
  });

  it.each([
    [{}, 'Email is required'],
    [{ email: '   ' }, 'Email is required'],
    [{ email: 'not-an-email' }, 'Email is not a valid address'],
  ])('answers 400 on the email step for %j: %s', async (fields, message) => {
    const res = await signIn(fields);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(message);
    expect(res.body).toMatch(/<input id="email"[^>]*aria-invalid="true"/);
    expect(res.body).toContain('>Continue</button>');
  });

  it('sends a user of a company with single sign-on to its identity provider, with the return path', async () => {
    const spy = jest
      .spyOn(samlLogin, 'samlRedirectForEmail')
      .mockResolvedValue('https://idp.example/sso?SAMLRequest=abc');
    const res = await signIn({ email: 'lead@acme.test' }, { cookie: 'toUrl=%2Frequests%2F1' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('https://idp.example/sso?SAMLRequest=abc');
    // bound to this browser by a new binding cookie
    const binding = setCookies(res)
      .find((c) => c.startsWith('pe_saml_binding='))!
      .split(';')[0]
      .split('=')[1];
    expect(binding).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(spy).toHaveBeenCalledWith(expect.anything(), 'lead@acme.test', '/requests/1', binding);
  });
});

describe('POST /auth/saml/login with email and password', () => {
  it('signs in: HttpOnly SameSite=Lax cookie, stores only the token hash, redirects home', async () => {
    const res = await signIn({ email: 'Lead@Acme.test', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookieLine = setCookies(res).find((c) => c.startsWith('pe_session_token='))!;
    expect(cookieLine).toMatch(/HttpOnly/i);
    expect(cookieLine).toMatch(/SameSite=Lax/i);
    expect(cookieLine).toMatch(/Path=\//);
    expect(cookieLine).not.toMatch(/Secure/i);
    const token = sessionToken(res);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    const user = await findUserCredentialsByEmail(t.database.db, 'lead@acme.test');
    const rows = await t.database.db.selectFrom('sessions').selectAll().where('user_id', '=', user!.user.id).execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.token_hash).not.toBe(token);
    expect(rows.map((r) => r.token_hash)).toContain(hashSessionToken(token));

    const profile = await me(`pe_session_token=${token}`);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().email).toBe('lead@acme.test');
  });

  it('signs in from the password step form', async () => {
    const res = await signIn({ step: 'password', email: 'lead@acme.test', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(sessionTokenOf(res)).not.toBeNull();
  });

  it('gives a new token at every sign-in and ends the session the browser had before', async () => {
    const first = sessionToken(await signIn({ email: 'both@acme.test', password: DEMO_PASSWORD }));
    const second = await signIn(
      { email: 'member@acme.test', password: DEMO_PASSWORD },
      { cookie: `pe_session_token=${first}` },
    );
    const secondToken = sessionToken(second);
    expect(secondToken).not.toBe(first);
    expect(
      await t.database.db
        .selectFrom('sessions')
        .select('id')
        .where('token_hash', '=', hashSessionToken(first))
        .executeTakeFirst(),
    ).toBeUndefined();
    expect((await me(`pe_session_token=${first}`)).statusCode).toBe(401);
    expect((await me(`pe_session_token=${secondToken}`)).json().email).toBe('member@acme.test');
  });

  it('sets a Secure cookie when the request came over https through the proxy', async () => {
    const res = await signIn({ email: 'lead@acme.test', password: DEMO_PASSWORD }, { 'x-forwarded-proto': 'https' });
    expect(res.statusCode).toBe(303);
    expect(setCookies(res).find((c) => c.startsWith('pe_session_token='))).toMatch(/Secure/);
  });

  it('refuses a wrong password with 401, the catalogue message, and keeps the email on the password step', async () => {
    const res = await signIn({ email: 'lead@acme.test', password: 'wrong-password' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/role="alert">Your credentials are not correct\.</);
    expect(res.body).toContain('value="lead@acme.test"');
    expect(res.body).toMatch(/<input id="password"[^>]*aria-invalid="true"/);
    expect(setCookies(res)).toEqual([]);
  });

  it('refuses an unknown user the same way', async () => {
    const res = await signIn({ email: 'nobody@nowhere.test', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('Your credentials are not correct.');
    expect(setCookies(res)).toEqual([]);
  });

  it('answers 400 naming the missing or invalid field', async () => {
    const noPassword = await signIn({ step: 'password', email: 'lead@acme.test', password: '' });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.body).toContain('Password is required');
    const noEmail = await signIn({ password: DEMO_PASSWORD });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.body).toContain('Email is required');
    const tooLong = await signIn({ email: 'lead@acme.test', password: 'x'.repeat(257) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('Password must be at most 256 characters');
  });

  it('refuses a suspended user', async () => {
    const user = await findUserCredentialsByEmail(t.database.db, 'client@globex.test');
    await setUserStatus(t.database.db, user!.user.id, 'suspended');
    try {
      const res = await signIn({ email: 'client@globex.test', password: DEMO_PASSWORD });
      expect(res.statusCode).toBe(403);
      expect(setCookies(res)).toEqual([]);
      expect(res.body).toContain('The user is inactive.');
    } finally {
      await setUserStatus(t.database.db, user!.user.id, 'active');
    }
  });

  it('redirects to the identity provider instead when the company uses single sign-on, without checking the password', async () => {
    jest.spyOn(samlLogin, 'samlRedirectForEmail').mockResolvedValue('https://idp.example/sso?SAMLRequest=xyz');
    const res = await signIn({ email: 'lead@acme.test', password: 'anything at all' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('https://idp.example/sso?SAMLRequest=xyz');
    expect(sessionTokenOf(res)).toBeNull();
    expect(await t.database.db.selectFrom('rate_limits').select('key').execute()).toEqual([]);
  });

  it('rejects a sign-in posted from another origin', async () => {
    const res = await signIn({ email: 'lead@acme.test', password: DEMO_PASSWORD }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf_rejected');
    const byReferer = await signIn(
      { email: 'lead@acme.test', password: DEMO_PASSWORD },
      { referer: 'https://evil.example/login' },
    );
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
    expect(setCookies(res).some((c) => /^toUrl=;/.test(c) && /Max-Age=0/.test(c))).toBe(true);
  });

  it('accepts only same-origin paths as return addresses', () => {
    expect(safeReturnPath('/v2/projects/1')).toBe('/v2/projects/1');
    for (const bad of [
      'https://elsewhere.example/',
      '//elsewhere.example',
      '/\\elsewhere.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '',
      undefined,
    ]) {
      expect(safeReturnPath(bad)).toBe('/');
    }
  });
});

describe('failed sign-in limits', () => {
  const A = '10.0.0.1';
  const B = '10.0.0.2';
  const STAFF = 'consultant@demo.test';
  const wrong = (email: string, address = A) => signIn({ email, password: 'not-the-password' }, {}, address);
  const right = (email: string, address: string) => signIn({ email, password: DEMO_PASSWORD }, {}, address);
  const retryAfter = (res: Awaited<ReturnType<typeof signIn>>) => Number(res.headers['retry-after']);
  let clock: ReturnType<typeof freezeDate>;

  beforeEach(() => {
    clock = freezeDate();
  });
  afterEach(() => jest.useRealTimers());

  it('slows down the address that failed, never the owner elsewhere, and lets it in once the wait has passed', async () => {
    for (let i = 0; i < 5; i++) expect((await wrong(STAFF)).statusCode).toBe(401);

    // the right password from another address: in at once
    const elsewhere = await right(STAFF, B);
    expect(elsewhere.statusCode).toBe(303);
    expect(sessionTokenOf(elsewhere)).not.toBeNull();

    // from the address that failed, even the right password waits (a second), in the screen's words
    const waiting = await right(STAFF, A);
    expect(waiting.statusCode).toBe(429);
    expect(retryAfter(waiting)).toBe(1);
    expect(waiting.body).toMatch(
      /role="alert">Too many failed sign-in attempts\. Please wait 1 second and try again, or reset your password\.</,
    );
    expect(waiting.body).toMatch(/<input id="password"[^>]*autofocus>/);
    expect(sessionTokenOf(waiting)).toBeNull();
    clock.advance(999);
    expect((await right(STAFF, A)).statusCode).toBe(429);
    clock.advance(1);
    expect((await right(STAFF, A)).statusCode).toBe(303);
  });

  it('doubles the wait with every further failure, never past a minute', async () => {
    for (let i = 0; i < 5; i++) expect((await wrong(STAFF)).statusCode).toBe(401);
    for (const wait of [1, 2, 4, 8, 16, 32, 60, 60]) {
      const res = await wrong(STAFF);
      expect(res.statusCode).toBe(429);
      expect(retryAfter(res)).toBe(wait);
      expect(res.body).toContain(
        `Please wait ${wait === 60 ? '1 minute' : wait === 1 ? '1 second' : `${wait} seconds`} and try again`,
      );
      clock.advance(wait * 1000);
      expect((await wrong(STAFF)).statusCode).toBe(401);
    }
    const res = await right(STAFF, A);
    expect(retryAfter(res)).toBeLessThanOrEqual(60);
    clock.advance(retryAfter(res) * 1000);
    expect((await right(STAFF, A)).statusCode).toBe(303);
  });

  it('slows down unknown emails the same way (the 429 does not tell who has an account)', async () => {
    for (let i = 0; i < 5; i++) expect((await wrong('nobody@acme.test')).statusCode).toBe(401);
    const res = await wrong('nobody@acme.test');
    expect(res.statusCode).toBe(429);
    expect(retryAfter(res)).toBe(1);
  });

  it("clears the address's failures once its password is right", async () => {
    for (let i = 0; i < 4; i++) expect((await wrong('both@acme.test')).statusCode).toBe(401);
    expect((await right('both@acme.test', A)).statusCode).toBe(303);
    for (let i = 0; i < 5; i++) expect((await wrong('both@acme.test')).statusCode).toBe(401);
    expect((await wrong('both@acme.test')).statusCode).toBe(429);
    // other accounts from the same address are not slowed down
    expect((await right('lead@acme.test', A)).statusCode).toBe(303);
  });

  it('counts parallel wrong guesses before checking any password: past the free ones they wait', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => wrong('member@acme.test')));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const refused = answers.filter((res) => res.statusCode === 429);
    expect(refused.map(retryAfter)).toEqual([1, 1, 1]);
    const wait = await right('member@acme.test', A);
    expect(wait.statusCode).toBe(429);
    expect((await right('member@acme.test', B)).statusCode).toBe(303);
  });

  it(`refuses an address with 429 after ${SIGN_IN_LIMITS.address.max} failures across accounts, not before`, async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.address.max; i++) {
      expect((await wrong(`guess${i}@acme.test`, '10.9.9.9')).statusCode).toBe(401);
    }
    const res = await right('lead@acme.test', '10.9.9.9');
    expect(res.statusCode).toBe(429);
    expect(retryAfter(res)).toBe(SIGN_IN_LIMITS.address.windowMinutes * 60);
    expect(res.body).toContain(`Please wait ${SIGN_IN_LIMITS.address.windowMinutes} minutes and try again`);
    expect((await right('lead@acme.test', '10.9.9.10')).statusCode).toBe(303);
  });

  it('counts in the database, so every instance sharing it slows the address down together', async () => {
    const other = buildApp({ db: t.database.db, config: t.config });
    await other.ready();
    try {
      for (let i = 0; i < 5; i++) expect((await wrong('lead@acme.test')).statusCode).toBe(401);
      const fromOther = (remoteAddress: string) =>
        inject(other, {
          method: 'POST',
          url: '/auth/saml/login',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ email: 'lead@acme.test', password: DEMO_PASSWORD }).toString(),
          remoteAddress,
        });
      expect((await fromOther(A)).statusCode).toBe(429);
      expect((await fromOther(B)).statusCode).toBe(303);
    } finally {
      await other.close();
    }
  });
});

describe('expired passwords', () => {
  const PASSWORD = 'Original-Passw0rd!';
  const NEW_PASSWORD = 'Brand-New-Passw0rd!';
  let acmeId: string;

  beforeAll(async () => {
    acmeId = await companyId(t, 'Acme Corp');
  });
  afterEach(() => savePasswordPolicy(t.database.db, acmeId, { minimumLength: 12, rotationInDays: 0 }));

  async function userChangedDaysAgo(days: number) {
    const user = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'] });
    const changedAt = new Date(Date.now() - days * 86_400_000).toISOString();
    await t.database.db
      .updateTable('users')
      .set({ password_changed_at: changedAt })
      .where('id', '=', user.id)
      .execute();
    return user;
  }

  it('asks for a new password after a correct old one, with a short-lived token and no session; then signs in', async () => {
    await savePasswordPolicy(t.database.db, acmeId, { minimumLength: 14, rotationInDays: 30 });
    const user = await userChangedDaysAgo(31);
    const res = await signIn({ email: user.email, password: PASSWORD }, { cookie: 'toUrl=%2Frequests%2F7' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Choose a new password');
    expect(res.body).toContain('Your password has expired.');
    expect(res.body).toContain('At least 14 characters. It has to be changed every 30 days.');
    expect(res.body).toMatch(/<label for="password">New password<\/label>/);
    expect(sessionTokenOf(res)).toBeNull();
    expect(await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual(
      [],
    );
    const token = hiddenToken(res.body);
    const row = await t.database.db
      .selectFrom('password_tokens')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.purpose).toBe('reset');
    expect(row.token_hash).not.toBe(token);
    expect(
      Date.parse(String(row.expires_at instanceof Date ? row.expires_at.toISOString() : row.expires_at)) - Date.now(),
    ).toBeLessThanOrEqual(10 * 60_000);

    const choose = (fields: Record<string, string>) =>
      postForm(t, '/auth/reset-password', { token, reason: 'expired', ...fields }, { cookie: 'toUrl=%2Frequests%2F7' });
    const short = await choose({ password: 'Short-Pass1!', confirmPassword: 'Short-Pass1!' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Password must be at least 14 characters');
    const same = await choose({ password: PASSWORD, confirmPassword: PASSWORD });
    expect(same.statusCode).toBe(400);
    expect(same.body).toContain('Password must be different from the current password');
    const mismatch = await choose({ password: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}x` });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('Passwords do not match');
    expect(mismatch.body).toMatch(/<input id="confirmPassword"[^>]*aria-invalid="true"/);

    const done = await choose({ password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/requests/7');
    const token2 = sessionTokenOf(done)!;
    expect((await me(`pe_session_token=${token2}`)).json().email).toBe(user.email);

    // the token is spent, and the new password signs in directly
    expect((await choose({ password: `${NEW_PASSWORD}2`, confirmPassword: `${NEW_PASSWORD}2` })).statusCode).toBe(400);
    expect((await signIn({ email: user.email, password: PASSWORD })).statusCode).toBe(401);
    expect((await signIn({ email: user.email, password: NEW_PASSWORD })).statusCode).toBe(303);
  });

  it('signs in directly while the password is younger than the rotation', async () => {
    await savePasswordPolicy(t.database.db, acmeId, { minimumLength: 12, rotationInDays: 30 });
    const user = await userChangedDaysAgo(29);
    const res = await signIn({ email: user.email, password: PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(sessionTokenOf(res)).not.toBeNull();
  });

  it('never expires a password when the rotation is 0', async () => {
    const user = await userChangedDaysAgo(5000);
    expect((await signIn({ email: user.email, password: PASSWORD })).statusCode).toBe(303);
  });
});

describe('sign-out', () => {
  it('is not done by a GET (a link or image of another site): the page asks, with a button that posts', async () => {
    const token = sessionToken(await signIn({ email: 'member@acme.test', password: DEMO_PASSWORD }));
    const cookie = `pe_session_token=${token}`;
    const page = await t.inject({ method: 'GET', url: '/auth/saml/logout', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<form method="post" action="\/auth\/saml\/logout">/);
    expect((await me(cookie)).statusCode).toBe(200);

    // a post without Origin, Referer or the page's token (a form another site submits with both stripped)
    const bare = await t.inject({ method: 'POST', url: '/auth/saml/logout', headers: { cookie } });
    expect(bare.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(200);
    // from another origin
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/auth/saml/logout',
          headers: { cookie, origin: 'https://evil.example' },
        })
      ).statusCode,
    ).toBe(403);
    expect((await me(cookie)).statusCode).toBe(200);
    const forged = await t.inject({
      method: 'POST',
      url: '/auth/saml/logout',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'token=not-the-token',
    });
    expect(forged.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(200);

    // the page's own button
    const pageToken = /name="token" value="([^"]+)"/.exec(page.body)![1];
    const out = await t.inject({
      method: 'POST',
      url: '/auth/saml/logout',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${pageToken}`,
    });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/auth/saml/login');
    expect((await me(cookie)).statusCode).toBe(401);
  });
});

describe('sessions', () => {
  it('logout deletes the session, clears the cookie, and the old cookie then gets 401', async () => {
    const token = sessionToken(await signIn({ email: 'member@acme.test', password: DEMO_PASSWORD }));
    const cookie = `pe_session_token=${token}`;
    expect((await me(cookie)).statusCode).toBe(200);

    // the shell's form post: same-origin, as the browser's Origin header says
    const out = await t.inject({
      method: 'POST',
      url: '/auth/saml/logout',
      headers: { cookie, origin: 'http://localhost' },
    });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/auth/saml/login');
    expect(setCookies(out).some((c) => /^pe_session_token=;/.test(c))).toBe(true);
    const hash = hashSessionToken(token);
    expect(
      await t.database.db.selectFrom('sessions').select('id').where('token_hash', '=', hash).executeTakeFirst(),
    ).toBeUndefined();

    const again = await me(cookie);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('unauthorized');
  });

  it('answers 401 for a session past its absolute end', async () => {
    const token = sessionToken(await signIn({ email: 'member@acme.test', password: DEMO_PASSWORD }));
    const hash = hashSessionToken(token);
    await t.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hash)
      .execute();
    expect((await me(`pe_session_token=${token}`)).statusCode).toBe(401);
  });

  it('answers 401 for a session idle longer than the idle timeout, and touches active ones', async () => {
    const token = sessionToken(await signIn({ email: 'member@acme.test', password: DEMO_PASSWORD }));
    const hash = hashSessionToken(token);
    const cookie = `pe_session_token=${token}`;

    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: twoMinutesAgo })
      .where('token_hash', '=', hash)
      .execute();
    expect((await me(cookie)).statusCode).toBe(200);
    const touched = await t.database.db
      .selectFrom('sessions')
      .select('last_seen_at')
      .where('token_hash', '=', hash)
      .executeTakeFirstOrThrow();
    expect(
      Date.parse(
        String(touched.last_seen_at instanceof Date ? touched.last_seen_at.toISOString() : touched.last_seen_at),
      ),
    ).toBeGreaterThan(Date.parse(twoMinutesAgo));

    const idle = new Date(Date.now() - (t.config.sessionIdleMinutes + 1) * 60_000).toISOString();
    await t.database.db.updateTable('sessions').set({ last_seen_at: idle }).where('token_hash', '=', hash).execute();
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('answers 401 for a made-up token', async () => {
    expect((await me('pe_session_token=forged')).statusCode).toBe(401);
  });
});
