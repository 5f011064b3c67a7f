import net from 'node:net';
import { resetPasswordFailure, toastForError } from '@portal/shared/core/errors';
import { createSession } from '../../../../db/sessions';
import { findUserById, suspendUser } from '../../../../db/users';
import { createTestApp, type TestApp } from '../../../../test/app';
import { freezeDate } from '../../../../test/clock';
import {
  clearOutbox,
  createUserWithPassword,
  lastResetToken,
  postForm,
  readOutbox,
  sessionTokenOf,
} from '../../../../test/identity';

const PASSWORD = 'Original-Passw0rd!';
const NEW_PASSWORD = 'Changed-Passw0rd-2!';

// argon2 hashes (the production cost) make some of these tests take seconds on a busy machine.
jest.setTimeout(20_000);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.deleteFrom('rate_limits').execute();
  clearOutbox(t);
});

async function signedIn(user: { id: string }): Promise<string> {
  const { token } = await createSession(t.database.db, { userId: user.id, userAgent: 'jest', maxHours: 1 });
  return `pe_session_token=${token}`;
}
const me = (cookie: string) => t.api({ method: 'GET', url: '/api/v1/users/profile/me', cookie });

describe('POST /api/v1/users/profile/me/password', () => {
  const change = (cookie: string, payload: unknown) =>
    t.api({ method: 'POST', url: '/api/v1/users/profile/me/password', cookie, payload: payload as object });

  it('changes the password: 204, every session ends, this browser gets a new one', async () => {
    const user = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'] });
    const cookie = await signedIn(user);
    const otherDevice = await signedIn(user);
    const res = await change(cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(204);
    const renewed = sessionTokenOf(res);
    expect(renewed).not.toBeNull();
    expect(`pe_session_token=${renewed}`).not.toBe(cookie);
    expect((await me(cookie)).statusCode).toBe(401);
    expect((await me(otherDevice)).statusCode).toBe(401);
    expect((await me(`pe_session_token=${renewed}`)).statusCode).toBe(200);

    expect((await postForm(t, '/auth/saml/login', { email: user.email, password: PASSWORD })).statusCode).toBe(401);
    expect((await postForm(t, '/auth/saml/login', { email: user.email, password: NEW_PASSWORD })).statusCode).toBe(303);
  });

  it('answers 400 validation_failed naming missing fields', async () => {
    const cookie = await signedIn(await createUserWithPassword(t, PASSWORD));
    const res = await change(cookie, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      message: 'Invalid fields: currentPassword, newPassword',
    });
    expect(res.json().details).toEqual([
      { field: 'currentPassword', message: 'currentPassword is required' },
      { field: 'newPassword', message: 'newPassword is required' },
    ]);
  });

  it('refuses a wrong current password with current_password_incorrect (400, not 401: the user stays signed in)', async () => {
    const cookie = await signedIn(await createUserWithPassword(t, PASSWORD));
    const res = await change(cookie, { currentPassword: 'not-it', newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'current_password_incorrect',
      message: 'The current password is not correct.',
      details: [{ field: 'currentPassword', message: 'The current password is not correct.' }],
    });
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('makes the address wait after five wrong current passwords, then takes the right one', async () => {
    const clock = freezeDate();
    try {
      const cookie = await signedIn(await createUserWithPassword(t, PASSWORD));
      for (let i = 0; i < 5; i++) {
        expect((await change(cookie, { currentPassword: 'not-it', newPassword: NEW_PASSWORD })).statusCode).toBe(400);
      }
      const res = await change(cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({
        code: 'too_many_requests',
        message: 'Too many wrong passwords: please wait 1 second and try again.',
      });
      expect(Number(res.headers['retry-after'])).toBe(1);
      clock.advance(1000);
      expect((await change(cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).statusCode).toBe(204);
    } finally {
      jest.useRealTimers();
    }
  });

  it.each([
    [
      'too short for the policy',
      'Short-Pw1!',
      'newPassword must be at least 12 characters',
      'newPassword must be at least 12 characters',
    ],
    [
      'over 256 characters',
      'x'.repeat(257),
      'Invalid field: newPassword',
      'newPassword must be at most 256 characters',
    ],
    [
      'the current one',
      PASSWORD,
      'newPassword must be different from the current password',
      'newPassword must be different from the current password',
    ],
  ])('refuses a new password %s', async (_case, newPassword, message, detail) => {
    const cookie = await signedIn(await createUserWithPassword(t, PASSWORD));
    const res = await change(cookie, { currentPassword: PASSWORD, newPassword });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      message,
      details: [{ field: 'newPassword', message: detail }],
    });
  });

  it('refuses single sign-on users with federated_user', async () => {
    const cookie = await signedIn(await createUserWithPassword(t, PASSWORD, { isFederated: true }));
    const res = await change(cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('federated_user');
    expect(res.json().message).toMatch(/single sign-on/);
  });

  it('needs the client header (CSRF)', async () => {
    const cookie = await signedIn(await createUserWithPassword(t, PASSWORD));
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/users/profile/me/password',
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD }),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf_rejected');
  });
});

describe('POST /api/v1/users/:id/reset-password', () => {
  const reset = async (asEmail: string, userId: string) =>
    t.api({ method: 'POST', url: `/api/v1/users/${userId}/reset-password`, cookie: await t.cookieFor(asEmail) });

  it('lets a company admin mail a user of the company a one-time link that works', async () => {
    const user = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'], firstName: 'Rita' });
    const res = await reset('lead@acme.test', user.id);
    expect(res.statusCode).toBe(204);
    const [mail] = readOutbox(t);
    expect(mail.to).toBe(user.email);
    expect(mail.text).toContain('An administrator of the Tevora Portal asked for your password to be reset.');
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('target_id', '=', user.id).execute();
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'user.passwordReset',
        actor_email: 'lead@acme.test',
        target_label: user.email,
      }),
    ]);
    const token = lastResetToken(t, user.email);
    const done = await postForm(t, '/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(done.statusCode).toBe(303);
    expect((await postForm(t, '/auth/saml/login', { email: user.email, password: NEW_PASSWORD })).statusCode).toBe(303);
  });

  it.each([
    ['admin@demo.test', 204],
    ['consultant@demo.test', 204],
    ['auditor@demo.test', 403],
    ['member@acme.test', 403],
    ['client@globex.test', 404],
  ])('as %s answers %i', async (asEmail, status) => {
    const user = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'] });
    expect((await reset(asEmail, user.id)).statusCode).toBe(status);
  });

  it('refuses single sign-on users and suspended users with a clear message', async () => {
    const federated = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'], isFederated: true });
    const sso = await reset('lead@acme.test', federated.id);
    expect(sso.statusCode).toBe(400);
    expect(sso.json()).toMatchObject({ code: 'federated_user' });
    expect(sso.json().message).toMatch(/single sign-on/);

    const suspended = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'] });
    await suspendUser(t.database.db, suspended.id);
    const inactive = await reset('lead@acme.test', suspended.id);
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().code).toBe('user_is_inactive');
    expect(readOutbox(t)).toEqual([]);
  });

  it('answers reset_password_failed when the mail cannot be sent, which the web shows as "Unable to Reset Password"', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = server.address() as net.AddressInfo;
        server.close(() => resolve(p));
      });
    });
    const failing = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, BRAND_NAME: 'Acme' } });
    try {
      const user = await createUserWithPassword(failing, PASSWORD, { companies: ['Acme Corp'] });
      const res = await failing.api({
        method: 'POST',
        url: `/api/v1/users/${user.id}/reset-password`,
        cookie: await failing.cookieFor('lead@acme.test'),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'reset_password_failed', message: resetPasswordFailure('Acme') });
      expect(toastForError({ status: res.statusCode, body: res.json(), brand: 'Acme' })).toEqual({
        severity: 'error',
        summary: 'Unable to Reset Password',
        detail: 'Please contact your Acme Portal admin',
      });
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

describe('suspending and unsuspending', () => {
  it('suspending a user ends all their sessions at once', async () => {
    const user = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'] });
    const sessions = [await signedIn(user), await signedIn(user)];
    await suspendUser(t.database.db, user.id);
    expect(await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual(
      [],
    );
    for (const cookie of sessions) expect((await me(cookie)).statusCode).toBe(401);
  });

  it('POST /api/v1/users/:id/unsuspend lets the user sign in again', async () => {
    const user = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'] });
    await suspendUser(t.database.db, user.id);
    expect((await postForm(t, '/auth/saml/login', { email: user.email, password: PASSWORD })).statusCode).toBe(403);

    const refused = await t.api({
      method: 'POST',
      url: `/api/v1/users/${user.id}/unsuspend`,
      cookie: await t.cookieFor('member@acme.test'),
    });
    expect(refused.statusCode).toBe(403);
    const res = await t.api({
      method: 'POST',
      url: `/api/v1/users/${user.id}/unsuspend`,
      cookie: await t.cookieFor('lead@acme.test'),
    });
    expect(res.statusCode).toBe(204);
    expect((await findUserById(t.database.db, user.id))!.status).toBe('active');
    expect((await postForm(t, '/auth/saml/login', { email: user.email, password: PASSWORD })).statusCode).toBe(303);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('target_id', '=', user.id).execute();
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'user.unsuspend',
        before: '{"status":"suspended"}',
        after: '{"status":"active"}',
      }),
    ]);
    // unsuspending an active user changes nothing and records nothing
    expect(
      (
        await t.api({
          method: 'POST',
          url: `/api/v1/users/${user.id}/unsuspend`,
          cookie: await t.cookieFor('lead@acme.test'),
        })
      ).statusCode,
    ).toBe(204);
    expect(
      await t.database.db.selectFrom('audit_log').select('id').where('target_id', '=', user.id).execute(),
    ).toHaveLength(1);
  });
});
