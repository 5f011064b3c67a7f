import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { userSchema } from '@portal/shared/core/schemas';
import { findUserById } from '../../../../db/users';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createUserWithPassword } from '../../../../test/identity';
import { multipart as multipartBody } from '../../../../test/multipart';

const PASSWORD = 'Profile-Passw0rd!';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body as a browser's FormData sends it. */
function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  return multipartBody(Object.entries(fields), files);
}

const avatar = (data: Buffer, filename = 'me.png', contentType = 'image/png'): FilePart => ({
  field: 'avatar',
  filename,
  contentType,
  data,
});

async function newUser(options: Parameters<typeof createUserWithPassword>[2] = {}) {
  const user = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'], title: 'Analyst', ...options });
  return { ...user, cookie: await t.cookieFor(user.email) };
}

function putProfile(cookie: string | undefined, body: ReturnType<typeof multipart> | Record<string, unknown>) {
  if ('payload' in body && Buffer.isBuffer(body.payload)) {
    return t.api({
      method: 'PUT',
      url: '/api/v1/users/profile/me',
      cookie,
      payload: body.payload,
      headers: body.headers as Record<string, string>,
    });
  }
  return t.api({ method: 'PUT', url: '/api/v1/users/profile/me', cookie, payload: body as object });
}

function auditRows(targetId: string, action?: string) {
  let query = t.database.db.selectFrom('audit_log').selectAll().where('target_id', '=', targetId);
  if (action) query = query.where('action', '=', action);
  return query.orderBy('created_at').execute();
}

function storedImages(): string[] {
  const dir = path.join(t.config.dataDir, 'images');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.startsWith('.')) : [];
}

describe('PUT /api/v1/users/profile/me', () => {
  it('updates the profile from JSON, drops server-managed fields and records only the changed fields', async () => {
    const user = await newUser();
    const res = await putProfile(user.cookie, {
      firstName: '  Ada ',
      lastName: 'Lovelace',
      title: 'Analyst',
      primaryPhone: '+1 (555) 010-0000',
      sendDailyEmails: true,
      email: 'evil@example.test',
      isTevora: true,
      admin: { active: true },
      status: 'suspended',
      passwordHash: 'x',
    });
    expect(res.statusCode).toBe(200);
    const body = userSchema.parse(res.json());
    expect(body).toMatchObject({
      id: user.id,
      email: user.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      title: 'Analyst',
      primaryPhone: '+1 (555) 010-0000',
      sendDailyEmails: true,
      isTevora: false,
      admin: { active: false },
      status: 'active',
    });
    const stored = await findUserById(t.database.db, user.id);
    expect(stored).toMatchObject({
      email: user.email,
      isTevora: false,
      isAdmin: false,
      status: 'active',
      firstName: 'Ada',
    });

    const [entry] = await auditRows(user.id, 'profile.update');
    expect(entry).toMatchObject({
      actor_id: user.id,
      actor_email: user.email,
      target_type: 'user',
      target_label: user.email,
    });
    // title did not change: it is not in the record
    expect(JSON.parse(entry.before!)).toEqual({
      firstName: 'Test',
      lastName: expect.stringMatching(/^User /),
      primaryPhone: null,
      sendDailyEmails: false,
    });
    expect(JSON.parse(entry.after!)).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      primaryPhone: '+1 (555) 010-0000',
      sendDailyEmails: true,
    });
    expect(`${entry.before}${entry.after}`).not.toMatch(/password|hash|\$argon/i);
  });

  it('takes multipart fields and an avatar checked by its bytes, then serves it', async () => {
    const user = await newUser();
    const res = await putProfile(
      user.cookie,
      multipart({ firstName: 'Grace', lastName: 'Hopper', title: '', sendDailyEmails: 'true' }, [avatar(PNG)]),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', title: null, sendDailyEmails: true });
    expect(body.avatar).toMatch(new RegExp(`^/api/v1/users/${user.id}/avatar\\?v=[0-9a-f-]{36}$`));

    const image = await t.api({ method: 'GET', url: body.avatar, cookie: user.cookie });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload.equals(PNG)).toBe(true);

    const [entry] = await auditRows(user.id, 'profile.update');
    expect(JSON.parse(entry.after!)).toMatchObject({
      firstName: 'Grace',
      title: null,
      avatar: expect.stringMatching(/\.png$/),
    });
  });

  it('replaces the avatar and deletes the old file once the row is updated', async () => {
    const user = await newUser();
    const first = (await putProfile(user.cookie, multipart({ firstName: 'A', lastName: 'B' }, [avatar(PNG)]))).json();
    const oldKey = (await findUserById(t.database.db, user.id))!.avatar!;
    expect(storedImages()).toContain(oldKey);
    const second = (
      await putProfile(user.cookie, multipart({ firstName: 'A', lastName: 'B' }, [avatar(PNG, 'other.png')]))
    ).json();
    const newKey = (await findUserById(t.database.db, user.id))!.avatar!;
    expect(newKey).not.toBe(oldKey);
    expect(second.avatar).not.toBe(first.avatar);
    expect(storedImages()).toContain(newKey);
    expect(storedImages()).not.toContain(oldKey);
  });

  it('refuses an executable renamed .png (400 naming avatar) and changes nothing', async () => {
    const user = await newUser();
    const before = await findUserById(t.database.db, user.id);
    const images = storedImages();
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(200)]);
    const res = await putProfile(
      user.cookie,
      multipart({ firstName: 'Changed', lastName: 'Name' }, [avatar(exe, 'photo.png', 'image/png')]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'avatar', message: 'avatar must be a PNG, JPEG, GIF or WebP image' }],
    });
    expect(await findUserById(t.database.db, user.id)).toEqual(before);
    expect(storedImages()).toEqual(images);
    expect(await auditRows(user.id)).toHaveLength(0);
  });

  it('refuses a 20 MB avatar (400 naming avatar) and changes nothing', async () => {
    const user = await newUser();
    const before = await findUserById(t.database.db, user.id);
    const huge = Buffer.concat([PNG, Buffer.alloc(20 * 1024 * 1024)]);
    const res = await putProfile(user.cookie, multipart({ firstName: 'Changed', lastName: 'Name' }, [avatar(huge)]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'avatar', message: 'avatar must be at most 2 MB' }],
    });
    expect(await findUserById(t.database.db, user.id)).toEqual(before);
    expect(await auditRows(user.id)).toHaveLength(0);
  });

  it('refuses empty names and a bad phone with the fields named, and stores nothing', async () => {
    const user = await newUser();
    const before = await findUserById(t.database.db, user.id);
    const res = await putProfile(user.cookie, { firstName: '   ', lastName: '', primaryPhone: 'call me' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      message: 'Invalid fields: firstName, lastName, primaryPhone',
    });
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual([
      'firstName',
      'lastName',
      'primaryPhone',
    ]);
    const multi = await putProfile(user.cookie, multipart({ firstName: '', lastName: 'X' }, [avatar(PNG)]));
    expect(multi.statusCode).toBe(400);
    expect(multi.json().details).toEqual([{ field: 'firstName', message: 'firstName is required' }]);
    expect(await findUserById(t.database.db, user.id)).toEqual(before);
    expect(await auditRows(user.id)).toHaveLength(0);
  });

  it('refuses a file field that is not avatar, and a body that is not an object', async () => {
    const user = await newUser();
    const res = await putProfile(
      user.cookie,
      multipart({ firstName: 'A', lastName: 'B' }, [
        { field: 'logo', filename: 'x.png', contentType: 'image/png', data: PNG },
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'logo', message: 'logo is not a file field of this form' }]);
    const array = await t.api({
      method: 'PUT',
      url: '/api/v1/users/profile/me',
      cookie: user.cookie,
      payload: [1, 2] as unknown as object,
    });
    expect(array.statusCode).toBe(400);
    // a multipart content type without its boundary is the caller's malformed body, not a server error
    const noBoundary = await t.api({
      method: 'PUT',
      url: '/api/v1/users/profile/me',
      cookie: user.cookie,
      payload: 'no boundary',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json()).toMatchObject({ code: 'bad_request', message: 'The multipart body is malformed.' });
  });

  it('does not record anything when nothing changed', async () => {
    const user = await newUser();
    const current = (await t.api({ method: 'GET', url: '/api/v1/users/profile/me', cookie: user.cookie })).json();
    const res = await putProfile(user.cookie, {
      firstName: current.firstName,
      lastName: current.lastName,
      title: current.title,
    });
    expect(res.statusCode).toBe(200);
    expect(await auditRows(user.id)).toHaveLength(0);
  });

  it('answers 403 federated_user to a single sign-on user, telling them to use it, and changes nothing', async () => {
    const user = await newUser({ isFederated: true });
    const res = await putProfile(user.cookie, { firstName: 'New', lastName: 'Name' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('federated_user');
    expect(res.json().message).toMatch(/single sign-on/);
    expect((await findUserById(t.database.db, user.id))!.firstName).toBe('Test');
  });

  it('answers 401 without a session', async () => {
    const res = await putProfile(undefined, { firstName: 'A', lastName: 'B' });
    expect(res.statusCode).toBe(401);
  });
});

describe('DELETE /api/v1/users/profile/me/avatar', () => {
  it('removes the avatar and its file, and records it', async () => {
    const user = await newUser();
    await putProfile(user.cookie, multipart({ firstName: 'A', lastName: 'B' }, [avatar(PNG)]));
    const key = (await findUserById(t.database.db, user.id))!.avatar!;
    const res = await t.api({ method: 'DELETE', url: '/api/v1/users/profile/me/avatar', cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().avatar).toBeNull();
    expect((await findUserById(t.database.db, user.id))!.avatar).toBeNull();
    expect(storedImages()).not.toContain(key);
    const entries = await auditRows(user.id, 'profile.update');
    expect(JSON.parse(entries[entries.length - 1].after!)).toEqual({ avatar: null });
    expect(
      (await t.api({ method: 'GET', url: `/api/v1/users/${user.id}/avatar`, cookie: user.cookie })).statusCode,
    ).toBe(404);
  });

  it('answers 401 without a session', async () => {
    expect((await t.api({ method: 'DELETE', url: '/api/v1/users/profile/me/avatar' })).statusCode).toBe(401);
  });
});

describe('GET /api/v1/users/:id/avatar', () => {
  it('serves the avatar to the user, to members of a shared company and to staff only', async () => {
    const user = await newUser();
    await putProfile(user.cookie, multipart({ firstName: 'A', lastName: 'B' }, [avatar(PNG)]));
    const url = `/api/v1/users/${user.id}/avatar`;
    for (const email of ['member@acme.test', 'consultant@demo.test', 'auditor@demo.test']) {
      const res = await t.api({ method: 'GET', url, cookie: await t.cookieFor(email) });
      expect({ email, status: res.statusCode }).toEqual({ email, status: 200 });
    }
    const outsider = await t.api({ method: 'GET', url, cookie: await t.cookieFor('client@globex.test') });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().code).toBe('user_not_found');
    const unknown = await t.api({
      method: 'GET',
      url: `/api/v1/users/${randomUUID()}/avatar`,
      cookie: await t.cookieFor('consultant@demo.test'),
    });
    expect(unknown.json().code).toBe('user_not_found');
    expect((await t.api({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('hides the avatar from a member whose own access to the shared company was revoked', async () => {
    const user = await newUser();
    await putProfile(user.cookie, multipart({ firstName: 'A', lastName: 'B' }, [avatar(PNG)]));
    const viewer = await newUser();
    const url = `/api/v1/users/${user.id}/avatar`;
    expect((await t.api({ method: 'GET', url, cookie: viewer.cookie })).statusCode).toBe(200);
    await t.database.db
      .updateTable('company_memberships')
      .set({ access_revoked_at: new Date().toISOString() })
      .where('user_id', '=', viewer.id)
      .execute();
    expect((await t.api({ method: 'GET', url, cookie: viewer.cookie })).statusCode).toBe(404);
  });
});
