import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import type { Project, ProjectCreate, ProjectList, ProjectsSummary } from '@portal/shared/core/projects';
import { addProjectMember } from '../../../db/projects';
import { insertPractice } from '../../../db/practices';
import { createTestApp, type TestApp } from '../../../test/app';
import { companyId } from '../../../test/identity';
import {
  auditRows,
  day,
  expectNulRefused,
  insertFile,
  insertTask,
  newCompany,
  newUser,
  type NulCase,
  projectIdOf,
  rowCount,
  userIdOf,
} from '../../../test/project-fixtures';

let t: TestApp;
let acmeId: string;
let globexId: string;
let admin: string;
let consultant: string;
let consultantId: string;
let socPractice: string;
let pciPractice: string;
let retiredPractice: string;

beforeAll(async () => {
  t = await createTestApp();
  acmeId = await companyId(t, 'Acme Corp');
  globexId = await companyId(t, 'Globex Inc');
  admin = await t.cookieFor('admin@demo.test');
  consultant = await t.cookieFor('consultant@demo.test');
  consultantId = await userIdOf(t, 'consultant@demo.test');
  const practice = (name: string) =>
    t.database.db.selectFrom('practices').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  socPractice = (await practice('SOC 2 Readiness')).id;
  pciPractice = (await practice('PCI DSS Assessment')).id;
  retiredPractice = await insertPractice(t.database.db, { name: 'Retired Practice', status: 'retired' });
});
afterAll(() => t.close());

const projectsUrl = (company: string) => `/api/v1/companies/${company}/projects`;

let titles = 0;
const uniqueTitle = (prefix = 'Project') => `${prefix} ${++titles} ${Date.now()}`;

async function create(payload: Partial<ProjectCreate> = {}, company = acmeId, cookie = consultant): Promise<Project> {
  const res = await t.api({
    method: 'POST',
    url: projectsUrl(company),
    cookie,
    payload: { title: uniqueTitle(), ...payload },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as Project;
}

async function getProject(id: string, cookie = consultant): Promise<Project> {
  const res = await t.api({ method: 'GET', url: `/api/v1/projects/${id}`, cookie });
  expect(res.statusCode).toBe(200);
  return res.json() as Project;
}

async function list(company: string, query = '', cookie = consultant): Promise<ProjectList> {
  const res = await t.api({ method: 'GET', url: `${projectsUrl(company)}${query}`, cookie });
  expect(res.statusCode).toBe(200);
  return res.json() as ProjectList;
}

const row = (id: string) =>
  t.database.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const setStatus = (id: string, status: string) =>
  t.database.db.updateTable('projects').set({ status }).where('id', '=', id).execute();

function setStatusCall(id: string, status: string, cookie = consultant) {
  return t.api({ method: 'POST', url: `/api/v1/projects/${id}/status`, cookie, payload: { status } });
}

describe('POST /api/v1/companies/:id/projects', () => {
  it('creates a pending project with the creator as Lead Consultant, and records it', async () => {
    const title = uniqueTitle('Readiness');
    const res = await t.api({
      method: 'POST',
      url: projectsUrl(acmeId),
      cookie: consultant,
      payload: {
        title: `  ${title} `,
        description: 'Scoping first',
        type: 'Readiness',
        practiceId: socPractice,
        startDate: '2026-01-05',
        dueDate: '2026-03-31',
      },
    });
    expect(res.statusCode).toBe(201);
    const project = res.json() as Project;
    expect(project).toMatchObject({
      companyId: acmeId,
      title,
      description: 'Scoping first',
      type: 'Readiness',
      status: 'pending',
      practice: { id: socPractice, name: 'SOC 2 Readiness' },
      startDate: '2026-01-05',
      dueDate: '2026-03-31',
      tasksTotal: 0,
      tasksDone: 0,
      tasksOverdue: 0,
      leadConsultant: { id: consultantId, email: 'consultant@demo.test' },
      clientLead: null,
      myRole: 'Lead Consultant',
      permissions: { manage: true, write: true, manageRoster: true },
    });
    expect(await getProject(project.id)).toEqual(project);
    const [entry] = await auditRows(t, 'project.create', project.id);
    expect(entry).toMatchObject({
      actor_email: 'consultant@demo.test',
      company_id: acmeId,
      target_label: title,
      after: { title, status: 'pending', leadConsultantId: consultantId },
    });
  });

  it('defaults the type and leaves the optional fields empty', async () => {
    const project = await create({ title: uniqueTitle('Bare') });
    expect(project).toMatchObject({
      type: 'Assessment',
      description: null,
      practice: null,
      startDate: null,
      dueDate: null,
    });
  });

  it('makes leadConsultantId the Lead Consultant when an admin creates for a colleague', async () => {
    const project = await create({ leadConsultantId: consultantId }, acmeId, admin);
    expect(project.leadConsultant?.id).toBe(consultantId);
    // the admin is not on the roster, yet manages the project as staff
    expect(project).toMatchObject({ myRole: null, permissions: { manage: true, write: true, manageRoster: true } });
  });

  it('refuses a leadConsultantId that is not an active staff user, or is an auditor, with 400 naming leadConsultantId', async () => {
    const suspended = await newUser(t, { isTevora: true, status: 'suspended' });
    const count = await rowCount(t, 'projects');
    for (const id of [
      await userIdOf(t, 'lead@acme.test'),
      suspended.id,
      await userIdOf(t, 'auditor@demo.test'),
      'no-such-user',
    ]) {
      const res = await t.api({
        method: 'POST',
        url: projectsUrl(acmeId),
        cookie: admin,
        payload: { title: uniqueTitle(), leadConsultantId: id },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'leadConsultantId' }] });
    }
    expect(await rowCount(t, 'projects')).toBe(count);
  });

  it('refuses a title any project already has, ignoring case, with 409 naming title', async () => {
    const count = await rowCount(t, 'projects');
    // titles are unique across companies too
    for (const title of ['acme soc 2 TYPE II 2026', 'Globex HIPAA Risk Assessment']) {
      const res = await t.api({ method: 'POST', url: projectsUrl(acmeId), cookie: consultant, payload: { title } });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'project_already_exist',
        message: ERROR_MESSAGES.project_already_exist,
        details: [{ field: 'title' }],
      });
    }
    expect(await rowCount(t, 'projects')).toBe(count);
  });

  it('answers 409 to the second of two requests racing for one title', async () => {
    const title = uniqueTitle('Race');
    const replies = await Promise.all(
      [0, 1].map(() => t.api({ method: 'POST', url: projectsUrl(acmeId), cookie: consultant, payload: { title } })),
    );
    expect(replies.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(replies.find((r) => r.statusCode === 409)!.json()).toMatchObject({
      code: 'project_already_exist',
      details: [{ field: 'title' }],
    });
  });

  it('refuses a practice that does not exist or is retired with 400 naming practiceId', async () => {
    const count = await rowCount(t, 'projects');
    for (const practiceId of ['no-such-practice', retiredPractice]) {
      const res = await t.api({
        method: 'POST',
        url: projectsUrl(acmeId),
        cookie: consultant,
        payload: { title: uniqueTitle(), practiceId },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'practiceId' }] });
    }
    expect(await rowCount(t, 'projects')).toBe(count);
  });

  it.each([
    [{}, 'title'],
    [{ title: '   ' }, 'title'],
    [{ title: 'x'.repeat(151) }, 'title'],
    [{ title: 'Typed', type: 'Party' }, 'type'],
    [{ title: 'Dated', startDate: '2026-02-30' }, 'startDate'],
    [{ title: 'Backwards', startDate: '2026-03-01', dueDate: '2026-02-01' }, 'dueDate'],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    const res = await t.api({ method: 'POST', url: projectsUrl(acmeId), cookie: consultant, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
  });

  it('refuses client users and auditors with 403, and users of another company with 404', async () => {
    const count = await rowCount(t, 'projects');
    const lead = await t.api({
      method: 'POST',
      url: projectsUrl(acmeId),
      cookie: await t.cookieFor('lead@acme.test'),
      payload: { title: uniqueTitle() },
    });
    expect(lead.statusCode).toBe(403);
    expect(lead.json().code).toBe('user_can_not_update_project');
    // the auditor sees Globex through their role there
    const auditor = await t.api({
      method: 'POST',
      url: projectsUrl(globexId),
      cookie: await t.cookieFor('auditor@demo.test'),
      payload: { title: uniqueTitle() },
    });
    expect(auditor.statusCode).toBe(403);
    expect(auditor.json().code).toBe('user_can_not_update_project');
    const outsider = await t.api({
      method: 'POST',
      url: projectsUrl(acmeId),
      cookie: await t.cookieFor('client@globex.test'),
      payload: { title: uniqueTitle() },
    });
    expect(outsider.statusCode).toBe(404);
    expect(await rowCount(t, 'projects')).toBe(count);
  });
});

describe('GET /api/v1/companies/:id/projects', () => {
  let companyIdOwn: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    companyIdOwn = await newCompany(t, `Listing Co ${Date.now()}`);
    const specs: [
      title: string,
      status: string,
      dueDate: string | null,
      practiceId: string | null,
      createdAt: string,
    ][] = [
      ['alpha audit', 'active', '2026-05-01', socPractice, '2025-01-04T00:00:00.000Z'],
      ['Bravo 100% review', 'pending', null, pciPractice, '2025-01-01T00:00:00.000Z'],
      ['charlie_check', 'completed', '2026-01-15', null, '2025-01-03T00:00:00.000Z'],
      ['Delta Assessment', 'on_hold', '2026-03-01', socPractice, '2025-01-02T00:00:00.000Z'],
      ['echo audit', 'canceled', null, null, '2025-01-05T00:00:00.000Z'],
    ];
    for (const [title, status, dueDate, practiceId, createdAt] of specs) {
      const project = await create({ title, dueDate, practiceId }, companyIdOwn);
      ids[title] = project.id;
      await t.database.db
        .updateTable('projects')
        .set({ status, created_at: createdAt })
        .where('id', '=', project.id)
        .execute();
    }
    // progress: alpha 1/4, Bravo none, charlie 2/2, Delta 1/2, echo none
    await insertTask(t, ids['alpha audit'], { status: 'COMPLETED' });
    await insertTask(t, ids['alpha audit'], { status: 'OPEN', dueDate: day(-1) });
    const parent = await insertTask(t, ids['alpha audit'], { status: 'IN_PROGRESS', dueDate: day(-3) });
    await insertTask(t, ids['alpha audit'], { status: 'OPEN', dueDate: day(0), parentId: parent });
    await insertTask(t, ids['charlie_check'], { status: 'COMPLETED', dueDate: day(-5) });
    await insertTask(t, ids['charlie_check'], { status: 'NOT_APPLICABLE', dueDate: day(-5) });
    await insertTask(t, ids['Delta Assessment'], { status: 'NOT_APPLICABLE' });
    await insertTask(t, ids['Delta Assessment'], { status: 'IN_REVIEW', dueDate: day(2) });
  });

  const titlesOf = (page: ProjectList) => page.results.map((p) => p.title);

  it('lists the projects by title, ignoring case, with counts over all tasks', async () => {
    const page = await list(companyIdOwn);
    expect(page).toMatchObject({ total: 5, page: 1, pageSize: 10 });
    expect(titlesOf(page)).toEqual([
      'alpha audit',
      'Bravo 100% review',
      'charlie_check',
      'Delta Assessment',
      'echo audit',
    ]);
    const alpha = page.results[0];
    // subtasks count; overdue is open work due before today (the due day itself is not overdue)
    expect(alpha).toMatchObject({
      tasksTotal: 4,
      tasksDone: 1,
      tasksOverdue: 2,
      status: 'active',
      practice: { id: socPractice },
    });
    expect(page.results[2]).toMatchObject({ tasksTotal: 2, tasksDone: 2, tasksOverdue: 0 });
    expect(page.results[1]).toMatchObject({ tasksTotal: 0, tasksDone: 0, tasksOverdue: 0 });
    expect(alpha).toEqual(await getProject(alpha.id));
  });

  it('sorts by title, status, due date, creation and progress, either way', async () => {
    expect(titlesOf(await list(companyIdOwn, '?sort=-title'))).toEqual([
      'echo audit',
      'Delta Assessment',
      'charlie_check',
      'Bravo 100% review',
      'alpha audit',
    ]);
    // lifecycle order: pending, active, on hold, completed, canceled
    expect(titlesOf(await list(companyIdOwn, '?sort=status'))).toEqual([
      'Bravo 100% review',
      'alpha audit',
      'Delta Assessment',
      'charlie_check',
      'echo audit',
    ]);
    expect(titlesOf(await list(companyIdOwn, '?sort=-status'))).toEqual([
      'echo audit',
      'charlie_check',
      'Delta Assessment',
      'alpha audit',
      'Bravo 100% review',
    ]);
    // without a due date: last either way
    expect(titlesOf(await list(companyIdOwn, '?sort=dueDate'))).toEqual([
      'charlie_check',
      'Delta Assessment',
      'alpha audit',
      'Bravo 100% review',
      'echo audit',
    ]);
    expect(titlesOf(await list(companyIdOwn, '?sort=-dueDate'))).toEqual([
      'alpha audit',
      'Delta Assessment',
      'charlie_check',
      'Bravo 100% review',
      'echo audit',
    ]);
    expect(titlesOf(await list(companyIdOwn, '?sort=createdAt'))).toEqual([
      'Bravo 100% review',
      'Delta Assessment',
      'charlie_check',
      'alpha audit',
      'echo audit',
    ]);
    expect(titlesOf(await list(companyIdOwn, '?sort=-createdAt'))).toEqual([
      'echo audit',
      'alpha audit',
      'charlie_check',
      'Delta Assessment',
      'Bravo 100% review',
    ]);
    // no tasks counts as no progress; ties by title
    expect(titlesOf(await list(companyIdOwn, '?sort=progress'))).toEqual([
      'Bravo 100% review',
      'echo audit',
      'alpha audit',
      'Delta Assessment',
      'charlie_check',
    ]);
    expect(titlesOf(await list(companyIdOwn, '?sort=-progress'))).toEqual([
      'charlie_check',
      'Delta Assessment',
      'alpha audit',
      'Bravo 100% review',
      'echo audit',
    ]);
  });

  it('filters by status (status[]= or status=), practice and title text', async () => {
    expect(titlesOf(await list(companyIdOwn, '?status[]=active&status[]=pending'))).toEqual([
      'alpha audit',
      'Bravo 100% review',
    ]);
    expect(titlesOf(await list(companyIdOwn, '?status=on_hold&status=canceled'))).toEqual([
      'Delta Assessment',
      'echo audit',
    ]);
    // both spellings at once: neither is dropped
    expect(titlesOf(await list(companyIdOwn, '?status=active&status[]=pending'))).toEqual([
      'alpha audit',
      'Bravo 100% review',
    ]);
    expect(titlesOf(await list(companyIdOwn, '?status=completed'))).toEqual(['charlie_check']);
    expect(titlesOf(await list(companyIdOwn, `?practiceId=${socPractice}`))).toEqual([
      'alpha audit',
      'Delta Assessment',
    ]);
    expect(titlesOf(await list(companyIdOwn, '?search=AUDIT'))).toEqual(['alpha audit', 'echo audit']);
    // LIKE wildcards are searched as text
    expect(titlesOf(await list(companyIdOwn, `?search=${encodeURIComponent('0%')}`))).toEqual(['Bravo 100% review']);
    expect(titlesOf(await list(companyIdOwn, '?search=_'))).toEqual(['charlie_check']);
    const combined = await list(companyIdOwn, `?search=audit&status[]=active&practiceId=${socPractice}`);
    expect(combined).toMatchObject({ total: 1 });
    expect(titlesOf(combined)).toEqual(['alpha audit']);
  });

  it('pages the results and reports the total', async () => {
    const second = await list(companyIdOwn, '?page=2&pageSize=2');
    expect(second).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(titlesOf(second)).toEqual(['charlie_check', 'Delta Assessment']);
    const past = await list(companyIdOwn, '?page=9&pageSize=2');
    expect(past).toMatchObject({ total: 5, results: [] });
  });

  it.each([
    ['?pageSize=0', 'pageSize'],
    ['?page=x', 'page'],
    ['?status=done', 'status'],
    ['?status=active&status[]=done', 'status'],
    ['?sort=owner', 'sort'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await t.api({ method: 'GET', url: `${projectsUrl(companyIdOwn)}${query}`, cookie: consultant });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
  });

  it('shows auditors only the projects where they hold a role', async () => {
    const auditorId = await userIdOf(t, 'auditor@demo.test');
    await addProjectMember(t.database.db, ids['Delta Assessment'], auditorId, 'Consultant');
    const page = await list(companyIdOwn, '', await t.cookieFor('auditor@demo.test'));
    expect(page.total).toBe(1);
    expect(page.results[0]).toMatchObject({
      title: 'Delta Assessment',
      myRole: 'Consultant',
      permissions: { manage: false, write: true, manageRoster: false },
    });
  });

  it("shows a client user their company's projects, read-only, and refuses them a new one", async () => {
    const client = await newUser(t, { companyIds: [companyIdOwn] });
    const cookie = await t.cookieFor(client.email);
    const page = await list(companyIdOwn, '', cookie);
    expect(page.total).toBe(5);
    expect(page.results[0]).toMatchObject({
      myRole: null,
      permissions: { manage: false, write: false, manageRoster: false },
    });
    const res = await t.api({
      method: 'POST',
      url: projectsUrl(companyIdOwn),
      cookie,
      payload: { title: uniqueTitle() },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('user_can_not_update_project');
  });

  it("lists Acme's projects to its members and answers 404 to a Globex user", async () => {
    const lead = await list(
      acmeId,
      `?search=${encodeURIComponent('acme soc 2 type ii 2026')}`,
      await t.cookieFor('lead@acme.test'),
    );
    expect(lead.results[0]).toMatchObject({
      title: 'Acme SOC 2 Type II 2026',
      myRole: 'Client Lead',
      permissions: { manage: false, write: true, manageRoster: true },
    });
    const res = await t.api({
      method: 'GET',
      url: projectsUrl(acmeId),
      cookie: await t.cookieFor('client@globex.test'),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('company_not_found');
  });
});

describe('GET /api/v1/companies/:id/projects/summary', () => {
  let own: string;
  const ids: string[] = [];

  beforeAll(async () => {
    own = await newCompany(t, `Summary Co ${Date.now()}`);
    // 12 projects: project i has i overdue tasks, so the chart keeps the top 10
    for (let i = 1; i <= 12; i += 1) {
      const project = await create(
        { title: `Summary ${String(i).padStart(2, '0')} ${Date.now()}`, practiceId: i === 1 ? pciPractice : null },
        own,
      );
      ids.push(project.id);
      for (let k = 0; k < i; k += 1)
        await insertTask(t, project.id, { status: k % 2 ? 'IN_PROGRESS' : 'OPEN', dueDate: day(-1 - k) });
    }
    await setStatus(ids[0], 'active');
    await setStatus(ids[1], 'active');
    await setStatus(ids[2], 'canceled');
    // due this week: today and 6 days ahead count; a week ahead, closed work and undated work do not
    await insertTask(t, ids[0], { status: 'OPEN', dueDate: day(0) });
    await insertTask(t, ids[0], { status: 'IN_REVIEW', dueDate: day(6) });
    await insertTask(t, ids[0], { status: 'INCOMPLETE', dueDate: day(7) });
    await insertTask(t, ids[0], { status: 'COMPLETED', dueDate: day(1) });
    await insertTask(t, ids[0], { status: 'NOT_APPLICABLE', dueDate: day(-2) });
    await insertTask(t, ids[0], { status: 'OPEN' });
  });

  async function summary(cookie = consultant, company = own): Promise<ProjectsSummary> {
    const res = await t.api({ method: 'GET', url: `${projectsUrl(company)}/summary`, cookie });
    expect(res.statusCode).toBe(200);
    return res.json() as ProjectsSummary;
  }

  it('counts projects and tasks by status, with every status present', async () => {
    const s = await summary();
    expect(s.projectsByStatus).toEqual({ pending: 9, active: 2, on_hold: 0, completed: 0, canceled: 1 });
    // 78 overdue tasks (42 OPEN, 36 IN_PROGRESS), plus the six above
    expect(s.tasksByStatus).toEqual({
      OPEN: 44,
      IN_PROGRESS: 36,
      INCOMPLETE: 1,
      IN_REVIEW: 1,
      COMPLETED: 1,
      NOT_APPLICABLE: 1,
    });
    expect(s.overdueTotal).toBe(78);
    expect(s.dueThisWeek).toBe(2);
    expect(s.practices).toEqual([{ id: pciPractice, name: 'PCI DSS Assessment' }]);
    expect(s.canCreate).toBe(true);
  });

  it('lists the ten projects with the most overdue work, most first', async () => {
    const s = await summary();
    expect(s.overdueByProject).toHaveLength(10);
    expect(s.overdueByProject.map((p) => p.overdue)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(s.overdueByProject[0]).toMatchObject({ projectId: ids[11], title: expect.stringMatching(/^Summary 12 /) });
  });

  it('counts only the projects an auditor holds a role on, and never offers them creation', async () => {
    await addProjectMember(t.database.db, ids[4], await userIdOf(t, 'auditor@demo.test'), 'Consultant');
    const s = await summary(await t.cookieFor('auditor@demo.test'));
    expect(s.projectsByStatus).toEqual({ pending: 1, active: 0, on_hold: 0, completed: 0, canceled: 0 });
    expect(s).toMatchObject({ overdueTotal: 5, dueThisWeek: 0, canCreate: false, practices: [] });
    expect(s.tasksByStatus).toEqual({
      OPEN: 3,
      IN_PROGRESS: 2,
      INCOMPLETE: 0,
      IN_REVIEW: 0,
      COMPLETED: 0,
      NOT_APPLICABLE: 0,
    });
    expect(s.overdueByProject).toEqual([{ projectId: ids[4], title: expect.any(String), overdue: 5 }]);
  });

  it('tells client users they cannot create, and answers 404 to another company', async () => {
    expect((await summary(await t.cookieFor('lead@acme.test'), acmeId)).canCreate).toBe(false);
    const res = await t.api({
      method: 'GET',
      url: `${projectsUrl(acmeId)}/summary`,
      cookie: await t.cookieFor('client@globex.test'),
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /api/v1/projects/:id', () => {
  it('gives each caller their role and what they may do', async () => {
    const soc = await projectIdOf(t, 'Acme SOC 2 Type II 2026');
    expect(await getProject(soc)).toMatchObject({
      title: 'Acme SOC 2 Type II 2026',
      leadConsultant: { email: 'consultant@demo.test' },
      clientLead: { email: 'lead@acme.test' },
      myRole: 'Lead Consultant',
      permissions: { manage: true, write: true, manageRoster: true },
    });
    expect(await getProject(soc, await t.cookieFor('lead@acme.test'))).toMatchObject({
      myRole: 'Client Lead',
      permissions: { manage: false, write: true, manageRoster: true },
    });
    const pci = await projectIdOf(t, 'Acme PCI DSS Assessment');
    expect(await getProject(pci, await t.cookieFor('member@acme.test'))).toMatchObject({
      myRole: 'Project Manager',
      permissions: { manage: false, write: true, manageRoster: false },
    });
  });

  it('answers 404 project_not_found to another company, to an auditor without a role, and for an unknown id', async () => {
    const soc = await projectIdOf(t, 'Acme SOC 2 Type II 2026');
    for (const [email, id] of [
      ['client@globex.test', soc],
      ['auditor@demo.test', soc],
      ['admin@demo.test', 'no-such-project'],
    ]) {
      const res = await t.api({ method: 'GET', url: `/api/v1/projects/${id}`, cookie: await t.cookieFor(email) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'project_not_found', message: ERROR_MESSAGES.project_not_found });
    }
  });
});

describe('PATCH /api/v1/projects/:id', () => {
  const patch = (id: string, payload: unknown, cookie = consultant) =>
    t.api({ method: 'PATCH', url: `/api/v1/projects/${id}`, cookie, payload: payload as object });

  it('changes the fields sent, keeps the others, and records before and after', async () => {
    const project = await create({ description: 'Old', startDate: '2026-01-01' });
    const title = uniqueTitle('Renamed');
    const res = await patch(project.id, {
      title,
      description: '',
      dueDate: '2026-02-01',
      type: 'Audit',
      practiceId: pciPractice,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: project.id,
      title,
      description: null,
      startDate: '2026-01-01',
      dueDate: '2026-02-01',
      type: 'Audit',
      practice: { id: pciPractice },
    });
    const [entry] = await auditRows(t, 'project.update', project.id);
    expect(entry.before).toEqual({
      title: project.title,
      description: 'Old',
      type: 'Assessment',
      practiceId: null,
      dueDate: null,
    });
    expect(entry.after).toEqual({
      title,
      description: null,
      type: 'Audit',
      practiceId: pciPractice,
      dueDate: '2026-02-01',
    });
    // its own title in another case is not taken
    expect((await patch(project.id, { title: title.toUpperCase() })).statusCode).toBe(200);
  });

  it('refuses a title another project has with 409 and changes nothing', async () => {
    const project = await create();
    const before = await row(project.id);
    const res = await patch(project.id, { title: 'ACME PCI DSS ASSESSMENT', description: 'Not saved' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'project_already_exist', details: [{ field: 'title' }] });
    expect(await row(project.id)).toEqual(before);
  });

  it('switches the type only while every task is OPEN or INCOMPLETE', async () => {
    const project = await create();
    await insertTask(t, project.id, { status: 'OPEN' });
    await insertTask(t, project.id, { status: 'INCOMPLETE' });
    expect((await patch(project.id, { type: 'Advisory' })).statusCode).toBe(200);
    await insertTask(t, project.id, { status: 'IN_REVIEW' });
    const before = await row(project.id);
    const res = await patch(project.id, { type: 'Audit', title: uniqueTitle('Not saved') });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'project_type_cannot_be_switched',
      message: ERROR_MESSAGES.project_type_cannot_be_switched,
    });
    expect(await row(project.id)).toEqual(before);
    // the same type is no switch
    expect((await patch(project.id, { type: 'Advisory' })).statusCode).toBe(200);
  });

  it('changes the practice only while the project has no task', async () => {
    const project = await create({ practiceId: socPractice });
    expect((await patch(project.id, { practiceId: pciPractice })).statusCode).toBe(200);
    await insertTask(t, project.id, { status: 'COMPLETED' });
    const before = await row(project.id);
    for (const practiceId of [socPractice, null]) {
      const res = await patch(project.id, { practiceId, description: 'Not saved' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'practices_can_not_be_changed_when_project_has_tasks' });
    }
    expect(await row(project.id)).toEqual(before);
    expect((await patch(project.id, { practiceId: pciPractice, description: 'Saved' })).statusCode).toBe(200);
  });

  it('refuses a practice that is not active and a due date before the stored start with 400', async () => {
    const project = await create({ startDate: '2026-06-01' });
    const before = await row(project.id);
    const practice = await patch(project.id, { practiceId: retiredPractice });
    expect(practice.statusCode).toBe(400);
    expect(practice.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'practiceId' }] });
    const due = await patch(project.id, { dueDate: '2026-05-31' });
    expect(due.statusCode).toBe(400);
    expect(due.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'dueDate' }] });
    const bad = await patch(project.id, { title: '' });
    expect(bad.statusCode).toBe(400);
    expect(await row(project.id)).toEqual(before);
  });

  it('refuses Client Leads and auditors with 403 user_can_not_update_project', async () => {
    const soc = await projectIdOf(t, 'Acme SOC 2 Type II 2026');
    const hipaa = await projectIdOf(t, 'Globex HIPAA Risk Assessment');
    for (const [email, id] of [
      ['lead@acme.test', soc],
      ['auditor@demo.test', hipaa],
    ]) {
      const res = await patch(id, { description: 'Mine now' }, await t.cookieFor(email));
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('user_can_not_update_project');
    }
  });
});

describe('POST /api/v1/projects/:id/status', () => {
  async function withClientLead(): Promise<Project> {
    const project = await create();
    await addProjectMember(t.database.db, project.id, await userIdOf(t, 'lead@acme.test'), 'Client Lead');
    return project;
  }

  it('activates a project that has a Client Lead and a Lead Consultant, and records it', async () => {
    const project = await withClientLead();
    const res = await setStatusCall(project.id, 'active');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: project.id, status: 'active' });
    expect(await auditRows(t, 'project.status', project.id)).toEqual([
      expect.objectContaining({
        before: { status: 'pending' },
        after: { status: 'active' },
        actor_email: 'consultant@demo.test',
      }),
    ]);
    // the same status again changes nothing
    expect((await setStatusCall(project.id, 'active')).statusCode).toBe(200);
    expect(await auditRows(t, 'project.status', project.id)).toHaveLength(1);
  });

  it('refuses activation without a Client Lead, then without a Lead Consultant, with 409', async () => {
    const project = await create();
    const before = await row(project.id);
    const noClientLead = await setStatusCall(project.id, 'active');
    expect(noClientLead.statusCode).toBe(409);
    expect(noClientLead.json()).toMatchObject({
      code: 'client_lead_missing_in_project',
      message: 'Client Lead Role must be set to activate the project.',
    });
    // both missing: the Client Lead is named first
    await t.database.db.deleteFrom('project_members').where('project_id', '=', project.id).execute();
    expect((await setStatusCall(project.id, 'active')).json().code).toBe('client_lead_missing_in_project');
    await addProjectMember(t.database.db, project.id, await userIdOf(t, 'lead@acme.test'), 'Client Lead');
    const noLead = await setStatusCall(project.id, 'active');
    expect(noLead.statusCode).toBe(409);
    expect(noLead.json()).toMatchObject({
      code: 'lead_consultant_missing_in_project',
      message: ERROR_MESSAGES.lead_consultant_missing_in_project,
    });
    expect(await row(project.id)).toEqual(before);
    expect(await auditRows(t, 'project.status', project.id)).toEqual([]);
  });

  it('counts a suspended Client Lead or Lead Consultant as missing', async () => {
    const project = await create();
    const clientLead = await newUser(t, { companyIds: [acmeId] });
    const lead = await newUser(t, { isTevora: true });
    await t.database.db.deleteFrom('project_members').where('project_id', '=', project.id).execute();
    await addProjectMember(t.database.db, project.id, clientLead.id, 'Client Lead');
    await addProjectMember(t.database.db, project.id, lead.id, 'Lead Consultant');
    const suspend = (id: string, status: 'active' | 'suspended') =>
      t.database.db.updateTable('users').set({ status }).where('id', '=', id).execute();
    await suspend(clientLead.id, 'suspended');
    expect((await setStatusCall(project.id, 'active')).json()).toMatchObject({
      code: 'client_lead_missing_in_project',
    });
    await suspend(clientLead.id, 'active');
    await suspend(lead.id, 'suspended');
    expect((await setStatusCall(project.id, 'active')).json()).toMatchObject({
      code: 'lead_consultant_missing_in_project',
    });
    expect((await row(project.id)).status).toBe('pending');
    await suspend(lead.id, 'active');
    expect((await setStatusCall(project.id, 'active')).json()).toMatchObject({ status: 'active' });
  });

  it('checks the leads when a project on hold or completed becomes active again', async () => {
    for (const from of ['on_hold', 'completed']) {
      const project = await create();
      await setStatus(project.id, from);
      expect((await setStatusCall(project.id, 'active')).json().code).toBe('client_lead_missing_in_project');
      await addProjectMember(t.database.db, project.id, await userIdOf(t, 'lead@acme.test'), 'Client Lead');
      expect((await setStatusCall(project.id, 'active')).statusCode).toBe(200);
    }
  });

  it('moves only along the machine, with 409 invalid_status_transition naming both statuses', async () => {
    const project = await withClientLead();
    expect((await setStatusCall(project.id, 'on_hold')).statusCode).toBe(409);
    expect((await setStatusCall(project.id, 'active')).statusCode).toBe(200);
    expect((await setStatusCall(project.id, 'on_hold')).statusCode).toBe(200);
    const back = await setStatusCall(project.id, 'pending');
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({
      code: 'invalid_status_transition',
      message: expect.stringMatching(/On hold.*Pending/),
    });
    expect((await setStatusCall(project.id, 'active')).statusCode).toBe(200);
    expect((await setStatusCall(project.id, 'completed')).statusCode).toBe(200);
    expect((await setStatusCall(project.id, 'canceled')).json().code).toBe('invalid_status_transition');
    expect((await row(project.id)).status).toBe('completed');
  });

  it('cancels only a project without tasks and without files; a canceled project goes back to pending', async () => {
    const withTask = await create();
    const task = await insertTask(t, withTask.id, { status: 'COMPLETED' });
    await insertFile(t, withTask.id);
    const before = await row(withTask.id);
    const tasks = await setStatusCall(withTask.id, 'canceled');
    expect(tasks.statusCode).toBe(409);
    expect(tasks.json()).toMatchObject({
      code: 'project_with_tasks_cannot_be_canceled',
      message: ERROR_MESSAGES.project_with_tasks_cannot_be_canceled,
    });
    await t.database.db.deleteFrom('tasks').where('id', '=', task).execute();
    const files = await setStatusCall(withTask.id, 'canceled');
    expect(files.statusCode).toBe(409);
    expect(files.json()).toMatchObject({
      code: 'project_with_files_cannot_be_canceled',
      message: ERROR_MESSAGES.project_with_files_cannot_be_canceled,
    });
    expect(await row(withTask.id)).toEqual(before);

    const empty = await create();
    expect((await setStatusCall(empty.id, 'canceled')).json()).toMatchObject({ status: 'canceled' });
    expect((await setStatusCall(empty.id, 'active')).json().code).toBe('invalid_status_transition');
    expect((await setStatusCall(empty.id, 'pending')).json()).toMatchObject({ status: 'pending' });
  });

  it('refuses an unknown status with 400 and a Client Lead with 403', async () => {
    const project = await withClientLead();
    const bad = await setStatusCall(project.id, 'archived');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'status' }] });
    const lead = await setStatusCall(project.id, 'active', await t.cookieFor('lead@acme.test'));
    expect(lead.statusCode).toBe(403);
    expect(lead.json().code).toBe('user_can_not_update_project');
    expect((await row(project.id)).status).toBe('pending');
  });
});

describe('NUL characters', () => {
  it('are refused with 400 naming the field or parameter, on the project routes', async () => {
    const project = await create();
    const count = await rowCount(t, 'projects');
    const cases: NulCase[] = [
      ['GET', '/api/v1/projects/%00', undefined, 'id'],
      ['GET', '/api/v1/projects/a%00b/users', undefined, 'id'],
      ['POST', projectsUrl(acmeId), { title: 'a\u0000b' }, 'title'],
      ['POST', projectsUrl(acmeId), { title: 'ok', leadConsultantId: '\u0000' }, 'leadConsultantId'],
      ['PATCH', `/api/v1/projects/${project.id}`, { description: 'x\u0000y' }, 'description'],
      ['GET', `${projectsUrl(acmeId)}?search=%00`, undefined, 'search'],
      ['GET', `${projectsUrl(acmeId)}?practiceId=%00`, undefined, 'practiceId'],
      ['GET', `/api/v1/companies/%00/projects`, undefined, 'id'],
    ];
    await expectNulRefused(t, consultant, cases);
    expect(await rowCount(t, 'projects')).toBe(count);
    expect((await getProject(project.id)).description).toBeNull();
  });
});
