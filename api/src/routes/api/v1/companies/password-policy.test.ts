import { DEFAULT_PASSWORD_POLICY } from '@portal/shared/core/schemas';
import { passwordPolicyForUser, savePasswordPolicy, strictestPolicy } from '../../../../db/password-policies';
import { findUserById } from '../../../../db/users';
import { isPasswordExpired } from '../../../../lib/passwords';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId, createUserWithPassword } from '../../../../test/identity';

let t: TestApp;
let acmeId: string;
let globexId: string;

beforeAll(async () => {
  t = await createTestApp();
  acmeId = await companyId(t, 'Acme Corp');
  globexId = await companyId(t, 'Globex Inc');
});
afterAll(() => t.close());
afterEach(async () => {
  await t.database.db.deleteFrom('password_policies').execute();
});

const url = (id: string) => `/api/v1/companies/${id}/password-policy`;

describe('GET /api/v1/companies/:id/password-policy', () => {
  it('answers the default (12 characters, no rotation) until the company sets one', async () => {
    // Globex has none in the seed (Acme has one)
    const res = await t.api({ method: 'GET', url: url(globexId), cookie: await t.cookieFor('client@globex.test') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ minimumLength: 12, rotationInDays: 0 });
    expect(DEFAULT_PASSWORD_POLICY).toEqual({ minimumLength: 12, rotationInDays: 0 });
  });

  it('answers what was saved, to any member', async () => {
    await savePasswordPolicy(t.database.db, acmeId, { minimumLength: 20, rotationInDays: 90 });
    const res = await t.api({ method: 'GET', url: url(acmeId), cookie: await t.cookieFor('both@acme.test') });
    expect(res.json()).toEqual({ minimumLength: 20, rotationInDays: 90 });
  });

  it('does not reveal another company', async () => {
    const res = await t.api({ method: 'GET', url: url(acmeId), cookie: await t.cookieFor('client@globex.test') });
    expect(res.statusCode).toBe(404);
  });
});

describe('POST /api/v1/companies/:id/password-policy', () => {
  const post = async (email: string, payload: unknown, id = acmeId) =>
    t.api({ method: 'POST', url: url(id), cookie: await t.cookieFor(email), payload: payload as object });

  it('saves the policy for a company admin and answers it', async () => {
    const res = await post('lead@acme.test', { minimumLength: 16, rotationInDays: 60 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ minimumLength: 16, rotationInDays: 60 });
    const again = await post('lead@acme.test', { minimumLength: 8, rotationInDays: 0 });
    expect(again.json()).toEqual({ minimumLength: 8, rotationInDays: 0 });
    const read = await t.api({ method: 'GET', url: url(acmeId), cookie: await t.cookieFor('member@acme.test') });
    expect(read.json()).toEqual({ minimumLength: 8, rotationInDays: 0 });
  });

  it.each([
    ['admin@demo.test', 200],
    ['consultant@demo.test', 200],
    ['auditor@demo.test', 404],
    ['member@acme.test', 403],
  ])('as %s answers %i', async (email, status) => {
    expect((await post(email, { minimumLength: 12, rotationInDays: 0 })).statusCode).toBe(status);
  });

  it.each([
    [{ minimumLength: 8.5, rotationInDays: 0 }, 'minimumLength', 'minimumLength must be a whole number from 8 to 128'],
    [{ minimumLength: '8', rotationInDays: 0 }, 'minimumLength', 'minimumLength must be a whole number from 8 to 128'],
    [{ minimumLength: 7, rotationInDays: 0 }, 'minimumLength', 'minimumLength must be at least 8'],
    [{ minimumLength: 129, rotationInDays: 0 }, 'minimumLength', 'minimumLength must be at most 128'],
    [{ minimumLength: 12, rotationInDays: -1 }, 'rotationInDays', 'rotationInDays must be at least 0'],
    [{ minimumLength: 12, rotationInDays: 3651 }, 'rotationInDays', 'rotationInDays must be at most 3650'],
    [
      { minimumLength: 12, rotationInDays: 1.5 },
      'rotationInDays',
      'rotationInDays must be a whole number from 0 to 3650',
    ],
    [
      { minimumLength: 12, rotationInDays: '30' },
      'rotationInDays',
      'rotationInDays must be a whole number from 0 to 3650',
    ],
    [{ minimumLength: 12 }, 'rotationInDays', 'rotationInDays is required'],
  ])('refuses %j with 400 naming %s', async (payload, field, message) => {
    const res = await post('lead@acme.test', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', message: `Invalid field: ${field}` });
    expect(res.json().details).toEqual([{ field, message }]);
  });

  it('names both fields when both are missing', async () => {
    const res = await post('lead@acme.test', {});
    expect(res.json().message).toBe('Invalid fields: minimumLength, rotationInDays');
  });
});

describe('the policy that applies to a user', () => {
  const staffPolicy = { minimumLength: 14, rotationInDays: 180 };

  it('is the strictest across their companies: longest minimum, shortest rotation that is on', async () => {
    const both = (await findUserById(
      t.database.db,
      (
        await t.database.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'both@acme.test')
          .executeTakeFirstOrThrow()
      ).id,
    ))!;
    expect(await passwordPolicyForUser(t.database.db, both, staffPolicy)).toEqual(DEFAULT_PASSWORD_POLICY);
    await savePasswordPolicy(t.database.db, acmeId, { minimumLength: 16, rotationInDays: 90 });
    await savePasswordPolicy(t.database.db, globexId, { minimumLength: 10, rotationInDays: 30 });
    expect(await passwordPolicyForUser(t.database.db, both, staffPolicy)).toEqual({
      minimumLength: 16,
      rotationInDays: 30,
    });
    await savePasswordPolicy(t.database.db, globexId, { minimumLength: 10, rotationInDays: 0 });
    expect(await passwordPolicyForUser(t.database.db, both, staffPolicy)).toEqual({
      minimumLength: 16,
      rotationInDays: 90,
    });
  });

  it('counts a company without a policy with the default', async () => {
    await savePasswordPolicy(t.database.db, acmeId, { minimumLength: 8, rotationInDays: 0 });
    const user = await createUserWithPassword(t, 'Whatever-Passw0rd', { companies: ['Acme Corp', 'Globex Inc'] });
    expect(await passwordPolicyForUser(t.database.db, { id: user.id, isTevora: false }, staffPolicy)).toEqual({
      minimumLength: 12,
      rotationInDays: 0,
    });
  });

  it('is the staff policy for staff, and the default for a user of no company', async () => {
    const staff = await createUserWithPassword(t, 'Whatever-Passw0rd', { isTevora: true });
    expect(await passwordPolicyForUser(t.database.db, { id: staff.id, isTevora: true }, staffPolicy)).toEqual(
      staffPolicy,
    );
    const loner = await createUserWithPassword(t, 'Whatever-Passw0rd');
    expect(await passwordPolicyForUser(t.database.db, { id: loner.id, isTevora: false }, staffPolicy)).toEqual(
      DEFAULT_PASSWORD_POLICY,
    );
  });

  it('combines by the strictest rule', () => {
    expect(strictestPolicy([])).toEqual(DEFAULT_PASSWORD_POLICY);
    expect(
      strictestPolicy([
        { minimumLength: 8, rotationInDays: 0 },
        { minimumLength: 20, rotationInDays: 365 },
        { minimumLength: 12, rotationInDays: 45 },
      ]),
    ).toEqual({ minimumLength: 20, rotationInDays: 45 });
  });

  it('expires a password once the rotation has passed since it was set', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const policy = { minimumLength: 12, rotationInDays: 30 };
    expect(isPasswordExpired('2026-05-02T00:00:01Z', policy, now)).toBe(false);
    expect(isPasswordExpired('2026-05-01T23:59:59Z', policy, now)).toBe(true);
    expect(isPasswordExpired(null, policy, now)).toBe(true);
    expect(isPasswordExpired('2000-01-01T00:00:00Z', { minimumLength: 12, rotationInDays: 0 }, now)).toBe(false);
  });
});
