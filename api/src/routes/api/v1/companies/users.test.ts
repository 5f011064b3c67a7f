import { MODULES } from '@portal/shared/core/modules';
import {
  companyUser as companyUserSchema,
  userModulesAccess as userModulesAccessSchema,
} from '@portal/shared/core/companies/results';
import { addCompanyMember, insertCompany } from '../../../../db/companies';
import { saveIdentityProvider } from '../../../../db/identity-providers';
import { setUserModuleAccess } from '../../../../db/module-access';
import { addProjectMember, insertProject } from '../../../../db/projects';
import { addTeamMember, insertTeam } from '../../../../db/teams';
import { createTestApp, type TestApp } from '../../../../test/app';
import {
  clearOutbox,
  companyId,
  createUserWithPassword,
  lastResetToken,
  postForm,
  readOutbox,
} from '../../../../test/identity';

const PASSWORD = 'Company-Passw0rd!';

let t: TestApp;
let acmeId: string;
let globexId: string;

beforeAll(async () => {
  t = await createTestApp();
  acmeId = await companyId(t, 'Acme Corp');
  globexId = await companyId(t, 'Globex Inc');
});
afterAll(() => t.close());
beforeEach(() => clearOutbox(t));

const userId = (email: string) =>
  t.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

let companies = 0;
/** A company of its own for a test that changes things: an admin (signed in) and two members. */
async function setupCompany() {
  companies += 1;
  const name = `Company ${companies} ${Date.now()}`;
  const id = await insertCompany(t.database.db, {
    name,
    modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: false },
  });
  const email = (local: string) => `${local}.${companies}.${Date.now()}@example.test`;
  // e-mails sort otherwise than names: bob, Ann, Alice
  const admin = await createUserWithPassword(t, PASSWORD, {
    email: email('mm-ann'),
    firstName: 'Ann',
    lastName: 'Admin',
    companies: [name],
    companyRole: 'admin',
  });
  const alice = await createUserWithPassword(t, PASSWORD, {
    email: email('zz-alice'),
    firstName: 'Alice',
    lastName: 'Zed',
    companies: [name],
  });
  const bob = await createUserWithPassword(t, PASSWORD, {
    email: email('aa-bob'),
    firstName: 'bob',
    lastName: 'Young',
    companies: [name],
  });
  return { id, name, admin, alice, bob, cookie: await t.cookieFor(admin.email) };
}

function auditRows(action: string, targetId?: string) {
  let query = t.database.db.selectFrom('audit_log').selectAll().where('action', '=', action);
  if (targetId) query = query.where('target_id', '=', targetId);
  return query.orderBy('created_at').execute();
}

const list = async (cookie: string | undefined, company: string, query = '') =>
  t.api({ method: 'GET', url: `/api/v1/companies/${company}/users${query}`, cookie });

describe('GET /api/v1/companies/:id/users', () => {
  it('lists the members in the CompanyUser shape, with their teams', async () => {
    const res = await list(await t.cookieFor('lead@acme.test'), acmeId, '?ignorePagination=true');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, pageSize: body.total });
    const users = body.results.map((u: unknown) => companyUserSchema.parse(u));
    expect(users).toHaveLength(body.total);
    const emails = users.map((u: { email: string }) => u.email);
    expect(emails).toEqual(expect.arrayContaining(['both@acme.test', 'lead@acme.test', 'member@acme.test']));
    expect(emails).not.toContain('client@globex.test');
    expect(users.find((u: { email: string }) => u.email === 'lead@acme.test')).toMatchObject({
      firstName: 'Laura',
      lastName: 'Chen',
      role: 'admin',
      status: 'active',
      invited: false,
      accessRevoked: false,
      isFederated: false,
      teams: [{ name: 'Compliance Team' }],
    });
    expect(JSON.stringify(body)).not.toMatch(/password|hash/i);
  });

  it('sorts, searches, filters by role and pages in SQL', async () => {
    const c = await setupCompany();
    const db = t.database.db;
    const team = await insertTeam(db, c.id, 'Blue');
    const other = await insertTeam(db, c.id, 'Amber');
    await addTeamMember(db, team, c.alice.id);
    await addTeamMember(db, other, c.alice.id);
    await addTeamMember(db, team, c.bob.id);
    const cookie = await t.cookieFor(c.alice.email);
    const names = async (query: string) =>
      (await list(cookie, c.id, query)).json().results.map((u: { firstName: string }) => u.firstName);
    // by first then last name, whatever the case
    expect(await names('')).toEqual(['Alice', 'Ann', 'bob']);
    expect(await names('?sort=-name')).toEqual(['bob', 'Ann', 'Alice']);
    expect(await names('?sort=email')).toEqual(['bob', 'Ann', 'Alice']);
    expect(await names('?sort=-email')).toEqual(['Alice', 'Ann', 'bob']);
    expect(await names('?search=ZED')).toEqual(['Alice']);
    expect(await names('?search=bob%20young')).toEqual(['bob']);
    expect(await names('?search=AA-BOB.')).toEqual(['bob']);
    expect(await names('?search=%25')).toEqual([]);
    expect(await names('?search=_')).toEqual([]);
    expect(await names('?role=admin')).toEqual(['Ann']);
    expect(await names('?role=member')).toEqual(['Alice', 'bob']);
    const page2 = (await list(cookie, c.id, '?pageSize=2&page=2')).json();
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.results.map((u: { firstName: string }) => u.firstName)).toEqual(['bob']);
    expect(page2.results[0].teams).toEqual([{ id: team, name: 'Blue' }]);
    const all = (await list(cookie, c.id, '?ignorePagination=true&pageSize=1')).json();
    expect(all).toMatchObject({ total: 3, page: 1, pageSize: 3 });
    expect(all.results.map((u: { teams: { name: string }[] }) => u.teams.map((x) => x.name))).toEqual([
      ['Amber', 'Blue'],
      [],
      ['Blue'],
    ]);
  });

  it('filters by status (active, suspended, invited, revoked) and sorts by last sign-in with never last', async () => {
    const c = await setupCompany();
    const db = t.database.db;
    await db
      .updateTable('users')
      .set({ last_sign_in_at: '2026-01-02T00:00:00.000Z' })
      .where('id', '=', c.alice.id)
      .execute();
    await db
      .updateTable('users')
      .set({ last_sign_in_at: '2026-03-01T00:00:00.000Z' })
      .where('id', '=', c.admin.id)
      .execute();
    await db.updateTable('users').set({ status: 'suspended' }).where('id', '=', c.bob.id).execute();
    const invited = await createUserWithPassword(t, PASSWORD, {
      firstName: 'Ivy',
      lastName: 'Invited',
      companies: [c.name],
    });
    await db.updateTable('users').set({ password_hash: null }).where('id', '=', invited.id).execute();
    const revoked = await createUserWithPassword(t, PASSWORD, {
      firstName: 'Rex',
      lastName: 'Revoked',
      companies: [c.name],
    });
    await db
      .updateTable('company_memberships')
      .set({ access_revoked_at: new Date().toISOString() })
      .where('user_id', '=', revoked.id)
      .execute();

    const ids = async (query: string) =>
      (await list(c.cookie, c.id, query)).json().results.map((u: { id: string }) => u.id);
    expect(await ids('?status=active')).toEqual([c.alice.id, c.admin.id]);
    expect(await ids('?status=suspended')).toEqual([c.bob.id]);
    expect(await ids('?status=invited')).toEqual([invited.id]);
    expect(await ids('?status=revoked')).toEqual([revoked.id]);
    const byName = (await list(c.cookie, c.id)).json().results;
    expect(byName.map((u: { firstName: string }) => u.firstName)).toEqual(['Alice', 'Ann', 'bob', 'Ivy', 'Rex']);
    expect(byName.find((u: { id: string }) => u.id === invited.id)).toMatchObject({ invited: true, status: 'active' });
    expect(byName.find((u: { id: string }) => u.id === revoked.id)).toMatchObject({ accessRevoked: true });
    expect(byName.find((u: { id: string }) => u.id === c.bob.id)).toMatchObject({ status: 'suspended' });
    const recent = await ids('?sort=-lastSignInAt');
    expect(recent.slice(0, 2)).toEqual([c.admin.id, c.alice.id]);
    const oldest = await ids('?sort=lastSignInAt');
    expect(oldest.slice(0, 2)).toEqual([c.alice.id, c.admin.id]);
    expect(oldest).toHaveLength(5);
  });

  it('refuses bad query parameters with 400 naming them', async () => {
    const cookie = await t.cookieFor('lead@acme.test');
    for (const [query, field] of [
      ['?pageSize=0', 'pageSize'],
      ['?pageSize=201', 'pageSize'],
      ['?page=abc', 'page'],
      ['?status=gone', 'status'],
      ['?role=owner', 'role'],
      ['?sort=password', 'sort'],
      ['?ignorePagination=yes', 'ignorePagination'],
    ]) {
      const res = await list(cookie, acmeId, query);
      expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
      expect(res.json()).toMatchObject({ code: 'validation_failed', message: `Invalid query parameter: ${field}` });
    }
  });

  it('answers 404 to another company, 401 to anonymous callers, 200 to staff', async () => {
    const outsider = await list(await t.cookieFor('client@globex.test'), acmeId);
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().code).toBe('company_not_found');
    expect((await list(undefined, acmeId)).statusCode).toBe(401);
    expect((await list(await t.cookieFor('consultant@demo.test'), acmeId)).statusCode).toBe(200);
  });
});

describe('POST /api/v1/companies/:id/users', () => {
  const invite = (cookie: string | undefined, company: string, payload: object) =>
    t.api({ method: 'POST', url: `/api/v1/companies/${company}/users`, cookie, payload });

  it('creates the user and membership, mails a set-password link the reset page accepts, and records it', async () => {
    const c = await setupCompany();
    const email = `new.person.${Date.now()}@example.test`;
    const res = await invite(c.cookie, c.id, {
      email: `  ${email.toUpperCase()} `,
      firstName: 'New',
      lastName: 'Person',
      title: 'Auditor',
      role: 'admin',
      status: 'suspended',
    });
    expect(res.statusCode).toBe(201);
    const created = companyUserSchema.parse(res.json());
    expect(created).toMatchObject({
      email,
      firstName: 'New',
      lastName: 'Person',
      title: 'Auditor',
      role: 'admin',
      status: 'active',
      invited: true,
      isFederated: false,
      accessRevoked: false,
      teams: [],
    });

    const token = await t.database.db
      .selectFrom('password_tokens')
      .selectAll()
      .where('user_id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(token.purpose).toBe('invite');
    const ttlDays = (Date.parse(String(new Date(token.expires_at).toISOString())) - Date.now()) / 86_400_000;
    expect(ttlDays).toBeGreaterThan(6.9);
    expect(ttlDays).toBeLessThanOrEqual(7);

    const [mail] = readOutbox(t);
    expect(mail.to).toContain(email);
    expect(mail.text).toContain(c.name);
    const link = lastResetToken(t, email);
    const page = await t.inject({ method: 'GET', url: `/auth/reset-password?token=${link}` });
    expect(page.statusCode).toBe(200);
    const chosen = 'Chosen-Passw0rd-9!';
    const set = await postForm(t, '/auth/reset-password', { token: link, password: chosen, confirmPassword: chosen });
    expect(set.statusCode).toBe(303);
    const after = (await list(c.cookie, c.id, `?search=${encodeURIComponent(email)}`)).json().results[0];
    expect(after).toMatchObject({ invited: false });

    const [entry] = await auditRows('user.invite', created.id);
    expect(entry).toMatchObject({ actor_id: c.admin.id, company_id: c.id, target_label: email });
    expect(JSON.parse(entry.after!)).toMatchObject({ email, role: 'admin', isFederated: false });
  });

  it('invites into a company with an identity provider as a federated user, with a single sign-on note and no link', async () => {
    const c = await setupCompany();
    await saveIdentityProvider(t.database.db, {
      companyId: c.id,
      entityId: 'https://idp.example.test',
      ssoUrl: 'https://idp.example.test/sso',
      certificate: 'x',
      sloUrl: null,
    });
    const domain = `sso${Date.now()}.test`;
    const staff = await t.cookieFor('admin@demo.test');
    const added = await t.api({
      method: 'POST',
      url: `/api/v1/companies/${c.id}/domains`,
      cookie: staff,
      payload: { domain },
    });
    expect(
      (
        await t.api({
          method: 'POST',
          url: `/api/v1/companies/${c.id}/domains/${added.json().id}/confirm`,
          cookie: staff,
        })
      ).statusCode,
    ).toBe(200);

    // an email of a domain the company has not verified: a password invitation, as without single sign-on
    const outside = await invite(c.cookie, c.id, {
      email: `guest.${Date.now()}@elsewhere.test`,
      firstName: 'Guest',
      lastName: 'User',
    });
    expect(outside.statusCode).toBe(201);
    expect(outside.json()).toMatchObject({ isFederated: false });
    expect(readOutbox(t)[0].text).toMatch(/reset-password\?token=/);
    clearOutbox(t);

    const email = `sso.${Date.now()}@${domain}`;
    const res = await invite(c.cookie, c.id, { email, firstName: 'Sso', lastName: 'User' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ isFederated: true, invited: true, role: 'member' });
    const user = await t.database.db
      .selectFrom('users')
      .select(['is_federated', 'password_hash'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(Boolean(user.is_federated)).toBe(true);
    expect(user.password_hash).toBeNull();
    expect(
      await t.database.db
        .selectFrom('password_tokens')
        .select('user_id')
        .where('user_id', '=', res.json().id)
        .execute(),
    ).toHaveLength(0);
    const [mail] = readOutbox(t);
    expect(mail.to).toContain(email);
    expect(mail.text).toMatch(/single sign-on/);
    expect(mail.text).not.toMatch(/reset-password/);
  });

  it('answers 409 email_already_taken (field email) for any existing account, whatever its case, and changes nothing', async () => {
    const c = await setupCompany();
    const users = async () => (await t.database.db.selectFrom('users').select('id').execute()).length;
    const count = await users();
    for (const email of ['MEMBER@acme.test', 'admin@demo.test', c.alice.email]) {
      const res = await invite(c.cookie, c.id, { email, firstName: 'Dup', lastName: 'Licate' });
      expect({ email, status: res.statusCode }).toEqual({ email, status: 409 });
      expect(res.json()).toMatchObject({
        code: 'email_already_taken',
        details: [{ field: 'email', message: 'Email address already in use.' }],
      });
    }
    expect(await users()).toBe(count);
    expect(readOutbox(t)).toHaveLength(0);
    expect((await list(c.cookie, c.id)).json().total).toBe(3);
    expect(await auditRows('user.invite')).not.toContainEqual(expect.objectContaining({ company_id: c.id }));
  });

  it('refuses bad input with the fields named and stores nothing', async () => {
    const c = await setupCompany();
    const users = async () => (await t.database.db.selectFrom('users').select('id').execute()).length;
    const count = await users();
    const res = await invite(c.cookie, c.id, { email: 'not-an-email', firstName: ' ', lastName: '', role: 'owner' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      message: 'Invalid fields: email, firstName, lastName, role',
    });
    const missing = await invite(c.cookie, c.id, {});
    expect(missing.json().details.map((d: { field: string }) => d.field)).toEqual(['email', 'firstName', 'lastName']);
    expect(await users()).toBe(count);
    expect(readOutbox(t)).toHaveLength(0);
  });

  it('lets staff invite; answers 403 to a member without the permission, 404 to another company, 401 anonymous', async () => {
    const email = `staff.invited.${Date.now()}@example.test`;
    const c = await setupCompany();
    expect(
      (await invite(await t.cookieFor('consultant@demo.test'), c.id, { email, firstName: 'By', lastName: 'Staff' }))
        .statusCode,
    ).toBe(201);
    const payload = { email: `x.${Date.now()}@example.test`, firstName: 'X', lastName: 'Y' };
    expect((await invite(await t.cookieFor('member@acme.test'), acmeId, payload)).statusCode).toBe(403);
    expect((await invite(await t.cookieFor('auditor@demo.test'), globexId, payload)).statusCode).toBe(403);
    const outsider = await invite(await t.cookieFor('client@globex.test'), acmeId, payload);
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().code).toBe('company_not_found');
    expect((await invite(undefined, acmeId, payload)).statusCode).toBe(401);
    expect(
      await t.database.db.selectFrom('users').select('id').where('email', '=', payload.email).execute(),
    ).toHaveLength(0);
  });
});

describe('PATCH /api/v1/companies/:id/users/:userId/role', () => {
  const setRole = (cookie: string | undefined, company: string, user: string, payload: object) =>
    t.api({ method: 'PATCH', url: `/api/v1/companies/${company}/users/${user}/role`, cookie, payload });

  it('changes the role and records it', async () => {
    const c = await setupCompany();
    const res = await setRole(c.cookie, c.id, c.alice.id, { role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(companyUserSchema.parse(res.json())).toMatchObject({ id: c.alice.id, role: 'admin' });
    const [entry] = await auditRows('user.role.update', c.alice.id);
    expect(entry).toMatchObject({ company_id: c.id, actor_id: c.admin.id });
    expect(JSON.parse(entry.before!)).toEqual({ role: 'member' });
    expect(JSON.parse(entry.after!)).toEqual({ role: 'admin' });
  });

  it('refuses a caller changing their own role, a bad role, and a user of another company', async () => {
    const c = await setupCompany();
    const self = await setRole(c.cookie, c.id, c.admin.id, { role: 'member' });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/your own role/);
    const bad = await setRole(c.cookie, c.id, c.alice.id, { role: 'owner' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ field: 'role', message: 'role must be admin or member' }]);
    const foreign = await setRole(c.cookie, c.id, await userId('member@acme.test'), { role: 'admin' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('user_not_found');
    const roles = await t.database.db
      .selectFrom('company_memberships')
      .select(['user_id', 'role'])
      .where('company_id', '=', c.id)
      .execute();
    expect(roles.find((r) => r.user_id === c.admin.id)?.role).toBe('admin');
    expect(roles.find((r) => r.user_id === c.alice.id)?.role).toBe('member');
    expect(await auditRows('user.role.update', c.alice.id)).toHaveLength(0);
  });

  it('answers 403 to a member without the permission, 404 to another company', async () => {
    const memberId = await userId('both@acme.test');
    expect((await setRole(await t.cookieFor('member@acme.test'), acmeId, memberId, { role: 'admin' })).statusCode).toBe(
      403,
    );
    expect(
      (await setRole(await t.cookieFor('client@globex.test'), acmeId, memberId, { role: 'admin' })).statusCode,
    ).toBe(404);
    expect((await setRole(undefined, acmeId, memberId, { role: 'admin' })).statusCode).toBe(401);
  });
});

describe('revoke-access and restore-access', () => {
  it('revokes: the member stays listed, no longer sees the company, keeps their session; restore undoes it', async () => {
    const c = await setupCompany();
    const aliceCookie = await t.cookieFor(c.alice.email);
    const company = () => t.api({ method: 'GET', url: `/api/v1/companies/${c.id}`, cookie: aliceCookie });
    expect((await company()).statusCode).toBe(200);

    const res = await t.api({
      method: 'DELETE',
      url: `/api/v1/companies/${c.id}/users/${c.alice.id}/revoke-access`,
      cookie: c.cookie,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: c.alice.id, accessRevoked: true });
    expect((await company()).statusCode).toBe(404);
    expect((await t.api({ method: 'GET', url: '/api/v1/users/profile/me', cookie: aliceCookie })).statusCode).toBe(200);
    expect((await list(c.cookie, c.id, '?status=revoked')).json().results.map((u: { id: string }) => u.id)).toEqual([
      c.alice.id,
    ]);
    const [revoked] = await auditRows('user.access.revoke', c.alice.id);
    expect(revoked).toMatchObject({ company_id: c.id });
    expect(JSON.parse(revoked.after!)).toEqual({ accessRevoked: true });

    const restore = await t.api({
      method: 'POST',
      url: `/api/v1/companies/${c.id}/users/${c.alice.id}/restore-access`,
      cookie: c.cookie,
    });
    expect(restore.statusCode).toBe(200);
    expect(restore.json()).toMatchObject({ accessRevoked: false });
    expect((await company()).statusCode).toBe(200);
    expect(await auditRows('user.access.restore', c.alice.id)).toHaveLength(1);
  });

  it('refuses revoking oneself and users who are not members', async () => {
    const c = await setupCompany();
    const self = await t.api({
      method: 'DELETE',
      url: `/api/v1/companies/${c.id}/users/${c.admin.id}/revoke-access`,
      cookie: c.cookie,
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/your own access/);
    const foreign = await t.api({
      method: 'DELETE',
      url: `/api/v1/companies/${c.id}/users/${await userId('lead@acme.test')}/revoke-access`,
      cookie: c.cookie,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('user_not_found');
    const revoked = await t.database.db
      .selectFrom('company_memberships')
      .select('user_id')
      .where('company_id', '=', c.id)
      .where('access_revoked_at', 'is not', null)
      .execute();
    expect(revoked).toHaveLength(0);
  });

  it('answers 403 to a member without the permission', async () => {
    const target = await userId('both@acme.test');
    const cookie = await t.cookieFor('member@acme.test');
    expect(
      (await t.api({ method: 'DELETE', url: `/api/v1/companies/${acmeId}/users/${target}/revoke-access`, cookie }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.api({ method: 'POST', url: `/api/v1/companies/${acmeId}/users/${target}/restore-access`, cookie }))
        .statusCode,
    ).toBe(403);
  });
});

describe('DELETE /api/v1/companies/:id/users/:userId', () => {
  const remove = (cookie: string | undefined, company: string, user: string) =>
    t.api({ method: 'DELETE', url: `/api/v1/companies/${company}/users/${user}`, cookie });

  it("removes the membership, the company's teams, module values and project roles, and nothing elsewhere", async () => {
    const c = await setupCompany();
    const db = t.database.db;
    // bob also works for Globex: what he has there stays
    await addCompanyMember(db, globexId, c.bob.id, 'member');
    const globexTeam = (
      await db.selectFrom('teams').select('id').where('company_id', '=', globexId).executeTakeFirstOrThrow()
    ).id;
    await addTeamMember(db, globexTeam, c.bob.id);
    await setUserModuleAccess(db, globexId, c.bob.id, 'risks', false);
    const globexProject = await insertProject(db, {
      companyId: globexId,
      title: `Globex project ${Date.now()}`,
      status: 'active',
    });
    await addProjectMember(db, globexProject, c.bob.id, 'Consultant');

    const team = await insertTeam(db, c.id, 'Ops');
    await addTeamMember(db, team, c.bob.id);
    await setUserModuleAccess(db, c.id, c.bob.id, 'reports', false);
    const project = await insertProject(db, { companyId: c.id, title: `Own project ${Date.now()}`, status: 'active' });
    await addProjectMember(db, project, c.bob.id, 'Project Manager');

    const res = await remove(c.cookie, c.id, c.bob.id);
    expect(res.statusCode).toBe(204);
    expect(
      await db.selectFrom('company_memberships').select('company_id').where('user_id', '=', c.bob.id).execute(),
    ).toEqual([{ company_id: globexId }]);
    expect(await db.selectFrom('team_members').select('team_id').where('user_id', '=', c.bob.id).execute()).toEqual([
      { team_id: globexTeam },
    ]);
    expect(
      await db.selectFrom('user_modules_access').select('company_id').where('user_id', '=', c.bob.id).execute(),
    ).toEqual([{ company_id: globexId }]);
    expect(
      await db.selectFrom('project_members').select('project_id').where('user_id', '=', c.bob.id).execute(),
    ).toEqual([{ project_id: globexProject }]);
    expect((await list(c.cookie, c.id)).json().total).toBe(2);
    const [entry] = await auditRows('user.remove', c.bob.id);
    expect(entry).toMatchObject({ company_id: c.id, after: null });
    expect(JSON.parse(entry.before!)).toMatchObject({
      role: 'member',
      teams: ['Ops'],
      projectRoles: [{ role: 'Project Manager' }],
    });
  });

  it('answers 409 lead_user_can_not_be_revoked to a lead of one of its projects and changes nothing', async () => {
    const c = await setupCompany();
    const db = t.database.db;
    const project = await insertProject(db, { companyId: c.id, title: `Led project ${Date.now()}`, status: 'active' });
    await addProjectMember(db, project, c.alice.id, 'Client Lead');
    const res = await remove(c.cookie, c.id, c.alice.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('lead_user_can_not_be_revoked');
    expect(
      await db.selectFrom('company_memberships').select('user_id').where('user_id', '=', c.alice.id).execute(),
    ).toHaveLength(1);
    expect(
      await db.selectFrom('project_members').select('user_id').where('user_id', '=', c.alice.id).execute(),
    ).toHaveLength(1);
    expect(await auditRows('user.remove', c.alice.id)).toHaveLength(0);
  });

  it('refuses removing oneself, non-members, and callers without the permission', async () => {
    const c = await setupCompany();
    const self = await remove(c.cookie, c.id, c.admin.id);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/remove yourself/);
    expect((await remove(c.cookie, c.id, await userId('client@globex.test'))).json().code).toBe('user_not_found');
    expect(
      (await remove(await t.cookieFor('member@acme.test'), acmeId, await userId('both@acme.test'))).statusCode,
    ).toBe(403);
    expect(
      (await remove(await t.cookieFor('client@globex.test'), acmeId, await userId('both@acme.test'))).statusCode,
    ).toBe(404);
    expect((await remove(undefined, acmeId, await userId('both@acme.test'))).statusCode).toBe(401);
    expect((await list(c.cookie, c.id)).json().total).toBe(3);
  });
});

describe('modules access of a member', () => {
  const url = (company: string, user: string) => `/api/v1/companies/${company}/users/${user}/modules-access`;

  it('GET: own values, effective values (ceiling, own value, teams) and the company ceiling', async () => {
    const c = await setupCompany();
    const db = t.database.db;
    await setUserModuleAccess(db, c.id, c.alice.id, 'reports', false);
    const team = await insertTeam(db, c.id, 'No risks');
    await addTeamMember(db, team, c.alice.id);
    await db
      .insertInto('team_modules_access')
      .values({ company_id: c.id, team_id: team, module: 'risks', enabled: false })
      .execute();
    const res = await t.api({ method: 'GET', url: url(c.id, c.alice.id), cookie: c.cookie });
    expect(res.statusCode).toBe(200);
    const body = userModulesAccessSchema.parse(res.json());
    expect(body.modulesAccess).toEqual({ risks: null, projects: null, requests: null, reports: false, assets: null });
    expect(body.effective).toEqual({ risks: false, projects: true, requests: true, reports: false, assets: false });
    expect(body.company).toEqual({ ...Object.fromEntries(MODULES.map((m) => [m, true])), assets: false });
    expect(
      (
        await t.api({
          method: 'GET',
          url: url(acmeId, await userId('lead@acme.test')),
          cookie: await t.cookieFor('member@acme.test'),
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.api({ method: 'GET', url: url(c.id, await userId('lead@acme.test')), cookie: c.cookie })).json().code,
    ).toBe('user_not_found');
  });

  it('PATCH (users.editModulesAccess): sets and clears values under the ceiling, records only the changes', async () => {
    const c = await setupCompany();
    const staff = await t.cookieFor('consultant@demo.test');
    const res = await t.api({
      method: 'PATCH',
      url: url(c.id, c.alice.id),
      cookie: staff,
      payload: { risks: false, assets: true, reports: null },
    });
    expect(res.statusCode).toBe(200);
    const body = userModulesAccessSchema.parse(res.json());
    expect(body.modulesAccess).toMatchObject({ risks: false, assets: true, reports: null });
    // the company turned assets off: the user's own value cannot lift it
    expect(body.effective).toMatchObject({ risks: false, assets: false, reports: true });
    const [entry] = await auditRows('user.modules.update', c.alice.id);
    expect(entry).toMatchObject({ company_id: c.id });
    expect(JSON.parse(entry.before!)).toEqual({ risks: null, assets: null });
    expect(JSON.parse(entry.after!)).toEqual({ risks: false, assets: true });
  });

  it('PATCH refuses bad bodies with the fields named and a client admin (no users.editModulesAccess)', async () => {
    const c = await setupCompany();
    const staff = await t.cookieFor('consultant@demo.test');
    const bad = await t.api({
      method: 'PATCH',
      url: url(c.id, c.alice.id),
      cookie: staff,
      payload: { risks: 'yes', chess: true },
    });
    expect(bad.statusCode).toBe(400);
    // the unknown field is named itself, as on every JSON body (lib/contract.ts)
    expect(
      bad
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['chess', 'risks']);
    const empty = await t.api({ method: 'PATCH', url: url(c.id, c.alice.id), cookie: staff, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(
      (await t.api({ method: 'PATCH', url: url(c.id, c.alice.id), cookie: c.cookie, payload: { risks: false } }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.api({
          method: 'PATCH',
          url: url(c.id, await userId('lead@acme.test')),
          cookie: staff,
          payload: { risks: false },
        })
      ).json().code,
    ).toBe('user_not_found');
    expect(
      await t.database.db
        .selectFrom('user_modules_access')
        .select('module')
        .where('user_id', '=', c.alice.id)
        .execute(),
    ).toHaveLength(0);
  });
});
