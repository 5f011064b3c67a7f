import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { practiceSchema } from '@portal/shared/core/settings';
import { staffUser, userDetail, userStatusBody } from '@portal/shared/core/users/results';
import { addCompanyMember } from '../../../../db/companies';
import { insertPractice } from '../../../../db/practices';
import { addProjectMember, insertProject } from '../../../../db/projects';
import { findUserById } from '../../../../db/users';
import { saveImage } from '../../../../lib/images';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId, createUserWithPassword } from '../../../../test/identity';

const PASSWORD = 'Admin-Routes-Passw0rd!';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;
let acmeId: string;
let globexId: string;

beforeAll(async () => {
  t = await createTestApp();
  acmeId = await companyId(t, 'Acme Corp');
  globexId = await companyId(t, 'Globex Inc');
});
afterAll(() => t.close());

const userId = (email: string) =>
  t.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow()
    .then((r) => r.id);
const cookie = (email: string) => t.cookieFor(email);

/** A fresh user of Acme (and more companies when named), signed in. */
async function acmeUser(options: Parameters<typeof createUserWithPassword>[2] = {}) {
  const user = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'], title: 'Analyst', ...options });
  return { ...user, cookie: await t.cookieFor(user.email) };
}

function auditRows(action: string, targetId: string) {
  return t.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .execute();
}

describe('GET /api/v1/users/:id', () => {
  it('answers the UserDetail with only the companies the caller shares; staff see all', async () => {
    const both = await userId('both@acme.test');
    const byClientAdmin = await t.api({
      method: 'GET',
      url: `/api/v1/users/${both}`,
      cookie: await cookie('lead@acme.test'),
    });
    expect(byClientAdmin.statusCode).toBe(200);
    const detail = userDetail.parse(byClientAdmin.json());
    expect(detail).toMatchObject({
      id: both,
      email: 'both@acme.test',
      firstName: 'Ben',
      isTevora: false,
      isAdmin: false,
      status: 'active',
      invited: false,
      isFederated: false,
    });
    expect(detail.companies).toEqual([{ id: acmeId, name: 'Acme Corp', role: 'member', accessRevoked: false }]);

    const byStaff = userDetail.parse(
      (
        await t.api({ method: 'GET', url: `/api/v1/users/${both}`, cookie: await cookie('consultant@demo.test') })
      ).json(),
    );
    expect(byStaff.companies.map((c) => c.id).sort()).toEqual([acmeId, globexId].sort());
    expect(JSON.stringify(byStaff)).not.toMatch(/password|hash/i);
  });

  it('answers 403 to a member without the permission, 404 to another company and for staff users, 401 anonymous', async () => {
    const member = await userId('member@acme.test');
    expect(
      (await t.api({ method: 'GET', url: `/api/v1/users/${member}`, cookie: await cookie('both@acme.test') }))
        .statusCode,
    ).toBe(403);
    const outsider = await t.api({
      method: 'GET',
      url: `/api/v1/users/${member}`,
      cookie: await cookie('client@globex.test'),
    });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().code).toBe('user_not_found');
    const staff = await t.api({
      method: 'GET',
      url: `/api/v1/users/${await userId('consultant@demo.test')}`,
      cookie: await cookie('lead@acme.test'),
    });
    expect(staff.statusCode).toBe(404);
    expect(
      (await t.api({ method: 'GET', url: `/api/v1/users/${randomUUID()}`, cookie: await cookie('admin@demo.test') }))
        .statusCode,
    ).toBe(404);
    expect((await t.api({ method: 'GET', url: `/api/v1/users/${member}` })).statusCode).toBe(401);
  });
});

describe('PATCH /api/v1/users/:id', () => {
  const patch = (id: string, c: string | undefined, payload: object) =>
    t.api({ method: 'PATCH', url: `/api/v1/users/${id}`, cookie: c, payload });

  it('changes only the fields named, drops the others, and records only what changed', async () => {
    const user = await acmeUser({ primaryPhone: '+1 555 0100' });
    const res = await patch(user.id, await cookie('lead@acme.test'), {
      title: 'Lead Analyst',
      lastName: 'Renamed',
      email: 'evil@example.test',
      isTevora: true,
    });
    expect(res.statusCode).toBe(200);
    expect(userDetail.parse(res.json())).toMatchObject({
      title: 'Lead Analyst',
      lastName: 'Renamed',
      primaryPhone: '+1 555 0100',
      email: user.email,
      isTevora: false,
    });
    const [entry] = await auditRows('user.update', user.id);
    expect(entry).toMatchObject({ actor_id: await userId('lead@acme.test'), target_label: user.email });
    expect(JSON.parse(entry.before!)).toEqual({ title: 'Analyst', lastName: expect.stringMatching(/^User /) });
    expect(JSON.parse(entry.after!)).toEqual({ title: 'Lead Analyst', lastName: 'Renamed' });

    const cleared = await patch(user.id, await cookie('lead@acme.test'), { primaryPhone: '' });
    expect(cleared.json()).toMatchObject({ primaryPhone: null, title: 'Lead Analyst' });
  });

  it('refuses empty names, bad phones and an empty change with the fields named, and changes nothing', async () => {
    const user = await acmeUser();
    const before = await findUserById(t.database.db, user.id);
    const c = await cookie('lead@acme.test');
    const bad = await patch(user.id, c, { firstName: '  ', primaryPhone: 'abc', status: 'deleted' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'validation_failed',
      message: 'Invalid fields: firstName, primaryPhone, status',
    });
    for (const body of [{}, { email: 'x@example.test' }]) {
      const empty = await patch(user.id, c, body);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().details).toEqual([{ field: '(root)', message: 'name at least one field to change' }]);
    }
    expect(await findUserById(t.database.db, user.id)).toEqual(before);
    expect(await auditRows('user.update', user.id)).toHaveLength(0);
  });

  it('suspends (ending every session) and reactivates, recording both; nobody suspends themselves', async () => {
    const user = await acmeUser();
    const me = () => t.api({ method: 'GET', url: '/api/v1/users/profile/me', cookie: user.cookie });
    expect((await me()).statusCode).toBe(200);
    const lead = await cookie('lead@acme.test');
    const suspended = await patch(user.id, lead, { status: 'suspended' });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().status).toBe('suspended');
    expect((await me()).statusCode).toBe(401);
    expect(
      await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute(),
    ).toHaveLength(0);
    expect(await auditRows('user.suspend', user.id)).toHaveLength(1);
    const status = await t.api({ method: 'GET', url: `/api/v1/users/${user.id}/status`, cookie: lead });
    expect(userStatusBody.parse(status.json())).toEqual({ status: 'suspended', invited: false, isFederated: false });

    expect((await patch(user.id, lead, { status: 'active' })).json().status).toBe('active');
    expect(await auditRows('user.unsuspend', user.id)).toHaveLength(1);

    const self = await patch(await userId('lead@acme.test'), lead, { status: 'suspended' });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/suspend yourself/);
    expect((await findUserById(t.database.db, await userId('lead@acme.test')))!.status).toBe('active');
  });

  it('answers 403 to a member without the permission, 404 to another company and to a client admin editing staff', async () => {
    const user = await acmeUser();
    expect((await patch(user.id, await cookie('member@acme.test'), { title: 'x' })).statusCode).toBe(403);
    expect((await patch(user.id, await cookie('client@globex.test'), { title: 'x' })).statusCode).toBe(404);
    expect(
      (await patch(await userId('consultant@demo.test'), await cookie('lead@acme.test'), { status: 'suspended' }))
        .statusCode,
    ).toBe(404);
    expect((await patch(user.id, undefined, { title: 'x' })).statusCode).toBe(401);
    expect((await findUserById(t.database.db, user.id))!.title).toBe('Analyst');
  });
});

describe('GET /api/v1/users/:id/status', () => {
  it('tells invited and federated users apart', async () => {
    const invited = await acmeUser({ isFederated: true });
    await t.database.db.updateTable('users').set({ password_hash: null }).where('id', '=', invited.id).execute();
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/users/${invited.id}/status`,
      cookie: await cookie('lead@acme.test'),
    });
    expect(res.json()).toEqual({ status: 'active', invited: true, isFederated: true });
    expect(
      (
        await t.api({
          method: 'GET',
          url: `/api/v1/users/${invited.id}/status`,
          cookie: await cookie('client@globex.test'),
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('DELETE /api/v1/users/:id/avatar', () => {
  it("removes another user's avatar and its file, and records it", async () => {
    const user = await acmeUser();
    const key = await saveImage(t.config.dataDir, PNG, 'image/png');
    await t.database.db.updateTable('users').set({ avatar: key }).where('id', '=', user.id).execute();
    expect(
      (
        await t.api({
          method: 'DELETE',
          url: `/api/v1/users/${user.id}/avatar`,
          cookie: await cookie('member@acme.test'),
        })
      ).statusCode,
    ).toBe(403);
    const res = await t.api({
      method: 'DELETE',
      url: `/api/v1/users/${user.id}/avatar`,
      cookie: await cookie('lead@acme.test'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().avatar).toBeNull();
    expect(fs.existsSync(path.join(t.config.dataDir, 'images', key))).toBe(false);
    const [entry] = await auditRows('user.avatar.delete', user.id);
    expect(JSON.parse(entry.before!)).toEqual({ avatar: key });
  });
});

describe('assigned objects', () => {
  async function fixture() {
    const db = t.database.db;
    const user = await acmeUser();
    await addCompanyMember(db, globexId, user.id, 'member');
    const suffix = randomUUID().slice(0, 8);
    const acmeProject = await insertProject(db, { companyId: acmeId, title: `Acme audit ${suffix}`, status: 'active' });
    const acmeLed = await insertProject(db, { companyId: acmeId, title: `Acme led ${suffix}`, status: 'active' });
    const globexProject = await insertProject(db, {
      companyId: globexId,
      title: `Globex audit ${suffix}`,
      status: 'active',
    });
    await addProjectMember(db, acmeProject, user.id, 'Project Manager');
    await addProjectMember(db, acmeLed, user.id, 'Client Lead');
    await addProjectMember(db, globexProject, user.id, 'Consultant');
    return { user, acmeProject, acmeLed, globexProject, suffix };
  }
  const assigned = async (id: string, c: string, query = '') =>
    t.api({ method: 'GET', url: `/api/v1/users/${id}/assigned-objects${query}`, cookie: c });

  it("lists the user's project roles in the companies the caller sees, lead roles not removable", async () => {
    const f = await fixture();
    const byLead = await assigned(f.user.id, await cookie('lead@acme.test'));
    expect(byLead.statusCode).toBe(200);
    expect(byLead.json()).toEqual({
      results: [
        {
          module: 'projects',
          objectId: f.acmeProject,
          name: `Acme audit ${f.suffix}`,
          companyId: acmeId,
          role: 'Project Manager',
          removable: true,
        },
        {
          module: 'projects',
          objectId: f.acmeLed,
          name: `Acme led ${f.suffix}`,
          companyId: acmeId,
          role: 'Client Lead',
          removable: false,
        },
      ],
    });
    const staff = await cookie('consultant@demo.test');
    expect((await assigned(f.user.id, staff)).json().results.map((r: { objectId: string }) => r.objectId)).toEqual([
      f.acmeProject,
      f.acmeLed,
      f.globexProject,
    ]);
    expect(
      (await assigned(f.user.id, staff, `?companyId=${globexId}`))
        .json()
        .results.map((r: { objectId: string }) => r.objectId),
    ).toEqual([f.globexProject]);
    expect(
      (await assigned(f.user.id, await cookie('lead@acme.test'), `?companyId=${globexId}`)).json().results,
    ).toEqual([]);
    expect((await assigned(f.user.id, staff, '?companyId=')).statusCode).toBe(400);
    expect((await assigned(f.user.id, await cookie('member@acme.test'))).statusCode).toBe(403);
  });

  it('removes a project role (204, recorded); a lead role is 409; unknown or unseen objects are 404', async () => {
    const f = await fixture();
    const lead = await cookie('lead@acme.test');
    const remove = (objectId: string, query = '?module=projects', c = lead) =>
      t.api({ method: 'DELETE', url: `/api/v1/users/${f.user.id}/object-access/${objectId}${query}`, cookie: c });
    const leadRole = await remove(f.acmeLed);
    expect(leadRole.statusCode).toBe(409);
    expect(leadRole.json().code).toBe('lead_user_can_not_be_revoked');
    // Globex is not the client admin's company
    expect((await remove(f.globexProject)).json().code).toBe('not_found');
    expect((await remove(randomUUID())).statusCode).toBe(404);
    const badModule = await remove(f.acmeProject, '?module=chess');
    expect(badModule.statusCode).toBe(400);
    expect(badModule.json().details[0].field).toBe('module');
    expect((await remove(f.acmeProject, '')).statusCode).toBe(400);
    expect((await remove(f.acmeProject, '?module=projects', await cookie('member@acme.test'))).statusCode).toBe(403);
    // the user also works for Globex: a Globex member without the permission is refused, not misled
    expect((await remove(f.acmeProject, '?module=projects', await cookie('client@globex.test'))).statusCode).toBe(403);

    expect((await remove(f.acmeProject)).statusCode).toBe(204);
    const roles = await t.database.db
      .selectFrom('project_members')
      .select('project_id')
      .where('user_id', '=', f.user.id)
      .execute();
    expect(roles.map((r) => r.project_id).sort()).toEqual([f.acmeLed, f.globexProject].sort());
    const [entry] = await auditRows('user.objectAccess.remove', f.user.id);
    expect(entry).toMatchObject({ company_id: acmeId });
    expect(JSON.parse(entry.before!)).toMatchObject({
      module: 'projects',
      objectId: f.acmeProject,
      role: 'Project Manager',
    });
    expect((await remove(f.acmeProject)).statusCode).toBe(404);
  });
});

describe('GET /api/v1/users/staff', () => {
  it('lists staff users with their practices, searched and paged', async () => {
    const practice = await insertPractice(t.database.db, { name: `Staff list practice ${randomUUID()}` });
    const consultant = await userId('consultant@demo.test');
    await t.database.db.insertInto('staff_practices').values({ user_id: consultant, practice_id: practice }).execute();
    const res = await t.api({
      method: 'GET',
      url: '/api/v1/users/staff?pageSize=200',
      cookie: await cookie('auditor@demo.test'),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const staff = body.results.map((u: unknown) => staffUser.parse(u));
    expect(staff.length).toBe(body.total);
    expect(
      staff.every((u: { email: string }) => !u.email.endsWith('@acme.test') && !u.email.endsWith('@globex.test')),
    ).toBe(true);
    expect(staff.find((u: { email: string }) => u.email === 'admin@demo.test')).toMatchObject({
      isAdmin: true,
      isAuditor: false,
    });
    expect(staff.find((u: { id: string }) => u.id === consultant).practices).toContainEqual({
      id: practice,
      name: expect.stringMatching(/^Staff list practice/),
    });

    const search = (
      await t.api({
        method: 'GET',
        url: '/api/v1/users/staff?search=ALICE%20morgan',
        cookie: await cookie('auditor@demo.test'),
      })
    ).json();
    expect(search).toMatchObject({ total: 1, page: 1, pageSize: 50 });
    expect(search.results[0].email).toBe('admin@demo.test');
    const page = (
      await t.api({
        method: 'GET',
        url: '/api/v1/users/staff?pageSize=1&page=2',
        cookie: await cookie('auditor@demo.test'),
      })
    ).json();
    expect(page.results).toHaveLength(1);
    expect(page.results[0].id).toBe(staff[1].id);
  });

  it('refuses bad query parameters, client users (403) and anonymous callers (401)', async () => {
    const res = await t.api({
      method: 'GET',
      url: '/api/v1/users/staff?pageSize=500',
      cookie: await cookie('admin@demo.test'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid query parameter: pageSize');
    expect(
      (await t.api({ method: 'GET', url: '/api/v1/users/staff', cookie: await cookie('lead@acme.test') })).statusCode,
    ).toBe(403);
    expect((await t.api({ method: 'GET', url: '/api/v1/users/staff' })).statusCode).toBe(401);
  });
});

describe('PUT /api/v1/users/admin/:id', () => {
  const setRole = (id: string, c: string | undefined, payload: object) =>
    t.api({ method: 'PUT', url: `/api/v1/users/admin/${id}`, cookie: c, payload });

  it('promotes and demotes a staff user, recording both', async () => {
    const staff = await createUserWithPassword(t, PASSWORD, { isTevora: true });
    const admin = await cookie('admin@demo.test');
    const promoted = await setRole(staff.id, admin, { role: 'admin' });
    expect(promoted.statusCode).toBe(200);
    expect(staffUser.parse(promoted.json())).toMatchObject({ id: staff.id, isAdmin: true });
    const demoted = await setRole(staff.id, admin, { role: 'staff' });
    expect(demoted.json()).toMatchObject({ isAdmin: false });
    const entries = await auditRows('staff.admin.update', staff.id);
    expect(entries.map((e) => JSON.parse(e.after!))).toEqual([{ role: 'admin' }, { role: 'staff' }]);
  });

  it("refuses client users as targets (404), one's own flag, bad roles, and callers who are not staff admins", async () => {
    const admin = await cookie('admin@demo.test');
    const client = await setRole(await userId('lead@acme.test'), admin, { role: 'admin' });
    expect(client.statusCode).toBe(404);
    expect(client.json().code).toBe('user_not_found');
    expect(Boolean((await findUserById(t.database.db, await userId('lead@acme.test')))!.isAdmin)).toBe(false);
    const self = await setRole(await userId('admin@demo.test'), admin, { role: 'staff' });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/your own administrator role/);
    const bad = await setRole(await userId('consultant@demo.test'), admin, { role: 'root' });
    expect(bad.json().details).toEqual([{ field: 'role', message: 'role must be admin or staff' }]);
    expect(
      (await setRole(await userId('auditor@demo.test'), await cookie('consultant@demo.test'), { role: 'admin' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await setRole(await userId('auditor@demo.test'), await cookie('lead@acme.test'), { role: 'admin' })).statusCode,
    ).toBe(403);
    expect((await setRole(await userId('auditor@demo.test'), undefined, { role: 'admin' })).statusCode).toBe(401);
    expect((await findUserById(t.database.db, await userId('admin@demo.test')))!.isAdmin).toBe(true);
    expect((await findUserById(t.database.db, await userId('auditor@demo.test')))!.isAdmin).toBe(false);
  });
});

describe('practices', () => {
  it('GET /practices and GET /users/:id/practices are for staff', async () => {
    const id = await insertPractice(t.database.db, {
      name: `Listed practice ${randomUUID()}`,
      description: 'About it',
    });
    const res = await t.api({ method: 'GET', url: '/api/v1/practices', cookie: await cookie('auditor@demo.test') });
    expect(res.statusCode).toBe(200);
    const practices = res.json().results.map((p: unknown) => practiceSchema.parse(p));
    expect(practices).toContainEqual({
      id,
      name: expect.stringMatching(/^Listed practice/),
      description: 'About it',
      status: 'active',
    });
    expect(
      (await t.api({ method: 'GET', url: '/api/v1/practices', cookie: await cookie('lead@acme.test') })).statusCode,
    ).toBe(403);
    const ofClient = await t.api({
      method: 'GET',
      url: `/api/v1/users/${await userId('lead@acme.test')}/practices`,
      cookie: await cookie('consultant@demo.test'),
    });
    expect(ofClient.statusCode).toBe(404);
    expect(ofClient.json().code).toBe('user_not_found');
  });

  it("PUT replaces a staff user's practices (users.editPractices) and records it", async () => {
    const db = t.database.db;
    const staff = await createUserWithPassword(t, PASSWORD, { isTevora: true });
    const a = await insertPractice(db, { name: `A practice ${randomUUID()}` });
    const b = await insertPractice(db, { name: `B practice ${randomUUID()}` });
    const url = `/api/v1/users/${staff.id}/practices`;
    const consultant = await cookie('consultant@demo.test');
    const res = await t.api({ method: 'PUT', url, cookie: consultant, payload: { practiceIds: [b, a, a] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().results.map((p: { id: string }) => p.id)).toEqual([a, b]);
    expect(
      (await t.api({ method: 'GET', url, cookie: consultant })).json().results.map((p: { id: string }) => p.id),
    ).toEqual([a, b]);
    const [entry] = await auditRows('staff.practices.update', staff.id);
    expect(JSON.parse(entry.before!)).toEqual({ practices: [] });
    expect(JSON.parse(entry.after!).practices).toHaveLength(2);

    const cleared = await t.api({ method: 'PUT', url, cookie: consultant, payload: { practiceIds: [] } });
    expect(cleared.json()).toEqual({ results: [] });
  });

  it('refuses unknown practices naming practiceIds, bad bodies, client targets, and callers without the permission; nothing changes', async () => {
    const db = t.database.db;
    const staff = await createUserWithPassword(t, PASSWORD, { isTevora: true });
    const a = await insertPractice(db, { name: `Kept practice ${randomUUID()}` });
    await db.insertInto('staff_practices').values({ user_id: staff.id, practice_id: a }).execute();
    const url = `/api/v1/users/${staff.id}/practices`;
    const consultant = await cookie('consultant@demo.test');
    const unknown = await t.api({
      method: 'PUT',
      url,
      cookie: consultant,
      payload: { practiceIds: [a, 'no-such-practice'] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'practiceIds' }] });
    expect(unknown.json().details[0].message).toContain('no-such-practice');
    const bad = await t.api({ method: 'PUT', url, cookie: consultant, payload: { practiceIds: 'all' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('practiceIds');
    const client = await t.api({
      method: 'PUT',
      url: `/api/v1/users/${await userId('member@acme.test')}/practices`,
      cookie: consultant,
      payload: { practiceIds: [] },
    });
    expect(client.statusCode).toBe(404);
    // a client company admin holds no users.editPractices
    const byClientAdmin = await t.api({
      method: 'PUT',
      url: `/api/v1/users/${await userId('member@acme.test')}/practices`,
      cookie: await cookie('lead@acme.test'),
      payload: { practiceIds: [] },
    });
    expect(byClientAdmin.statusCode).toBe(403);
    expect(
      (await t.api({ method: 'PUT', url, cookie: await cookie('auditor@demo.test'), payload: { practiceIds: [] } }))
        .statusCode,
    ).toBe(403);
    expect(
      await db.selectFrom('staff_practices').select('practice_id').where('user_id', '=', staff.id).execute(),
    ).toEqual([{ practice_id: a }]);
    expect(await auditRows('staff.practices.update', staff.id)).toHaveLength(0);
  });
});

describe('boundaries of user administration', () => {
  it('lets only staff admins manage another staff user under a company permission', async () => {
    const nina = await userId('nina.patel@demo.test');
    const admin = await userId('admin@demo.test');
    const consultant = await cookie('consultant@demo.test');
    for (const target of [admin, nina]) {
      expect(
        (
          await t.api({
            method: 'PATCH',
            url: `/api/v1/users/${target}`,
            cookie: consultant,
            payload: { status: 'suspended' },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await t.api({
            method: 'PATCH',
            url: `/api/v1/users/${target}`,
            cookie: consultant,
            payload: { title: 'Renamed' },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (await t.api({ method: 'DELETE', url: `/api/v1/users/${target}/avatar`, cookie: consultant })).statusCode,
      ).toBe(403);
    }
    expect((await findUserById(t.database.db, admin))!.status).toBe('active');
    // a staff admin may; a staff member still manages client users and their own record
    const byAdmin = await t.api({
      method: 'PATCH',
      url: `/api/v1/users/${nina}`,
      cookie: await cookie('admin@demo.test'),
      payload: { title: 'Practice Lead' },
    });
    expect(byAdmin.statusCode).toBe(200);
    const client = await acmeUser();
    expect(
      (
        await t.api({
          method: 'PATCH',
          url: `/api/v1/users/${client.id}`,
          cookie: consultant,
          payload: { title: 'Checked' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it("keeps a client admin's reach to the companies they administer", async () => {
    // an admin of Acme who is a plain member of Globex
    const split = await createUserWithPassword(t, PASSWORD, { companies: ['Acme Corp'], companyRole: 'admin' });
    await addCompanyMember(t.database.db, globexId, split.id, 'member');
    const splitCookie = await t.cookieFor(split.email);
    const both = await userId('both@acme.test');
    const globexProject = await insertProject(t.database.db, {
      companyId: globexId,
      title: `Globex only ${randomUUID()}`,
      status: 'active',
    });
    await addProjectMember(t.database.db, globexProject, both, 'Consultant');

    const listed = await t.api({ method: 'GET', url: `/api/v1/users/${both}/assigned-objects`, cookie: splitCookie });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().results.map((o: { companyId: string }) => o.companyId)).not.toContain(globexId);
    const removed = await t.api({
      method: 'DELETE',
      url: `/api/v1/users/${both}/object-access/${globexProject}?module=projects`,
      cookie: splitCookie,
    });
    expect(removed.statusCode).toBe(404);
    expect(
      await t.database.db
        .selectFrom('project_members')
        .select('role')
        .where('project_id', '=', globexProject)
        .where('user_id', '=', both)
        .execute(),
    ).toHaveLength(1);

    // both@acme.test also works for Globex: the Acme admin cannot suspend (or unsuspend) the whole account
    const suspend = await t.api({
      method: 'PATCH',
      url: `/api/v1/users/${both}`,
      cookie: splitCookie,
      payload: { status: 'suspended' },
    });
    expect(suspend.statusCode).toBe(403);
    expect(suspend.json().message).toMatch(/revoke their access/);
    expect(
      (await t.api({ method: 'POST', url: `/api/v1/users/${both}/unsuspend`, cookie: splitCookie })).statusCode,
    ).toBe(403);
    expect((await findUserById(t.database.db, both))!.status).toBe('active');
    // a user only of Acme is theirs to suspend
    const own = await acmeUser();
    expect(
      (
        await t.api({
          method: 'PATCH',
          url: `/api/v1/users/${own.id}`,
          cookie: splitCookie,
          payload: { status: 'suspended' },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await t.api({ method: 'POST', url: `/api/v1/users/${own.id}/unsuspend`, cookie: splitCookie })).statusCode,
    ).toBe(204);
  });
});
