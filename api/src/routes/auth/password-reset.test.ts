import { createHash } from 'node:crypto';
import net from 'node:net';
import { buildApp } from '../../app';
import { loggerOptions } from '../../logging';
import { savePasswordPolicy } from '../../db/password-policies';
import { createPasswordToken } from '../../db/password-tokens';
import { createSession } from '../../db/sessions';
import { findUserCredentialsById, setUserStatus } from '../../db/users';
import { FORGOT_PASSWORD_LIMITS } from '../../modules/auth/sign-in-limits';
import { createTestApp, inject, type TestApp } from '../../test/app';
import { freezeDate } from '../../test/clock';
import {
  clearOutbox,
  companyId,
  createUserWithPassword,
  lastResetToken,
  postForm,
  readOutbox,
  sessionTokenOf,
} from '../../test/identity';

const PASSWORD = 'Original-Passw0rd!';
const NEW_PASSWORD = 'Chosen-After-Reset-1!';

// argon2 hashes (the production cost) make some of these tests take seconds on a busy machine.
jest.setTimeout(20_000);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.deleteFrom('rate_limits').execute();
  clearOutbox(t);
});

const forgot = (email: string, remoteAddress?: string, headers: Record<string, string> = {}) =>
  postForm(t, '/auth/forgot-password', { email }, headers, remoteAddress);
const me = (cookie: string) => t.inject({ method: 'GET', url: '/api/v1/users/profile/me', headers: { cookie } });
const SENT = 'If an account exists for that email, we sent a link to reset its password.';

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('GET /auth/forgot-password', () => {
  it('asks for the email, says what single sign-on users do, and links back to sign-in', async () => {
    const res = await t.inject({ method: 'GET', url: '/auth/forgot-password' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<label for="email">Email<\/label>/);
    expect(res.body).toMatch(/<input id="email"[^>]* autofocus>/);
    expect(res.body).toMatch(/<button type="submit">Send reset link<\/button>/);
    expect(res.body).toContain('single sign-on');
    expect(res.body).toContain('href="/auth/saml/login"');
    expect(res.body).toContain('role="alert"');
  });
});

describe('POST /auth/forgot-password', () => {
  it('mails a one-time link (256-bit token, stored as its SHA-256) to an existing local user', async () => {
    const user = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'], firstName: 'Ana' });
    const res = await forgot(user.email);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(SENT);
    expect(res.body).toContain('role="status"');

    const mails = readOutbox(t);
    expect(mails).toHaveLength(1);
    expect(mails[0].file).toMatch(/outbox\/\d{4}-\d{2}-\d{2}T[\d-]+Z-[0-9a-f-]{36}\.eml$/);
    expect(mails[0].to).toBe(user.email);
    expect(mails[0].subject).toBe('Reset your Tevora Portal password');
    expect(mails[0].text).toContain('Hello Ana,');
    expect(mails[0].text).toContain('expires in 60 minutes');
    expect(mails[0].text).toMatch(/http:\/\/localhost\/auth\/reset-password\?token=[A-Za-z0-9_-]{43}\b/);
    const token = lastResetToken(t, user.email);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);

    const rows = await t.database.db.selectFrom('password_tokens').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(rows[0].purpose).toBe('reset');
    const ttl =
      Date.parse(String(rows[0].expires_at instanceof Date ? rows[0].expires_at.toISOString() : rows[0].expires_at)) -
      Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
  });

  it('answers unknown and suspended accounts the same, and mails nobody', async () => {
    const known = await createUserWithPassword(t, PASSWORD);
    const suspended = await createUserWithPassword(t, PASSWORD);
    await setUserStatus(t.database.db, suspended.id, 'suspended');
    const knownRes = await forgot(known.email);
    clearOutbox(t);
    for (const email of ['nobody@example.test', suspended.email]) {
      const res = await forgot(email);
      expect(res.statusCode).toBe(knownRes.statusCode);
      // the same page but for the CSP nonce every page has its own of
      const page = (body: string) => body.replace(/nonce="[^"]+"/g, 'nonce');
      expect(page(res.body.replace(email, known.email))).toBe(page(knownRes.body));
    }
    expect(readOutbox(t)).toEqual([]);
  });

  it('sends a single sign-on user a note instead of a link', async () => {
    const user = await createUserWithPassword(t, PASSWORD, { isFederated: true });
    const res = await forgot(user.email);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(SENT);
    const [mail] = readOutbox(t);
    expect(mail.to).toBe(user.email);
    expect(mail.text).toContain("company's single sign-on");
    expect(mail.text).not.toContain('/auth/reset-password');
    expect(
      await t.database.db.selectFrom('password_tokens').select('token_hash').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
  });

  it("builds the link on the portal's one origin, never on a Host the request named", async () => {
    const user = await createUserWithPassword(t, PASSWORD);
    const poisoned = await forgot(user.email, undefined, { host: 'evil.example' });
    expect(poisoned.statusCode).toBe(421);
    expect(readOutbox(t)).toEqual([]);
    await forgot(user.email);
    expect(readOutbox(t)[0].text).toContain(`${t.config.publicUrl}/auth/reset-password?token=`);
  });

  it.each([
    ['', 'Email is required'],
    ['nope', 'Email is not a valid address'],
  ])('answers 400 for %j naming the field: %s', async (email, message) => {
    const res = await forgot(email);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(message);
    expect(res.body).toMatch(/<input id="email"[^>]*aria-invalid="true"/);
  });

  it(`limits each email to ${FORGOT_PASSWORD_LIMITS.email.max} requests per ${FORGOT_PASSWORD_LIMITS.email.windowMinutes} minutes`, async () => {
    const user = await createUserWithPassword(t, PASSWORD);
    for (let i = 0; i < FORGOT_PASSWORD_LIMITS.email.max; i++) {
      expect((await forgot(user.email, `10.1.0.${i + 1}`)).statusCode).toBe(200);
    }
    const res = await forgot(user.email, '10.1.0.99');
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toContain('Too many reset requests');
    expect(readOutbox(t)).toHaveLength(FORGOT_PASSWORD_LIMITS.email.max);
  });

  it(`limits each address to ${FORGOT_PASSWORD_LIMITS.address.max} requests per ${FORGOT_PASSWORD_LIMITS.address.windowMinutes} minutes`, async () => {
    for (let i = 0; i < FORGOT_PASSWORD_LIMITS.address.max; i++) {
      expect((await forgot(`someone${i}@example.test`, '10.2.0.1')).statusCode).toBe(200);
    }
    expect((await forgot('another@example.test', '10.2.0.1')).statusCode).toBe(429);
    expect((await forgot('another@example.test', '10.2.0.2')).statusCode).toBe(200);
  });

  it('says "Unable to Reset Password" when the mail cannot be sent, and withdraws the link', async () => {
    const failing = await createTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`, BRAND_NAME: 'Acme' },
    });
    try {
      const user = await createUserWithPassword(failing, PASSWORD);
      const res = await postForm(failing, '/auth/forgot-password', { email: user.email });
      expect(res.statusCode).toBe(503);
      expect(res.body).toMatch(/role="alert">Unable to Reset Password: Please contact your Acme Portal admin</);
      expect(
        await failing.database.db
          .selectFrom('password_tokens')
          .select('token_hash')
          .where('user_id', '=', user.id)
          .execute(),
      ).toEqual([]);
    } finally {
      await failing.close();
    }
  }, 30_000);
});

describe('/auth/reset-password', () => {
  async function userWithLink(options: Parameters<typeof createUserWithPassword>[2] = {}) {
    const user = await createUserWithPassword(t, PASSWORD, options);
    await forgot(user.email);
    return { ...user, token: lastResetToken(t, user.email) };
  }
  const choose = (token: string, password: string, confirmPassword = password) =>
    postForm(t, '/auth/reset-password', { token, password, confirmPassword });

  it('shows the form for a usable link, with the policy as a hint', async () => {
    const { token } = await userWithLink();
    const res = await t.inject({ method: 'GET', url: `/auth/reset-password?token=${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatch(/<label for="password">New password<\/label>/);
    expect(res.body).toMatch(/<label for="confirmPassword">Confirm new password<\/label>/);
    expect(res.body).toContain('At least 12 characters.');
    expect(res.body).toContain(`name="token" value="${token}"`);
  });

  it.each([
    ['/auth/reset-password', 'no token'],
    ['/auth/reset-password?token=made-up', 'an unknown token'],
  ])('refuses %s (%s) with a way to ask again', async (url) => {
    const res = await t.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/role="alert">This link is invalid, has already been used, or has expired\./);
    expect(res.body).toContain('href="/auth/forgot-password"');
  });

  it('refuses an expired link', async () => {
    const { id, token } = await userWithLink();
    await t.database.db
      .updateTable('password_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', id)
      .execute();
    expect((await t.inject({ method: 'GET', url: `/auth/reset-password?token=${token}` })).statusCode).toBe(400);
    expect((await choose(token, NEW_PASSWORD)).statusCode).toBe(400);
  });

  it('sets the password once: ends every session, kills the other links, signs this browser in', async () => {
    const user = await createUserWithPassword(t, PASSWORD);
    await forgot(user.email);
    const olderToken = lastResetToken(t, user.email);
    await forgot(user.email);
    const token = lastResetToken(t, user.email);
    expect(token).not.toBe(olderToken);
    const before = await Promise.all(
      [1, 2].map(() => createSession(t.database.db, { userId: user.id, userAgent: 'other device', maxHours: 1 })),
    );
    const changedBefore = (await findUserCredentialsById(t.database.db, user.id))!.passwordChangedAt!;

    const res = await choose(token, NEW_PASSWORD);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    const session = sessionTokenOf(res)!;
    expect((await me(`pe_session_token=${session}`)).json().email).toBe(user.email);
    for (const { token: old } of before) expect((await me(`pe_session_token=${old}`)).statusCode).toBe(401);
    expect(
      await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute(),
    ).toHaveLength(1);

    const after = (await findUserCredentialsById(t.database.db, user.id))!;
    expect(Date.parse(after.passwordChangedAt!)).toBeGreaterThanOrEqual(Date.parse(changedBefore));
    // single use, and the older link died with it
    expect((await choose(token, `${NEW_PASSWORD}2`)).statusCode).toBe(400);
    expect((await choose(olderToken, `${NEW_PASSWORD}3`)).statusCode).toBe(400);
    expect((await t.inject({ method: 'GET', url: `/auth/reset-password?token=${olderToken}` })).statusCode).toBe(400);

    const signIn = (password: string) => postForm(t, '/auth/saml/login', { email: user.email, password });
    expect((await signIn(PASSWORD)).statusCode).toBe(401);
    expect((await signIn(NEW_PASSWORD)).statusCode).toBe(303);
  });

  it('clears the failures of the address that set the new password, not those of others', async () => {
    freezeDate();
    try {
      const { email, token } = await userWithLink();
      const signIn = (password: string, remoteAddress: string) =>
        postForm(t, '/auth/saml/login', { email, password }, {}, remoteAddress);
      for (let i = 0; i < 5; i++) {
        expect((await signIn('wrong-password', '10.1.0.1')).statusCode).toBe(401);
        expect((await signIn('wrong-password', '10.1.0.2')).statusCode).toBe(401);
      }
      expect((await signIn(PASSWORD, '10.1.0.1')).statusCode).toBe(429);
      const chosen = await postForm(
        t,
        '/auth/reset-password',
        { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        {},
        '10.1.0.1',
      );
      expect(chosen.statusCode).toBe(303);
      expect((await signIn(NEW_PASSWORD, '10.1.0.1')).statusCode).toBe(303);
      // the other address still waits its second: a new password is no reason to let a guesser go faster
      expect((await signIn(NEW_PASSWORD, '10.1.0.2')).statusCode).toBe(429);
    } finally {
      jest.useRealTimers();
    }
  });

  it("holds the new password to the strictest policy of the user's companies, and to 256 characters", async () => {
    const acme = await companyId(t, 'Acme Corp');
    await savePasswordPolicy(t.database.db, acme, { minimumLength: 16, rotationInDays: 0 });
    try {
      const { token } = await userWithLink({ companies: ['Acme Corp', 'Globex Inc'] });
      const page = await t.inject({ method: 'GET', url: `/auth/reset-password?token=${token}` });
      expect(page.body).toContain('At least 16 characters.');
      const short = await choose(token, 'Fifteen-chars-1');
      expect(short.statusCode).toBe(400);
      expect(short.body).toMatch(/role="alert">Password must be at least 16 characters</);
      expect(short.body).toMatch(/<input id="password"[^>]*aria-invalid="true"/);
      const long = await choose(token, 'x'.repeat(257));
      expect(long.statusCode).toBe(400);
      expect(long.body).toContain('Password must be at most 256 characters');
      // a refused password does not use the link up
      expect((await choose(token, 'Sixteen-chars-12')).statusCode).toBe(303);
    } finally {
      await savePasswordPolicy(t.database.db, acme, { minimumLength: 12, rotationInDays: 0 });
    }
  });

  it('refuses single sign-on users and suspended users', async () => {
    const federated = await createUserWithPassword(t, PASSWORD, { isFederated: true });
    const { token } = await createPasswordToken(t.database.db, {
      userId: federated.id,
      purpose: 'reset',
      ttlMinutes: 60,
    });
    const sso = await t.inject({ method: 'GET', url: `/auth/reset-password?token=${token}` });
    expect(sso.statusCode).toBe(400);
    expect(sso.body).toContain('You sign in with your company&#39;s single sign-on');
    expect((await choose(token, NEW_PASSWORD)).statusCode).toBe(400);

    const { id, token: suspendedToken } = await userWithLink();
    await t.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', id).execute();
    const suspended = await choose(suspendedToken, NEW_PASSWORD);
    expect(suspended.statusCode).toBe(403);
    expect(suspended.body).toContain('The user is inactive.');
  });
});

describe('mail links with PUBLIC_URL', () => {
  it('points the link at PUBLIC_URL whatever the request said', async () => {
    const app = await createTestApp({ env: { PUBLIC_URL: 'https://portal.example.org' } });
    try {
      const user = await createUserWithPassword(app, PASSWORD);
      await postForm(
        app,
        '/auth/forgot-password',
        { email: user.email },
        { host: 'portal.example.org', 'x-forwarded-host': 'evil.example' },
      );
      expect(readOutbox(app)[0].text).toContain('https://portal.example.org/auth/reset-password?token=');
    } finally {
      await app.close();
    }
  }, 30_000);
});

describe('logs', () => {
  it('never hold a reset token from the address', async () => {
    const lines: string[] = [];
    const app = buildApp({
      db: t.database.db,
      config: t.config,
      logger: { ...(loggerOptions('info') as object), stream: { write: (line: string) => lines.push(line) } },
    });
    await app.ready();
    try {
      await inject(app, { method: 'GET', url: '/auth/reset-password?token=SECRET-TOKEN-VALUE&x=1' });
    } finally {
      await app.close();
    }
    const log = lines.join('');
    expect(log).toContain('/auth/reset-password?token=[redacted]&x=1');
    expect(log).not.toContain('SECRET-TOKEN-VALUE');
  });
});
