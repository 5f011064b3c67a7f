import { randomUUID } from 'node:crypto';
import type { ControlsReport, ReportOptions } from '@portal/shared/core/reports';
import type { RequestStatus } from '@portal/shared/core/requests';
import { setUserModuleAccess } from '../../../../db/module-access';
import { nowIso } from '../../../../db/values';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId as companyIdOf } from '../../../../test/identity';
import {
  insertControl,
  insertFile,
  insertTask,
  newActiveProject,
  newCompany,
  newUser,
} from '../../../../test/project-fixtures';
import { insertTestRequest, person, type Person } from '../../../../test/evidence-fixtures';

let t: TestApp;
let staff: string;
/** A company of this file's own: alpha (6 controls), Beta (3 controls), gamma (none). */
let companyId: string;
let alpha: string;
let beta: string;
let gamma: string;
/** A client member of the company: holds no project role, is assigned no request, so sees none of them. */
let client: Person;

const reportUrl = (company = companyId, query = '') =>
  `/api/v1/companies/${company}/reports/controls${query ? `?${query}` : ''}`;

async function report(query = '', cookie = staff, company = companyId): Promise<ControlsReport> {
  const res = await t.api({ method: 'GET', url: reportUrl(company, query), cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200, body: { kind: 'controls' } });
  return res.json() as ControlsReport;
}

async function refused(query: string, cookie: string, company = companyId): Promise<{ status: number; code: string }> {
  const res = await t.api({ method: 'GET', url: reportUrl(company, query), cookie });
  return { status: res.statusCode, code: res.json().code };
}

/** A control with these linked tasks and `points` points of focus, written straight to the database. */
async function control(projectId: string, name: string, taskIds: string[] = [], points = 0): Promise<string> {
  const id = await insertControl(t, projectId, name);
  const db = t.database.db;
  for (const taskId of taskIds)
    await db.insertInto('control_tasks').values({ control_id: id, task_id: taskId }).execute();
  for (let i = 1; i <= points; i += 1) {
    const now = nowIso();
    await db
      .insertInto('points_of_focus')
      .values({
        id: randomUUID(),
        control_id: id,
        project_id: projectId,
        name: `${name} POF ${i}`,
        description: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return id;
}

/** A task of the project holding a file (through task_files). */
async function taskWithFile(projectId: string): Promise<string> {
  const taskId = await insertTask(t, projectId);
  const fileId = await insertFile(t, projectId);
  await t.database.db
    .insertInto('task_files')
    .values({ task_id: taskId, file_id: fileId, created_by: null, created_at: nowIso() })
    .execute();
  return taskId;
}

/** A request of the project in `status` naming a control or a task; no assignee, so only staff see it. */
async function request(
  projectId: string,
  status: RequestStatus,
  names: { controlId?: string; taskId?: string },
): Promise<void> {
  const { id } = await insertTestRequest(t, { companyId, projectId, status });
  await t.database.db
    .updateTable('requests')
    .set({ control_id: names.controlId ?? null, task_id: names.taskId ?? null })
    .where('id', '=', id)
    .execute();
}

type Coverage = Omit<ControlsReport['totals'], 'percentCovered'>;

/**
 * The coverage of these projects' controls worked out in JS from the raw rows (the report's rule read
 * from the contract), per project in title order, with the totals.
 */
async function coverageFromRows(projectIds: string[]) {
  const db = t.database.db;
  const projects = await db.selectFrom('projects').select(['id', 'title']).where('id', 'in', projectIds).execute();
  const controls = await db
    .selectFrom('controls')
    .select(['id', 'project_id'])
    .where('project_id', 'in', projectIds)
    .execute();
  const links = await db.selectFrom('control_tasks').select(['control_id', 'task_id']).execute();
  const filedTasks = new Set((await db.selectFrom('task_files').select('task_id').execute()).map((r) => r.task_id));
  const requests = await db.selectFrom('requests').select(['status', 'control_id', 'task_id']).execute();
  const points = await db.selectFrom('points_of_focus').select('control_id').execute();
  const accepted = requests.filter((r) => r.status === 'accepted');

  const perControl = controls.map((c) => {
    const tasks = links.filter((l) => l.control_id === c.id).map((l) => l.task_id);
    const evidence =
      tasks.some((task) => filedTasks.has(task)) ||
      accepted.some((r) => r.control_id === c.id || (r.task_id !== null && tasks.includes(r.task_id)));
    return {
      projectId: c.project_id,
      tasks: tasks.length > 0,
      evidence,
      points: points.filter((p) => p.control_id === c.id).length,
    };
  });
  const coverageOf = (rows: typeof perControl): Coverage => ({
    controls: rows.length,
    withTasks: rows.filter((r) => r.tasks).length,
    withEvidence: rows.filter((r) => r.evidence).length,
    pointsOfFocus: rows.reduce((n, r) => n + r.points, 0),
    pointsOfFocusCovered: rows.reduce((n, r) => n + (r.evidence ? r.points : 0), 0),
  });
  const percent = (c: Coverage) => (c.controls ? Math.round((c.withEvidence / c.controls) * 1000) / 10 : 0);
  const byProject = projects
    .map((p) => ({ projectId: p.id, title: p.title, ...coverageOf(perControl.filter((r) => r.projectId === p.id)) }))
    .filter((p) => p.controls > 0)
    .sort((a, b) => a.title.toLowerCase().localeCompare(b.title.toLowerCase()))
    .map((p) => ({ ...p, percentCovered: percent(p) }));
  const totals = coverageOf(perControl);
  return { totals: { ...totals, percentCovered: percent(totals) }, byProject };
}

beforeAll(async () => {
  t = await createTestApp();
  staff = await t.cookieFor('consultant@demo.test');
  companyId = await newCompany(t, `Controls report ${randomUUID()}`);
  // Titles start with different words (the order is then the same under any collation); alpha in lower case.
  alpha = await newActiveProject(t, companyId, 'alpha coverage');
  beta = await newActiveProject(t, companyId, 'Beta coverage');
  gamma = await newActiveProject(t, companyId, 'gamma coverage');
  client = await person(t, { companyIds: [companyId] });

  // alpha: 6 controls, 4 with tasks, 3 with evidence (A2, A4, A5), 9 points of focus, 6 of them covered.
  const [filed, unfiled, shared, acceptedTask, unlinkedFiled] = [
    await taskWithFile(alpha),
    await insertTask(t, alpha),
    await insertTask(t, alpha),
    await insertTask(t, alpha),
    await taskWithFile(alpha),
  ];
  await control(alpha, 'A1');
  await control(alpha, 'A2', [filed, unfiled], 3);
  const a3 = await control(alpha, 'A3', [shared], 2);
  const a4 = await control(alpha, 'A4', [], 1);
  await control(alpha, 'A5', [acceptedTask], 2);
  await control(alpha, 'A6', [shared], 1);
  // Not evidence: requests that are not accepted, and an accepted one naming a task no control links.
  await request(alpha, 'submitted', { controlId: a3 });
  await request(alpha, 'open', { taskId: shared });
  await request(alpha, 'canceled', { controlId: a3, taskId: shared });
  await request(alpha, 'accepted', { taskId: unlinkedFiled });
  // Evidence: accepted requests naming the control (A4) and a linked task (A5).
  await request(alpha, 'accepted', { controlId: a4 });
  await request(alpha, 'accepted', { taskId: acceptedTask });

  // Beta: 3 controls, 2 with tasks, 1 with evidence (B1), 2 points of focus, none covered.
  await control(beta, 'B1', [await taskWithFile(beta)]);
  await control(beta, 'B2', [await insertTask(t, beta)], 2);
  await control(beta, 'B3');
});
afterAll(() => t.close());

describe('GET /api/v1/companies/:id/reports/controls', () => {
  it('counts controls, linked tasks, evidence and covered points of focus per project and in total', async () => {
    const body = await report();
    expect(body.totals).toEqual({
      controls: 9,
      withTasks: 6,
      withEvidence: 4,
      pointsOfFocus: 11,
      pointsOfFocusCovered: 6,
      percentCovered: 44.4,
    });
    expect(
      body.byProject.map(({ projectId, title, ...coverage }) => ({
        projectId,
        title: title.split(' ')[0],
        ...coverage,
      })),
    ).toEqual([
      {
        projectId: alpha,
        title: 'alpha',
        controls: 6,
        withTasks: 4,
        withEvidence: 3,
        pointsOfFocus: 9,
        pointsOfFocusCovered: 6,
        percentCovered: 50,
      },
      {
        projectId: beta,
        title: 'Beta',
        controls: 3,
        withTasks: 2,
        withEvidence: 1,
        pointsOfFocus: 2,
        pointsOfFocusCovered: 0,
        percentCovered: 33.3,
      },
    ]);
    expect({ totals: body.totals, byProject: body.byProject }).toEqual(await coverageFromRows([alpha, beta, gamma]));
  });

  it('is as of now: the period changes nothing but the heading', async () => {
    const all = await report();
    const period = await report('from=2020-01-01&to=2020-01-31');
    expect(period.meta).toMatchObject({ from: '2020-01-01', to: '2020-01-31' });
    expect({ totals: period.totals, byProject: period.byProject }).toEqual({
      totals: all.totals,
      byProject: all.byProject,
    });
  });

  it('covers only the chosen project; a project without controls has an empty report', async () => {
    const body = await report(`projectId=${beta}`);
    expect(body.meta.project).toEqual({ id: beta, title: expect.stringMatching(/^Beta coverage/) });
    const expected = await coverageFromRows([beta]);
    expect({ totals: body.totals, byProject: body.byProject }).toEqual(expected);
    expect(body.totals).toMatchObject({ controls: 3, withEvidence: 1, percentCovered: 33.3 });

    const empty = await report(`projectId=${gamma}`);
    expect({ totals: empty.totals, byProject: empty.byProject }).toEqual({
      totals: {
        controls: 0,
        withTasks: 0,
        withEvidence: 0,
        pointsOfFocus: 0,
        pointsOfFocusCovered: 0,
        percentCovered: 0,
      },
      byProject: [],
    });
  });

  it('counts accepted requests the caller cannot see: coverage is a fact of the controls', async () => {
    const visible = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${companyId}/requests`,
      cookie: client.cookie,
    });
    expect({ status: visible.statusCode, total: visible.json().total }).toEqual({ status: 200, total: 0 });
    const asClient = await report('', client.cookie);
    const asStaff = await report();
    expect({ totals: asClient.totals, byProject: asClient.byProject }).toEqual({
      totals: asStaff.totals,
      byProject: asStaff.byProject,
    });
  });

  it('an auditor covers only the projects they hold a role on; another project is 404', async () => {
    const auditor = await newUser(t, { isTevora: true, isAuditor: true });
    const cookie = await t.cookieFor(auditor.email);
    await t.database.db
      .insertInto('project_members')
      .values({ project_id: beta, user_id: auditor.id, role: 'Consultant' })
      .execute();
    const body = await report('', cookie);
    expect({ totals: body.totals, byProject: body.byProject }).toEqual(await coverageFromRows([beta]));
    expect(await refused(`projectId=${alpha}`, cookie)).toEqual({ status: 404, code: 'project_not_found' });
  });

  it("answers 404 for another company's project and 403 when the projects or reports module is off", async () => {
    const acmeProject = await newActiveProject(t, await companyIdOf(t, 'Acme Corp'), 'Acme coverage');
    expect(await refused(`projectId=${acmeProject}`, staff)).toEqual({ status: 404, code: 'project_not_found' });

    const noProjects = await person(t, { companyIds: [companyId] });
    await setUserModuleAccess(t.database.db, companyId, noProjects.id, 'projects', false);
    expect(await refused('', noProjects.cookie)).toEqual({ status: 403, code: 'module_access_denied' });
    const options = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${companyId}/reports/options`,
      cookie: noProjects.cookie,
    });
    expect((options.json() as ReportOptions).kinds).not.toContain('controls');

    const noReports = await person(t, { companyIds: [companyId] });
    await setUserModuleAccess(t.database.db, companyId, noReports.id, 'reports', false);
    expect(await refused('', noReports.cookie)).toEqual({ status: 403, code: 'module_access_denied' });
  });
});

describe('coverage through the request workflow', () => {
  it('accepting a request naming the control covers it; reopening the request uncovers it', async () => {
    const projectId = await newActiveProject(t, companyId, 'delta coverage');
    const controlId = await control(projectId, 'D1', [await insertTask(t, projectId)], 2);
    const created = await t.api({
      method: 'POST',
      url: `/api/v1/companies/${companyId}/requests`,
      cookie: staff,
      payload: { title: 'Access review', projectId, controlId, assigneeIds: [client.id] },
    });
    expect(created.statusCode).toBe(201);
    const requestId = created.json().id as string;
    const covered = async () => (await report(`projectId=${projectId}`)).totals;
    const transition = async (action: string, cookie: string) => {
      const res = await t.api({
        method: 'POST',
        url: `/api/v1/requests/${requestId}/transitions`,
        cookie,
        payload: { action },
      });
      expect({ action, status: res.statusCode }).toEqual({ action, status: 200 });
    };

    await t.database.db
      .insertInto('request_files')
      .values({
        id: randomUUID(),
        request_id: requestId,
        company_id: companyId,
        name: 'access-review.pdf',
        content_type: 'application/pdf',
        size: 100,
        sha256: 'a'.repeat(64),
        storage_key: `test/${randomUUID()}`,
        uploaded_by: client.id,
        created_at: nowIso(),
      })
      .execute();
    await transition('submit', client.cookie);
    expect(await covered()).toMatchObject({
      controls: 1,
      withTasks: 1,
      withEvidence: 0,
      pointsOfFocusCovered: 0,
      percentCovered: 0,
    });
    await transition('accept', staff);
    expect(await covered()).toMatchObject({
      controls: 1,
      withEvidence: 1,
      pointsOfFocus: 2,
      pointsOfFocusCovered: 2,
      percentCovered: 100,
    });
    await transition('reopen', staff);
    expect(await covered()).toMatchObject({ withEvidence: 0, pointsOfFocusCovered: 0, percentCovered: 0 });
  });
});
