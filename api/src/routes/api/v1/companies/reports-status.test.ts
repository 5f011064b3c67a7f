import { CLOSED_TASK_STATUSES, TASK_STATUSES, type TaskStatus } from '@portal/shared/core/projects';
import { REPORT_MAX_PROGRESS_POINTS, percentOf, type StatusReport } from '@portal/shared/core/reports';
import { setUserModuleAccess } from '../../../../db/module-access';
import { addDays } from '../../../../db/reports/scope';
import { toIso } from '../../../../db/values';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId } from '../../../../test/identity';
import {
  cookiesFor,
  day as dayFromNow,
  insertTask,
  newActiveProject,
  newCompany,
  newUser,
  postTask,
  userIdsByEmail,
} from '../../../../test/project-fixtures';

let t: TestApp;
let company: string;
let acmeId: string;
let acmeProjectId: string;
let consultant: string;
/** Titled so that they list alpha, beta, gamma; gamma has no tasks. */
let alpha: string;
let beta: string;
let gamma: string;
/** Tasks at fixed 2024–2025 instants, for the progress series. */
let progress: string;
let auditor: { id: string; cookie: string };

/**
 * The day the file runs on, fixed when it starts: every report call names it (`today=`), so the figures
 * do not move when the run crosses UTC midnight.
 */
const TODAY = dayFromNow(0);
const day = (offset = 0) => addDays(TODAY, offset);
const withToday = (query: string) =>
  /(^|&)today=/.test(query) ? query : [query, `today=${TODAY}`].filter(Boolean).join('&');
const url = (query = '', id = company) => `/api/v1/companies/${id}/reports/status${query ? `?${query}` : ''}`;
const at = (offset: number, time = '10:00:00.000') => `${day(offset)}T${time}Z`;

/** A task as the routes would leave it: closed ones stamped (COMPLETED: completed_at; both: closed_at, updated_at). */
async function task(
  projectId: string,
  options: { created: string; status?: TaskStatus; due?: string | null; closed?: string; parentId?: string },
): Promise<string> {
  const id = await insertTask(t, projectId, {
    createdAt: options.created,
    status: options.status,
    dueDate: options.due ?? null,
    parentId: options.parentId ?? null,
  });
  if (options.closed) {
    await t.database.db
      .updateTable('tasks')
      .set({
        completed_at: options.status === 'COMPLETED' ? options.closed : null,
        closed_at: options.closed,
        updated_at: options.closed,
      })
      .where('id', '=', id)
      .execute();
  }
  return id;
}

async function report(query = '', cookie = consultant, id = company): Promise<StatusReport> {
  const res = await t.api({ method: 'GET', url: url(withToday(query), id), cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
  return res.json() as StatusReport;
}

/** The figures the report must show, counted here from the company's task rows. */
async function expected(options: { projectIds: string[]; from?: string; to?: string; today?: string }) {
  const rows = await t.database.db
    .selectFrom('tasks')
    .select(['project_id', 'status', 'due_date', 'created_at'])
    .where('company_id', '=', company)
    .execute();
  const today = options.today ?? day(0);
  const inPeriod = rows
    .map((r) => ({ ...r, day: toIso(r.created_at).slice(0, 10) }))
    .filter(
      (r) =>
        options.projectIds.includes(r.project_id) &&
        (!options.from || r.day >= options.from) &&
        (!options.to || r.day <= options.to),
    );
  const closed = (r: { status: string }) => CLOSED_TASK_STATUSES.includes(r.status as TaskStatus);
  const overdue = (r: { status: string; due_date: string | null }) =>
    !closed(r) && r.due_date !== null && r.due_date < today;
  const figures = (tasks: typeof inPeriod) => {
    const done = tasks.filter(closed).length;
    return {
      tasks: tasks.length,
      open: tasks.length - done,
      closed: done,
      overdue: tasks.filter(overdue).length,
      percentClosed: percentOf(done, tasks.length),
    };
  };
  return {
    totals: figures(inPeriod),
    byStatus: TASK_STATUSES.map((status) => ({ status, count: inPeriod.filter((r) => r.status === status).length })),
    byProject: options.projectIds.map((projectId) => ({
      projectId,
      ...figures(inPeriod.filter((r) => r.project_id === projectId)),
    })),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  acmeId = await companyId(t, 'Acme Corp');
  const userIds = await userIdsByEmail(t);
  consultant = (await cookiesFor(t, ['consultant@demo.test']))['consultant@demo.test'];
  company = await newCompany(t, `Status report ${Date.now()}`);
  const auditorUser = await newUser(t, { isTevora: true, isAuditor: true });
  auditor = { id: auditorUser.id, cookie: await t.cookieFor(auditorUser.email) };
  alpha = await newActiveProject(t, company, 'Alpha', [[auditor.id, 'Consultant']]);
  beta = await newActiveProject(t, company, 'Beta');
  gamma = await newActiveProject(t, company, 'Gamma');
  progress = await newActiveProject(t, company, 'Progress');
  acmeProjectId = await newActiveProject(t, acmeId, 'Acme status report', [
    [userIds['consultant@demo.test'], 'Lead Consultant'],
  ]);

  const parent = await task(alpha, { created: at(-40), due: day(-1) });
  await task(alpha, { created: at(-20), status: 'IN_PROGRESS', due: day(5) });
  await task(alpha, { created: at(-20), status: 'COMPLETED', due: day(-30), closed: at(-10) });
  await task(alpha, { created: at(-5), status: 'NOT_APPLICABLE', closed: at(-3) });
  await task(alpha, { created: at(-3), status: 'IN_REVIEW', due: day(-2), parentId: parent });
  await task(alpha, { created: at(-200), status: 'COMPLETED', closed: at(-150) });
  await task(alpha, { created: at(-1), status: 'INCOMPLETE', due: day(0) });
  await task(beta, { created: at(-10) });
  await task(beta, { created: at(-60), status: 'COMPLETED', due: day(-90), closed: at(-1) });
  // Another company's tasks never count.
  await task(acmeProjectId, { created: at(-2), due: day(-1) });

  // Weeks of 2025-03-05 (a Wednesday) to 2025-03-25 (a Tuesday): 03-05..09, 03-10..16, 03-17..23, 03-24..25.
  await task(progress, {
    created: '2024-12-24T09:00:00.000Z',
    status: 'COMPLETED',
    closed: '2025-01-02T09:00:00.000Z',
  });
  await task(progress, { created: '2025-03-04T23:59:59.999Z' });
  await task(progress, {
    created: '2025-03-05T00:00:00.000Z',
    status: 'COMPLETED',
    closed: '2025-03-12T15:00:00.000Z',
  });
  await task(progress, { created: '2025-03-09T12:00:00.000Z' });
  await task(progress, {
    created: '2025-03-10T08:00:00.000Z',
    status: 'COMPLETED',
    closed: '2025-03-30T08:00:00.000Z',
  });
  await task(progress, {
    created: '2025-03-20T08:00:00.000Z',
    status: 'NOT_APPLICABLE',
    closed: '2025-03-21T08:00:00.000Z',
  });
  await task(progress, { created: '2025-03-25T23:59:59.999Z', status: 'IN_PROGRESS' });
  await task(progress, { created: '2025-03-26T00:00:00.000Z' });
});
afterAll(() => t.close());

describe('status report', () => {
  it('counts every project of the company, all time, as the task rows do', async () => {
    const body = await report();
    const want = await expected({ projectIds: [alpha, beta, gamma, progress] });
    expect(body.kind).toBe('status');
    expect(body.totals).toEqual(want.totals);
    expect(body.byStatus).toEqual(want.byStatus);
    expect(body.byProject).toEqual(want.byProject.map((p) => expect.objectContaining(p)));
    expect(body.byProject.map((p) => [p.title.split(' ')[0], p.status])).toEqual([
      ['Alpha', 'active'],
      ['Beta', 'active'],
      ['Gamma', 'active'],
      ['Progress', 'active'],
    ]);
    expect(body.totals).toMatchObject({ tasks: 17, closed: 8, overdue: 2 });
    expect(body.meta).toMatchObject({ company: { id: company }, project: null, from: null, to: null, today: day(0) });
  });

  it('counts the tasks created in the period, its first and last days included', async () => {
    const from = day(-20);
    const to = day(-3);
    const body = await report(`from=${from}&to=${to}`);
    const want = await expected({ projectIds: [alpha, beta, gamma, progress], from, to });
    expect(body.totals).toEqual(want.totals);
    expect(body.byStatus).toEqual(want.byStatus);
    expect(body.byProject).toEqual(want.byProject.map((p) => expect.objectContaining(p)));
    // alpha: -20 twice, -5, -3; beta: -10.
    expect(body.totals.tasks).toBe(5);
    expect(body.meta).toMatchObject({ from, to });
  });

  it('measures overdue against the caller’s today', async () => {
    const now = await report(`projectId=${alpha}`);
    const tomorrow = await report(`projectId=${alpha}&today=${day(1)}`);
    // The INCOMPLETE task is due today: overdue only from tomorrow.
    expect(tomorrow.totals.overdue).toBe(now.totals.overdue + 1);
    expect(tomorrow.totals).toEqual((await expected({ projectIds: [alpha], today: day(1) })).totals);
    expect(tomorrow.meta.today).toBe(day(1));
  });

  it('reports one project, with every status listed and the project named in meta', async () => {
    const body = await report(`projectId=${beta}`);
    const want = await expected({ projectIds: [beta] });
    expect(body.totals).toEqual(want.totals);
    expect(body.byStatus).toEqual(want.byStatus);
    expect(body.byProject).toHaveLength(1);
    expect(body.byProject[0]).toMatchObject(want.byProject[0]);
    expect(body.meta.project).toEqual({ id: beta, title: expect.stringMatching(/^Beta /) });
  });

  it('answers zeros and an empty series for a project without tasks', async () => {
    const body = await report(`projectId=${gamma}`);
    expect(body.totals).toEqual({ tasks: 0, open: 0, closed: 0, overdue: 0, percentClosed: 0 });
    expect(body.byStatus).toEqual(TASK_STATUSES.map((status) => ({ status, count: 0 })));
    expect(body.byProject).toEqual([expect.objectContaining({ projectId: gamma, tasks: 0, percentClosed: 0 })]);
    expect(body.progress.points).toEqual([]);
  });

  describe('progress', () => {
    it('is weekly, Monday to Sunday, clipped to a short period; closed by completion day; open at each end', async () => {
      const body = await report(`projectId=${progress}&from=2025-03-05&to=2025-03-25`);
      expect(body.progress).toEqual({
        bucket: 'week',
        points: [
          { start: '2025-03-05', end: '2025-03-09', created: 2, closed: 0, open: 2 },
          { start: '2025-03-10', end: '2025-03-16', created: 1, closed: 1, open: 2 },
          // NOT_APPLICABLE has no completed_at: it closed the day it moved there (closed_at).
          { start: '2025-03-17', end: '2025-03-23', created: 1, closed: 1, open: 2 },
          { start: '2025-03-24', end: '2025-03-25', created: 1, closed: 0, open: 3 },
        ],
      });
      // Closed after the period: closed in the totals, still open at the series' end.
      expect(body.totals).toMatchObject({ tasks: 5, closed: 3, open: 2 });
    });

    it('is monthly beyond REPORT_WEEKLY_MAX_DAYS, calendar months clipped to the series: from the first task’s day, not `from`', async () => {
      const body = await report(`projectId=${progress}&from=2024-11-15&to=2025-06-10`);
      expect(body.progress).toEqual({
        bucket: 'month',
        points: [
          { start: '2024-12-24', end: '2024-12-31', created: 1, closed: 0, open: 1 },
          { start: '2025-01-01', end: '2025-01-31', created: 0, closed: 1, open: 0 },
          { start: '2025-02-01', end: '2025-02-28', created: 0, closed: 0, open: 0 },
          { start: '2025-03-01', end: '2025-03-31', created: 7, closed: 3, open: 4 },
          { start: '2025-04-01', end: '2025-04-30', created: 0, closed: 0, open: 4 },
          { start: '2025-05-01', end: '2025-05-31', created: 0, closed: 0, open: 4 },
          { start: '2025-06-01', end: '2025-06-10', created: 0, closed: 0, open: 4 },
        ],
      });
    });

    it('switches to months when the series spans REPORT_WEEKLY_MAX_DAYS + 1 days', async () => {
      // The series starts on the first task's day, 2024-12-24: to 2025-04-22 is 120 days; one more is 121.
      expect((await report(`projectId=${progress}&from=2024-12-01&to=2025-04-22`)).progress.bucket).toBe('week');
      expect((await report(`projectId=${progress}&from=2024-12-01&to=2025-04-23`)).progress.bucket).toBe('month');
    });

    it('is progress so far: an open-ended period far ahead or far back spans only the first task’s day to today', async () => {
      for (const query of [`to=${day(365)}`, 'from=2000-01-01', `from=2024-01-01&to=${day(365)}`]) {
        const body = await report(`projectId=${progress}&${query}`);
        const points = body.progress.points;
        expect({
          query,
          bucket: body.progress.bucket,
          first: points[0].start,
          last: points[points.length - 1].end,
        }).toEqual({
          query,
          bucket: 'month',
          first: '2024-12-24',
          last: day(0),
        });
        expect(points.reduce((n, p) => n + p.created, 0)).toBe(body.totals.tasks);
      }
      // Nothing in the period yet: no points.
      expect((await report(`projectId=${progress}&from=${day(1)}`)).progress.points).toEqual([]);
    });

    it('runs from the first task’s day to today when the period is open, and adds up to the totals', async () => {
      for (const query of [`projectId=${progress}`, '']) {
        const body = await report(query);
        const points = body.progress.points;
        expect(points.length).toBeGreaterThan(1);
        expect(points[points.length - 1].end).toBe(day(0));
        expect(points.reduce((n, p) => n + p.created, 0)).toBe(body.totals.tasks);
        expect(points.reduce((n, p) => n + p.closed, 0)).toBe(body.totals.closed);
        expect(points[points.length - 1].open).toBe(body.totals.open);
        for (let i = 1; i < points.length; i += 1) expect(points[i].start > points[i - 1].end).toBe(true);
      }
      expect((await report(`projectId=${progress}`)).progress.points[0].start).toBe('2024-12-24');
      expect((await report(`projectId=${alpha}`)).progress.points[0].start).toBe(day(-200));
    });

    it('keeps at most REPORT_MAX_PROGRESS_POINTS points, the latest, however old the first task', async () => {
      const other = await newCompany(t, `Status long ago ${Date.now()}`);
      const projectId = await newActiveProject(t, other, 'Long ago');
      await task(projectId, { created: '1960-01-15T10:00:00.000Z' });
      await task(projectId, { created: at(-1) });
      const points = (await report(`projectId=${projectId}`, consultant, other)).progress.points;
      const today = new Date(`${day(0)}T00:00:00Z`);
      const firstMonth = new Date(
        Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (REPORT_MAX_PROGRESS_POINTS - 1), 1),
      )
        .toISOString()
        .slice(0, 10);
      expect(points).toHaveLength(REPORT_MAX_PROGRESS_POINTS);
      expect({ start: points[0].start, end: points[points.length - 1].end }).toEqual({
        start: firstMonth,
        end: day(0),
      });
      // The task made before the first point is open at its end.
      expect(points[0].open).toBe(1);
      expect(points[points.length - 1].open).toBe(2);
    });
  });

  describe('closing day', () => {
    it('is when a task moved to a closed status: a later edit does not move it, reopening clears it', async () => {
      const other = await newCompany(t, `Status closing ${Date.now()}`);
      const projectId = await newActiveProject(t, other, 'Closing');
      const { id } = await postTask(t, consultant, projectId, { title: 'Not needed' });
      const taskUrl = `/api/v1/projects/${projectId}/tasks/${id}`;
      const move = (status: TaskStatus) =>
        t.api({ method: 'POST', url: `${taskUrl}/status`, cookie: consultant, payload: { status } });
      const stamp = async () =>
        (await t.database.db.selectFrom('tasks').select('closed_at').where('id', '=', id).executeTakeFirstOrThrow())
          .closed_at;
      expect((await move('NOT_APPLICABLE')).statusCode).toBe(200);
      expect(await stamp()).not.toBeNull();
      // As if it had been made and set aside weeks ago; edited today.
      await t.database.db
        .updateTable('tasks')
        .set({ created_at: at(-30), updated_at: at(-20), closed_at: at(-20) })
        .where('id', '=', id)
        .execute();
      expect(
        (await t.api({ method: 'PATCH', url: taskUrl, cookie: consultant, payload: { title: 'Not needed after all' } }))
          .statusCode,
      ).toBe(200);

      const query = `projectId=${projectId}&from=${day(-30)}`;
      const bucketOf = (body: StatusReport, d: string) => body.progress.points.find((p) => p.start <= d && d <= p.end)!;
      const edited = await report(query, consultant, other);
      expect(edited.totals).toMatchObject({ tasks: 1, closed: 1 });
      expect(bucketOf(edited, day(-20)).closed).toBe(1);
      expect(edited.progress.points.reduce((n, p) => n + p.closed, 0)).toBe(1);
      expect(bucketOf(edited, day(0)).open).toBe(0);

      expect((await move('OPEN')).statusCode).toBe(200);
      expect(await stamp()).toBeNull();
      const reopened = await report(query, consultant, other);
      expect(reopened.totals).toMatchObject({ tasks: 1, open: 1, closed: 0 });
      expect(reopened.progress.points.every((p) => p.closed === 0)).toBe(true);
      expect(bucketOf(reopened, day(0)).open).toBe(1);

      // Made closed: closed when made.
      const made = await postTask(t, consultant, projectId, { title: 'Done already', status: 'COMPLETED' });
      const row = await t.database.db
        .selectFrom('tasks')
        .select(['created_at', 'closed_at'])
        .where('id', '=', made.id)
        .executeTakeFirstOrThrow();
      expect(row.closed_at === null ? null : toIso(row.closed_at)).toBe(toIso(row.created_at));
    });
  });

  describe('access and filters', () => {
    it('shows an auditor only the projects they hold a role on, and 404 for another', async () => {
      const body = await report('', auditor.cookie);
      const want = await expected({ projectIds: [alpha] });
      expect(body.byProject.map((p) => p.projectId)).toEqual([alpha]);
      expect(body.totals).toEqual(want.totals);
      expect(body.byStatus).toEqual(want.byStatus);
      const res = await t.api({ method: 'GET', url: url(`projectId=${beta}`), cookie: auditor.cookie });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'project_not_found' });
    });

    it("answers 404 project_not_found for another company's project and for an unknown one", async () => {
      for (const projectId of [acmeProjectId, 'no-such-project']) {
        const res = await t.api({ method: 'GET', url: url(`projectId=${projectId}`), cookie: consultant });
        expect({ projectId, status: res.statusCode, code: res.json().code }).toEqual({
          projectId,
          status: 404,
          code: 'project_not_found',
        });
      }
    });

    it('answers 404 for a company the caller does not see', async () => {
      const client = (await cookiesFor(t, ['client@globex.test']))['client@globex.test'];
      const res = await t.api({ method: 'GET', url: url(), cookie: client });
      expect(res.statusCode).toBe(404);
    });

    it('answers 400 naming the field: to before from, a malformed day, a day out of bounds, a today too far from the server’s', async () => {
      // The server's own day, as it answers without `today`.
      const serverDay = (await t.api({ method: 'GET', url: url(), cookie: consultant })).json().meta.today as string;
      const after = (offset: number) => addDays(serverDay, offset);
      const cases: [string, string][] = [
        [`from=${day(-3)}&to=${day(-4)}`, 'to'],
        ['from=2025-02-30', 'from'],
        ['to=yesterday', 'to'],
        [`today=${after(-2)}`, 'today'],
        [`today=${after(2)}`, 'today'],
        ['today=2025-13-01', 'today'],
        [`from=2010-01-01&to=2025-01-01`, 'to'],
        // An open end out of bounds: before REPORT_EARLIEST_DAY, more than REPORT_MAX_DAYS_AHEAD days after today.
        ['from=0100-01-01', 'from'],
        ['to=1999-12-31', 'to'],
        ['to=9999-12-31', 'to'],
        [`to=${after(366)}&today=${serverDay}`, 'to'],
        [`from=${after(366)}&today=${serverDay}`, 'from'],
      ];
      for (const [query, field] of cases) {
        const res = await t.api({ method: 'GET', url: url(query), cookie: consultant });
        const body = res.json() as { code: string; details: { field: string }[] };
        expect({
          query,
          status: res.statusCode,
          code: body.code,
          fields: [...new Set(body.details.map((d) => d.field))],
        }).toEqual({
          query,
          status: 400,
          code: 'validation_failed',
          fields: [field],
        });
      }
    });

    it('answers 403 when the reports module is off for the caller, or the projects module', async () => {
      const member = (await cookiesFor(t, ['member@acme.test']))['member@acme.test'];
      const off = await t.api({ method: 'GET', url: url('', acmeId), cookie: member });
      expect({ status: off.statusCode, code: off.json().code }).toEqual({ status: 403, code: 'module_access_denied' });

      const user = await newUser(t, { companyIds: [company] });
      const cookie = await t.cookieFor(user.email);
      expect((await report('', cookie)).totals).toEqual((await report()).totals);
      await setUserModuleAccess(t.database.db, company, user.id, 'projects', false);
      const noProjects = await t.api({ method: 'GET', url: url(), cookie });
      expect({ status: noProjects.statusCode, code: noProjects.json().code }).toEqual({
        status: 403,
        code: 'module_access_denied',
      });
      await setUserModuleAccess(t.database.db, company, user.id, 'projects', null);
      await setUserModuleAccess(t.database.db, company, user.id, 'reports', false);
      const noReports = await t.api({ method: 'GET', url: url(), cookie });
      expect({ status: noReports.statusCode, code: noReports.json().code }).toEqual({
        status: 403,
        code: 'module_access_denied',
      });
    });
  });
});
