import {
  PROJECT_ROLES,
  type AssignableUser,
  type Project,
  type ProjectMember,
  type ProjectRole,
  type RoleAssignment,
  type UserProject,
} from '@portal/shared/core/projects';
import * as projectsRepository from '../../../db/projects';
import { addProjectMember } from '../../../db/projects';
import { setUserModuleAccess } from '../../../db/module-access';
import { isUniqueViolation } from '../../../db/values';
import { createTestApp, type TestApp } from '../../../test/app';
import { auditRows, newCompany, newUser, projectIdOf, userIdOf } from '../../../test/project-fixtures';

let t: TestApp;
let own: string;
let consultant: string;
let consultantId: string;
let auditorId: string;
/** Users of the test's own company (clients) and staff made for it, by name. */
const u: Record<
  'cara' | 'cleo' | 'dora' | 'paul' | 'revoked' | 'suspendedClient' | 'sam' | 'tess' | 'suspendedStaff',
  { id: string; email: string }
> = {} as never;

beforeAll(async () => {
  t = await createTestApp();
  consultant = await t.cookieFor('consultant@demo.test');
  consultantId = await userIdOf(t, 'consultant@demo.test');
  auditorId = await userIdOf(t, 'auditor@demo.test');
  own = await newCompany(t, `Roster Co ${Date.now()}`);
  u.cara = await newUser(t, { companyIds: [own], firstName: 'Cara' });
  u.cleo = await newUser(t, { companyIds: [own], firstName: 'Cleo' });
  u.dora = await newUser(t, { companyIds: [own], firstName: 'Dora' });
  u.paul = await newUser(t, { companyIds: [own], firstName: 'Paul' });
  u.revoked = await newUser(t, { companyIds: [own], firstName: 'Rita' });
  await t.database.db
    .updateTable('company_memberships')
    .set({ access_revoked_at: new Date().toISOString() })
    .where('user_id', '=', u.revoked.id)
    .execute();
  u.suspendedClient = await newUser(t, { companyIds: [own], firstName: 'Sue', status: 'suspended' });
  u.sam = await newUser(t, { isTevora: true, firstName: 'Sam' });
  u.tess = await newUser(t, { isTevora: true, firstName: 'Tess' });
  u.suspendedStaff = await newUser(t, { isTevora: true, firstName: 'Stan', status: 'suspended' });
});
afterAll(() => t.close());

let count = 0;

/** A new project of the test's company: the consultant is its Lead Consultant. */
async function newProject(): Promise<string> {
  const res = await t.api({
    method: 'POST',
    url: `/api/v1/companies/${own}/projects`,
    cookie: consultant,
    payload: { title: `Roster project ${++count} ${Date.now()}` },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as Project).id;
}

function assign(userId: string, projectId: string, role: ProjectRole | null, cookie = consultant) {
  return t.api({
    method: 'PATCH',
    url: `/api/v1/projects/roles/${userId}/assignments`,
    cookie,
    payload: { projectId, role },
  });
}

async function assignOk(
  userId: string,
  projectId: string,
  role: ProjectRole | null,
  cookie = consultant,
): Promise<void> {
  const res = await assign(userId, projectId, role, cookie);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ userId, projectId, role } satisfies RoleAssignment);
}

/** The roster straight from the table: user id to role. */
async function roster(projectId: string): Promise<Record<string, ProjectRole>> {
  const rows = await t.database.db
    .selectFrom('project_members')
    .select(['user_id', 'role'])
    .where('project_id', '=', projectId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.user_id, r.role]));
}

async function expectError(res: Awaited<ReturnType<typeof assign>>, status: number, code: string): Promise<void> {
  expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
}

const cookieOf = (user: { email: string }) => t.cookieFor(user.email);

describe('GET /api/v1/projects/:id/users', () => {
  it('lists the roster by role order, then by name, with what the roster shows', async () => {
    const projectId = await newProject();
    await addProjectMember(t.database.db, projectId, u.cara.id, 'Client Lead');
    await addProjectMember(t.database.db, projectId, u.paul.id, 'Project Manager');
    await addProjectMember(t.database.db, projectId, u.tess.id, 'Consultant');
    await addProjectMember(t.database.db, projectId, u.sam.id, 'Consultant');
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/users`,
      cookie: await cookieOf(u.cleo),
    });
    expect(res.statusCode).toBe(200);
    const members = (res.json() as { results: ProjectMember[] }).results;
    expect(members.map((m) => [m.id, m.role])).toEqual([
      [consultantId, 'Lead Consultant'],
      [u.sam.id, 'Consultant'],
      [u.tess.id, 'Consultant'],
      [u.paul.id, 'Project Manager'],
      [u.cara.id, 'Client Lead'],
    ]);
    expect(members[1]).toEqual({
      id: u.sam.id,
      firstName: 'Sam',
      lastName: 'Tester',
      email: u.sam.email,
      role: 'Consultant',
      isTevora: true,
      title: null,
      status: 'active',
    });
    expect(members[4]).toMatchObject({ isTevora: false });
  });

  it('answers 404 project_not_found to a user of another company', async () => {
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/projects/${await newProject()}/users`,
      cookie: await t.cookieFor('client@globex.test'),
    });
    await expectError(res, 404, 'project_not_found');
  });
});

describe('GET /api/v1/projects/:id/assignable-users', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = await newProject();
    await addProjectMember(t.database.db, projectId, u.cara.id, 'Client Lead');
    await addProjectMember(t.database.db, projectId, u.paul.id, 'Project Manager');
    await addProjectMember(t.database.db, projectId, u.sam.id, 'Consultant');
    await addProjectMember(t.database.db, projectId, auditorId, 'Consultant');
  });

  async function assignable(cookie: string): Promise<Map<string, AssignableUser>> {
    const res = await t.api({ method: 'GET', url: `/api/v1/projects/${projectId}/assignable-users`, cookie });
    expect(res.statusCode).toBe(200);
    const results = (res.json() as { results: AssignableUser[] }).results;
    return new Map(results.map((r) => [r.id, r]));
  }

  it('offers staff and active members, by name, with the roles a staff manager could give each', async () => {
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/assignable-users`,
      cookie: consultant,
    });
    const results = (res.json() as { results: AssignableUser[] }).results;
    const mine = [u.cara, u.cleo, u.dora, u.paul, u.sam, u.tess].map((x) => x.id);
    expect(results.filter((r) => mine.includes(r.id)).map((r) => r.firstName)).toEqual([
      'Cara',
      'Cleo',
      'Dora',
      'Paul',
      'Sam',
      'Tess',
    ]);
    const byId = new Map(results.map((r) => [r.id, r]));
    // revoked, suspended and other companies' users are not offered
    for (const id of [u.revoked.id, u.suspendedClient.id, u.suspendedStaff.id, await userIdOf(t, 'client@globex.test')])
      expect(byId.has(id)).toBe(false);
    expect(byId.get(u.tess.id)).toEqual({
      id: u.tess.id,
      firstName: 'Tess',
      lastName: 'Tester',
      email: u.tess.email,
      isTevora: true,
      roles: ['Lead Consultant', 'Consultant', 'Project Manager'],
    });
    expect(byId.get(u.cleo.id)?.roles).toEqual(['Project Manager', 'Client Lead']);
    // a lead keeps their role until it goes to someone else; a manager cannot become the lead consultant
    expect(byId.get(consultantId)?.roles).toEqual(['Lead Consultant']);
    expect(byId.get(u.cara.id)?.roles).toEqual(['Client Lead']);
    expect(byId.get(u.paul.id)?.roles).toEqual(['Project Manager', 'Client Lead']);
    expect(byId.get(u.sam.id)?.roles).toEqual(['Lead Consultant', 'Consultant', 'Project Manager']);
    // auditors never lead
    expect(byId.get(auditorId)?.roles).toEqual(['Consultant', 'Project Manager']);
  });

  it("offers the Client Lead the company's users only, with client roles", async () => {
    const byId = await assignable(await cookieOf(u.cara));
    expect(byId.get(u.cleo.id)?.roles).toEqual(['Project Manager', 'Client Lead']);
    // no staff, so no staff email, is listed to a client
    expect([...byId.values()].every((user) => !user.isTevora)).toBe(true);
    expect([...byId.keys()].sort()).toEqual([u.cara.id, u.cleo.id, u.dora.id, u.paul.id].sort());
  });

  it('does not offer the Client Lead a role held by staff', async () => {
    const projectId = await newProject();
    await addProjectMember(t.database.db, projectId, u.cara.id, 'Client Lead');
    await addProjectMember(t.database.db, projectId, u.sam.id, 'Project Manager');
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/assignable-users`,
      cookie: await cookieOf(u.cara),
    });
    const byId = new Map((res.json() as { results: AssignableUser[] }).results.map((r) => [r.id, r]));
    expect(byId.get(u.cleo.id)?.roles).toEqual(['Client Lead']);
  });

  it('offers exactly the roles PATCH then accepts, for members and non-members, to a staff manager and to the Client Lead', async () => {
    // Lead Consultant (the consultant), a staff Project Manager, the Client Lead, a staff Consultant; cleo is not on it.
    const setUp = async () => {
      const id = await newProject();
      await addProjectMember(t.database.db, id, u.tess.id, 'Project Manager');
      await addProjectMember(t.database.db, id, u.cara.id, 'Client Lead');
      await addProjectMember(t.database.db, id, u.sam.id, 'Consultant');
      return id;
    };
    const cases: [caller: string, cookie: string, targets: string[]][] = [
      ['staff manager', consultant, [consultantId, u.tess.id, u.cara.id, u.sam.id, u.cleo.id]],
      ['Client Lead', await cookieOf(u.cara), [u.cara.id, u.sam.id, u.cleo.id]],
    ];
    const seen: string[] = [];
    for (const [caller, cookie, targets] of cases) {
      for (const target of targets) {
        for (const role of PROJECT_ROLES) {
          const id = await setUp();
          const res = await t.api({ method: 'GET', url: `/api/v1/projects/${id}/assignable-users`, cookie });
          const offered =
            (res.json() as { results: AssignableUser[] }).results.find((r) => r.id === target)?.roles ?? [];
          const given = await assign(target, id, role, cookie);
          expect({ caller, target, role, accepted: given.statusCode === 200 }).toEqual({
            caller,
            target,
            role,
            accepted: offered.includes(role),
          });
          if (given.statusCode !== 200) seen.push(given.json().code);
        }
      }
    }
    // the refusals the offer keeps away include rules 5 and 6
    expect(seen).toEqual(
      expect.arrayContaining([
        'same_project_lead_and_manager',
        'forbidden_role_assignment_for_lead',
        'lead_user_can_not_be_revoked',
        'forbidden_role_assignment',
      ]),
    );
  });

  it('refuses callers who cannot change the roster with 403, naming why', async () => {
    const cases: [cookie: string, code: string][] = [
      [await cookieOf(u.paul), 'client_cannot_add_user_to_project'],
      [await cookieOf(u.cleo), 'client_cannot_add_user_to_project'],
      [await t.cookieFor('auditor@demo.test'), 'user_can_not_update_project'],
    ];
    for (const [cookie, code] of cases) {
      await expectError(
        await t.api({ method: 'GET', url: `/api/v1/projects/${projectId}/assignable-users`, cookie }),
        403,
        code,
      );
    }
  });
});

describe('GET /api/v1/users/:id/get-projects', () => {
  async function projectsOf(userId: string, cookie: string): Promise<UserProject[]> {
    const res = await t.api({ method: 'GET', url: `/api/v1/users/${userId}/get-projects`, cookie });
    expect(res.statusCode).toBe(200);
    return (res.json() as { results: UserProject[] }).results;
  }

  it("lists a user's roles to themselves and to staff", async () => {
    const memberId = await userIdOf(t, 'member@acme.test');
    const own = await projectsOf(memberId, await t.cookieFor('member@acme.test'));
    expect(own).toContainEqual({
      projectId: await projectIdOf(t, 'Acme PCI DSS Assessment'),
      title: 'Acme PCI DSS Assessment',
      companyId: expect.any(String),
      companyName: 'Acme Corp',
      status: expect.any(String),
      role: 'Project Manager',
    });
    expect(await projectsOf(memberId, await t.cookieFor('admin@demo.test'))).toEqual(own);
  });

  it('shows a client only the projects of their own companies', async () => {
    const bothId = await userIdOf(t, 'both@acme.test');
    await addProjectMember(
      t.database.db,
      await projectIdOf(t, 'Acme ISO 27001 Gap Analysis'),
      bothId,
      'Project Manager',
    );
    const self = await projectsOf(bothId, await t.cookieFor('both@acme.test'));
    expect(self.map((p) => p.title)).toEqual(
      expect.arrayContaining(['Acme ISO 27001 Gap Analysis', 'Globex Penetration Test 2026']),
    );
    // member@acme.test shares Acme with both@acme.test, not Globex
    const seen = await projectsOf(bothId, await t.cookieFor('member@acme.test'));
    expect(seen.every((p) => p.companyName === 'Acme Corp')).toBe(true);
    expect(seen).toEqual(self.filter((p) => p.companyName === 'Acme Corp'));
  });

  it('leaves out the projects of a company where the projects module is off for the caller', async () => {
    const projectId = await newProject();
    await addProjectMember(t.database.db, projectId, u.dora.id, 'Project Manager');
    expect((await projectsOf(u.dora.id, await cookieOf(u.cleo))).map((p) => p.projectId)).toEqual([projectId]);
    await setUserModuleAccess(t.database.db, own, u.cleo.id, 'projects', false);
    try {
      expect(await projectsOf(u.dora.id, await cookieOf(u.cleo))).toEqual([]);
    } finally {
      await setUserModuleAccess(t.database.db, own, u.cleo.id, 'projects', null);
    }
  });

  it('shows an auditor only the projects where they hold a role', async () => {
    const auditor = await t.cookieFor('auditor@demo.test');
    const results = await projectsOf(auditorId, auditor);
    expect(results.map((p) => p.title)).toContain('Globex HIPAA Risk Assessment');
    expect(results.every((p) => p.role)).toBe(true);
  });

  it('answers 404 user_not_found for users the caller does not share a company with', async () => {
    const cases: [viewer: string, target: string][] = [
      ['lead@acme.test', 'client@globex.test'],
      ['lead@acme.test', 'consultant@demo.test'],
      ['auditor@demo.test', 'consultant@demo.test'],
    ];
    for (const [viewer, target] of cases) {
      const res = await t.api({
        method: 'GET',
        url: `/api/v1/users/${await userIdOf(t, target)}/get-projects`,
        cookie: await t.cookieFor(viewer),
      });
      await expectError(res, 404, 'user_not_found');
    }
    await expectError(
      await t.api({ method: 'GET', url: '/api/v1/users/no-such-user/get-projects', cookie: consultant }),
      404,
      'user_not_found',
    );
  });
});

describe('GET /api/v1/projects/roles/:userId/assignments', () => {
  const url = (userId: string, projectId?: string) =>
    `/api/v1/projects/roles/${userId}/assignments${projectId ? `?projectId=${projectId}` : ''}`;

  it("answers the user's role on the project, or null", async () => {
    const projectId = await newProject();
    const lead = await t.api({ method: 'GET', url: url(consultantId, projectId), cookie: await cookieOf(u.cleo) });
    expect(lead.statusCode).toBe(200);
    expect(lead.json()).toEqual({ userId: consultantId, projectId, role: 'Lead Consultant' });
    const none = await t.api({ method: 'GET', url: url(u.cleo.id, projectId), cookie: consultant });
    expect(none.json()).toEqual({ userId: u.cleo.id, projectId, role: null });
  });

  it('answers 404 for a project the caller cannot see or a user who could not be on it, and 400 without projectId', async () => {
    const projectId = await newProject();
    const globex = await t.cookieFor('client@globex.test');
    await expectError(
      await t.api({ method: 'GET', url: url(consultantId, projectId), cookie: globex }),
      404,
      'project_not_found',
    );
    await expectError(
      await t.api({ method: 'GET', url: url(consultantId, 'no-such-project'), cookie: consultant }),
      404,
      'project_not_found',
    );
    await expectError(
      await t.api({ method: 'GET', url: url('no-such-user', projectId), cookie: consultant }),
      404,
      'user_not_found',
    );
    await expectError(
      await t.api({ method: 'GET', url: url(await userIdOf(t, 'client@globex.test'), projectId), cookie: consultant }),
      404,
      'user_not_found',
    );
    const missing = await t.api({ method: 'GET', url: url(consultantId), cookie: consultant });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'projectId' }] });
  });
});

describe('PATCH /api/v1/projects/roles/:userId/assignments', () => {
  it('gives a role, records it, and shows it on the roster and the project', async () => {
    const projectId = await newProject();
    await assignOk(u.sam.id, projectId, 'Consultant');
    await assignOk(u.cara.id, projectId, 'Client Lead');
    expect(await roster(projectId)).toEqual({
      [consultantId]: 'Lead Consultant',
      [u.sam.id]: 'Consultant',
      [u.cara.id]: 'Client Lead',
    });
    const project = (
      await t.api({ method: 'GET', url: `/api/v1/projects/${projectId}`, cookie: consultant })
    ).json() as Project;
    expect(project.clientLead).toMatchObject({ id: u.cara.id });
    const entries = await auditRows(t, 'project.role', projectId);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      actor_email: 'consultant@demo.test',
      company_id: own,
      before: { userId: u.sam.id, role: null },
      after: { userId: u.sam.id, role: 'Consultant' },
    });
  });

  it('answers 200 and changes nothing when the user already holds the role', async () => {
    const projectId = await newProject();
    await assignOk(consultantId, projectId, 'Lead Consultant');
    expect(await auditRows(t, 'project.role', projectId)).toEqual([]);
  });

  it('moves a unique role from its previous holder', async () => {
    const projectId = await newProject();
    // Lead Consultant: the previous lead stays as Consultant
    await assignOk(u.sam.id, projectId, 'Lead Consultant');
    expect(await roster(projectId)).toEqual({ [consultantId]: 'Consultant', [u.sam.id]: 'Lead Consultant' });
    // Project Manager: staff stay as Consultant, clients leave
    await assignOk(u.tess.id, projectId, 'Project Manager');
    await assignOk(u.paul.id, projectId, 'Project Manager');
    expect((await roster(projectId))[u.tess.id]).toBe('Consultant');
    await assignOk(consultantId, projectId, 'Project Manager');
    expect((await roster(projectId))[u.paul.id]).toBeUndefined();
    // Client Lead: the previous one leaves
    await assignOk(u.cara.id, projectId, 'Client Lead');
    await assignOk(u.cleo.id, projectId, 'Client Lead');
    expect(await roster(projectId)).toEqual({
      [consultantId]: 'Project Manager',
      [u.sam.id]: 'Lead Consultant',
      [u.tess.id]: 'Consultant',
      [u.cleo.id]: 'Client Lead',
    });
    const moved = (await auditRows(t, 'project.role', projectId)).filter((e) => e.before.userId === u.cara.id);
    expect(moved.at(-1)).toMatchObject({ before: { role: 'Client Lead' }, after: { role: null } });
  });

  it('removes a user with role null; 404 user_not_in_project when they are not on it', async () => {
    const projectId = await newProject();
    await assignOk(u.sam.id, projectId, 'Consultant');
    await assignOk(u.sam.id, projectId, null);
    expect(await roster(projectId)).toEqual({ [consultantId]: 'Lead Consultant' });
    await expectError(await assign(u.sam.id, projectId, null), 404, 'user_not_in_project');
  });

  it('never revokes a lead: 409 lead_user_can_not_be_revoked, or forbidden_role_assignment_for_lead for another lead role', async () => {
    const projectId = await newProject();
    await assignOk(u.cara.id, projectId, 'Client Lead');
    await assignOk(u.sam.id, projectId, 'Project Manager');
    const before = await roster(projectId);
    const cases: [userId: string, role: ProjectRole | null, code: string][] = [
      [consultantId, null, 'lead_user_can_not_be_revoked'],
      [u.cara.id, null, 'lead_user_can_not_be_revoked'],
      [consultantId, 'Consultant', 'lead_user_can_not_be_revoked'],
      [u.cara.id, 'Project Manager', 'lead_user_can_not_be_revoked'],
      [u.cara.id, 'Lead Consultant', 'forbidden_role_assignment_for_lead'],
      [consultantId, 'Client Lead', 'forbidden_role_assignment_for_lead'],
      // one user is never both project manager and lead consultant
      [consultantId, 'Project Manager', 'same_project_lead_and_manager'],
      [u.sam.id, 'Lead Consultant', 'same_project_lead_and_manager'],
    ];
    for (const [userId, role, code] of cases) await expectError(await assign(userId, projectId, role), 409, code);
    expect(await roster(projectId)).toEqual(before);
  });

  it('gives staff roles only to staff and client roles only to clients, with 403 forbidden_role_assignment', async () => {
    const projectId = await newProject();
    const before = await roster(projectId);
    await expectError(await assign(u.cleo.id, projectId, 'Consultant'), 403, 'forbidden_role_assignment');
    await expectError(await assign(u.cleo.id, projectId, 'Lead Consultant'), 403, 'forbidden_role_assignment');
    await expectError(await assign(u.sam.id, projectId, 'Client Lead'), 403, 'forbidden_role_assignment');
    expect(await roster(projectId)).toEqual(before);
  });

  it('answers 404 user_not_found for unknown users and users outside the company, 400 user_is_inactive for suspended ones', async () => {
    const projectId = await newProject();
    const before = await roster(projectId);
    for (const userId of ['no-such-user', await userIdOf(t, 'client@globex.test'), u.revoked.id]) {
      await expectError(await assign(userId, projectId, 'Project Manager'), 404, 'user_not_found');
    }
    await expectError(await assign(u.suspendedStaff.id, projectId, 'Consultant'), 400, 'user_is_inactive');
    await expectError(await assign(u.suspendedClient.id, projectId, 'Project Manager'), 400, 'user_is_inactive');
    expect(await roster(projectId)).toEqual(before);
  });

  it('still removes a member whose company access was revoked', async () => {
    const projectId = await newProject();
    await addProjectMember(t.database.db, projectId, u.revoked.id, 'Project Manager');
    await assignOk(u.revoked.id, projectId, null);
    expect(await roster(projectId)).toEqual({ [consultantId]: 'Lead Consultant' });
  });

  it('refuses clients who are not Client Lead and auditors with 403', async () => {
    const projectId = await newProject();
    await assignOk(u.paul.id, projectId, 'Project Manager');
    await addProjectMember(t.database.db, projectId, auditorId, 'Consultant');
    const before = await roster(projectId);
    await expectError(
      await assign(u.cleo.id, projectId, 'Project Manager', await cookieOf(u.paul)),
      403,
      'client_cannot_add_user_to_project',
    );
    await expectError(
      await assign(u.cleo.id, projectId, 'Project Manager', await cookieOf(u.dora)),
      403,
      'client_cannot_add_user_to_project',
    );
    await expectError(
      await assign(u.sam.id, projectId, 'Consultant', await t.cookieFor('auditor@demo.test')),
      403,
      'user_can_not_update_project',
    );
    expect(await roster(projectId)).toEqual(before);
  });

  it("lets the Client Lead give client roles to the company's users and remove non-lead clients, nothing more", async () => {
    const projectId = await newProject();
    await assignOk(u.cara.id, projectId, 'Client Lead');
    await assignOk(u.tess.id, projectId, 'Consultant');
    const cara = await cookieOf(u.cara);
    await assignOk(u.cleo.id, projectId, 'Project Manager', cara);
    await assignOk(u.cleo.id, projectId, null, cara);
    const before = await roster(projectId);
    await expectError(await assign(u.dora.id, projectId, 'Consultant', cara), 403, 'forbidden_role_assignment');
    await expectError(await assign(u.sam.id, projectId, 'Project Manager', cara), 403, 'forbidden_role_assignment');
    await expectError(await assign(u.tess.id, projectId, null, cara), 403, 'forbidden_role_assignment');
    await expectError(await assign(u.cara.id, projectId, null, cara), 409, 'lead_user_can_not_be_revoked');
    expect(await roster(projectId)).toEqual(before);
    // handing Client Lead on takes the caller off the roster, and with it the power to change it
    await assignOk(u.dora.id, projectId, 'Client Lead', cara);
    expect(await roster(projectId)).toEqual({
      [consultantId]: 'Lead Consultant',
      [u.tess.id]: 'Consultant',
      [u.dora.id]: 'Client Lead',
    });
    await expectError(
      await assign(u.cleo.id, projectId, 'Project Manager', cara),
      403,
      'client_cannot_add_user_to_project',
    );
  });

  it('never lets a Client Lead move a unique role away from staff: 403 forbidden_role_assignment, nothing changed', async () => {
    const projectId = await newProject();
    await assignOk(u.cara.id, projectId, 'Client Lead');
    await assignOk(u.sam.id, projectId, 'Project Manager');
    const before = await roster(projectId);
    await expectError(
      await assign(u.cleo.id, projectId, 'Project Manager', await cookieOf(u.cara)),
      403,
      'forbidden_role_assignment',
    );
    expect(await roster(projectId)).toEqual(before);
    // a client Project Manager is the Client Lead's to replace
    await assignOk(u.sam.id, projectId, 'Consultant');
    await assignOk(u.paul.id, projectId, 'Project Manager');
    await assignOk(u.cleo.id, projectId, 'Project Manager', await cookieOf(u.cara));
    expect((await roster(projectId))[u.paul.id]).toBeUndefined();
  });

  it('never makes an auditor Lead Consultant: 403 forbidden_role_assignment', async () => {
    const projectId = await newProject();
    await assignOk(auditorId, projectId, 'Consultant');
    const before = await roster(projectId);
    await expectError(await assign(auditorId, projectId, 'Lead Consultant'), 403, 'forbidden_role_assignment');
    expect(await roster(projectId)).toEqual(before);
  });

  it('holds one user per unique role in the database, and answers 409 project_role_taken when two requests race', async () => {
    const projectId = await newProject();
    await assignOk(u.cara.id, projectId, 'Client Lead');
    // the partial unique index refuses a second holder, whoever writes it
    const refused = await addProjectMember(t.database.db, projectId, u.cleo.id, 'Client Lead').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(refused)).toBe(true);
    await addProjectMember(t.database.db, projectId, u.sam.id, 'Consultant');
    await addProjectMember(t.database.db, projectId, u.tess.id, 'Consultant');
    const before = await roster(projectId);
    // a request that saw no holder (another gave the role meanwhile) meets the index
    const spy = jest.spyOn(projectsRepository, 'roleHolder').mockResolvedValue(null);
    try {
      const res = await assign(u.cleo.id, projectId, 'Client Lead');
      await expectError(res, 409, 'project_role_taken');
      expect(res.json().message).toBe('This role was just given to another user: reload the team and try again.');
    } finally {
      spy.mockRestore();
    }
    expect(await roster(projectId)).toEqual(before);
  });

  it('answers 404 project_not_found for a project the caller cannot see, and 400 for a bad body', async () => {
    const projectId = await newProject();
    await expectError(
      await assign(u.sam.id, projectId, 'Consultant', await t.cookieFor('client@globex.test')),
      404,
      'project_not_found',
    );
    await expectError(await assign(u.sam.id, 'no-such-project', 'Consultant'), 404, 'project_not_found');
    const cases: [payload: object, field: string][] = [
      [{ projectId, role: 'Owner' }, 'role'],
      [{ projectId }, 'role'],
      [{ role: 'Consultant' }, 'projectId'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.api({
        method: 'PATCH',
        url: `/api/v1/projects/roles/${u.sam.id}/assignments`,
        cookie: consultant,
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
    }
    expect(await roster(projectId)).toEqual({ [consultantId]: 'Lead Consultant' });
  });
});
