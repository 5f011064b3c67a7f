import { randomUUID } from 'node:crypto';
import { CLOSED_TASK_STATUSES, type TaskStatus } from '@portal/shared/core/projects';
import { REQUEST_ACTIVE_STATUSES, type RequestStatus } from '@portal/shared/core/requests';
import type { WorkloadReport } from '@portal/shared/core/reports';
import { addCompanyMember } from '../../../../db/companies';
import { setUserModuleAccess } from '../../../../db/module-access';
import { addDays } from '../../../../db/reports/scope';
import { insertUser } from '../../../../db/users';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId } from '../../../../test/identity';
import { insertTestRequest } from '../../../../test/evidence-fixtures';
import {
  cookiesFor,
  day as dayFromNow,
  insertTask,
  newActiveProject,
  newCompany,
  newUser,
} from '../../../../test/project-fixtures';

let t: TestApp;
let company: string;
let consultant: string;
let alpha: string;
let beta: string;
let ann: { id: string; email: string };
let bob: { id: string; email: string };
let carl: { id: string; email: string };
let sam: { id: string; email: string };
/** A user with no first or last name: named by e-mail. */
let nameless: { id: string; email: string };
let auditor: { id: string; cookie: string };

/**
 * The day the file runs on, fixed when it starts: every report call names it (`today=`), so the figures
 * do not move when the run crosses UTC midnight.
 */
const TODAY = dayFromNow(0);
const day = (offset = 0) => addDays(TODAY, offset);
const withToday = (query: string) =>
  /(^|&)today=/.test(query) ? query : [query, `today=${TODAY}`].filter(Boolean).join('&');
const url = (query = '', id = company) => `/api/v1/companies/${id}/reports/workload${query ? `?${query}` : ''}`;

async function report(query = '', cookie = consultant): Promise<WorkloadReport> {
  const res = await t.api({ method: 'GET', url: url(withToday(query)), cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
  return res.json() as WorkloadReport;
}

interface RequestRow {
  id: string;
  project_id: string | null;
  assignees: string[];
}

/**
 * The figures the report must show, counted here from the company's rows: open tasks of `projectIds`,
 * and (unless the requests module is off) active requests that `sees` and of the chosen project.
 */
async function expected(options: {
  projectIds: string[];
  project?: string;
  sees: ((r: RequestRow) => boolean) | null;
  today?: string;
}) {
  const db = t.database.db;
  const today = options.today ?? day(0);
  const tasks = (
    await db
      .selectFrom('tasks')
      .select(['id', 'project_id', 'status', 'due_date'])
      .where('company_id', '=', company)
      .execute()
  ).filter((r) => options.projectIds.includes(r.project_id) && !CLOSED_TASK_STATUSES.includes(r.status as TaskStatus));
  const taskAssignees = await db.selectFrom('task_assignees').select(['task_id', 'user_id']).execute();
  const requestAssignees = await db.selectFrom('request_assignees').select(['request_id', 'user_id']).execute();
  const requests = (
    await db
      .selectFrom('requests')
      .select(['id', 'project_id', 'status', 'due_date'])
      .where('company_id', '=', company)
      .execute()
  )
    .map((r) => ({ ...r, assignees: requestAssignees.filter((a) => a.request_id === r.id).map((a) => a.user_id) }))
    .filter(
      (r) => options.sees !== null && options.sees(r) && REQUEST_ACTIVE_STATUSES.includes(r.status as RequestStatus),
    )
    .filter((r) => !options.project || r.project_id === options.project);
  const users = await db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email', 'is_tevora']).execute();

  const overdue = (r: { due_date: string | null }) => r.due_date !== null && r.due_date < today;
  const people = users
    .map((u) => {
      const mine = tasks.filter((r) => taskAssignees.some((a) => a.task_id === r.id && a.user_id === u.id));
      const theirs = requests.filter((r) => r.assignees.includes(u.id));
      return {
        userId: u.id,
        name: `${u.first_name} ${u.last_name}`.trim() || u.email,
        email: u.email,
        staff: Boolean(u.is_tevora),
        openTasks: mine.length,
        overdueTasks: mine.filter(overdue).length,
        activeRequests: theirs.length,
        overdueRequests: theirs.filter(overdue).length,
        total: mine.length + theirs.length,
      };
    })
    .filter((p) => p.total > 0)
    .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
  return {
    requestsIncluded: options.sees !== null,
    people,
    totals: {
      openTasks: tasks.length,
      overdueTasks: tasks.filter(overdue).length,
      unassignedTasks: tasks.filter((r) => !taskAssignees.some((a) => a.task_id === r.id)).length,
      activeRequests: requests.length,
      overdueRequests: requests.filter(overdue).length,
      unassignedRequests: requests.filter((r) => r.assignees.length === 0).length,
    },
  };
}

const everyRequest = () => true;

beforeAll(async () => {
  t = await createTestApp();
  consultant = (await cookiesFor(t, ['consultant@demo.test']))['consultant@demo.test'];
  company = await newCompany(t, `Workload report ${Date.now()}`);
  ann = await newUser(t, { companyIds: [company], firstName: 'Ann' });
  bob = await newUser(t, { companyIds: [company], firstName: 'Bob' });
  carl = await newUser(t, { companyIds: [company], firstName: 'Carl' });
  sam = await newUser(t, { isTevora: true, firstName: 'Sam' });
  const namelessEmail = `zed-${randomUUID().slice(0, 8)}@example.test`;
  nameless = {
    id: await insertUser(t.database.db, { email: namelessEmail, firstName: '', lastName: '' }),
    email: namelessEmail,
  };
  await addCompanyMember(t.database.db, company, nameless.id, 'member');
  const auditorUser = await newUser(t, { isTevora: true, isAuditor: true });
  auditor = { id: auditorUser.id, cookie: await t.cookieFor(auditorUser.email) };
  alpha = await newActiveProject(t, company, 'Alpha', [[auditor.id, 'Consultant']]);
  beta = await newActiveProject(t, company, 'Beta');

  // Created long ago or lately: the period does not apply.
  const created = `${day(-400)}T10:00:00.000Z`;
  const parent = await insertTask(t, alpha, { createdAt: created, dueDate: day(-1), assigneeIds: [ann.id] });
  await insertTask(t, alpha, { status: 'IN_PROGRESS', assigneeIds: [ann.id, bob.id] });
  await insertTask(t, alpha, { status: 'COMPLETED', dueDate: day(-9), assigneeIds: [ann.id] });
  await insertTask(t, alpha, { createdAt: created, dueDate: day(-5) });
  await insertTask(t, alpha, { status: 'IN_REVIEW', dueDate: day(0), assigneeIds: [sam.id] });
  await insertTask(t, alpha, { parentId: parent, dueDate: day(-2), assigneeIds: [bob.id] });
  await insertTask(t, beta, { assigneeIds: [bob.id] });
  await insertTask(t, beta, { status: 'NOT_APPLICABLE', dueDate: day(-9), assigneeIds: [bob.id] });
  await insertTask(t, beta, { status: 'INCOMPLETE', dueDate: day(-3), assigneeIds: [nameless.id] });
  // Another company's work never counts.
  const acme = await companyId(t, 'Acme Corp');
  await insertTask(t, await newActiveProject(t, acme, 'Acme workload'), { dueDate: day(-1), assigneeIds: [ann.id] });

  await insertTestRequest(t, {
    companyId: company,
    projectId: alpha,
    status: 'open',
    dueDate: day(-1),
    assigneeIds: [ann.id],
  });
  await insertTestRequest(t, {
    companyId: company,
    projectId: beta,
    status: 'submitted',
    assigneeIds: [ann.id, bob.id],
  });
  await insertTestRequest(t, { companyId: company, status: 'returned', dueDate: day(-4), assigneeIds: [bob.id] });
  await insertTestRequest(t, {
    companyId: company,
    projectId: alpha,
    status: 'accepted',
    dueDate: day(-9),
    assigneeIds: [ann.id],
  });
  await insertTestRequest(t, { companyId: company, status: 'canceled', assigneeIds: [bob.id] });
  await insertTestRequest(t, { companyId: company, projectId: alpha, status: 'open', dueDate: day(-2) });
  await insertTestRequest(t, { companyId: company, status: 'open', assigneeIds: [carl.id] });
});
afterAll(() => t.close());

describe('workload report', () => {
  it('counts open tasks and active requests per direct assignee, most work first, as the rows do', async () => {
    const body = await report();
    expect(body.kind).toBe('workload');
    expect({ requestsIncluded: body.requestsIncluded, people: body.people, totals: body.totals }).toEqual(
      await expected({ projectIds: [alpha, beta], sees: everyRequest }),
    );
    expect(body.people.map((p) => [p.name, p.total])).toEqual([
      ['Bob Tester', 5],
      ['Ann Tester', 4],
      ['Carl Tester', 1],
      ['Sam Tester', 1],
      [nameless.email, 1],
    ]);
    expect(body.people.find((p) => p.userId === sam.id)).toMatchObject({ staff: true, openTasks: 1, overdueTasks: 0 });
    expect(body.people.find((p) => p.userId === ann.id)).toMatchObject({ staff: false, email: ann.email });
    expect(body.totals).toEqual({
      openTasks: 7,
      overdueTasks: 4,
      unassignedTasks: 1,
      activeRequests: 5,
      overdueRequests: 3,
      unassignedRequests: 1,
    });
  });

  it('is as of now: the period does not change it', async () => {
    const all = await report();
    const period = await report(`from=${day(-30)}&to=${day(-20)}`);
    expect(period.people).toEqual(all.people);
    expect(period.totals).toEqual(all.totals);
    expect(period.meta).toMatchObject({ from: day(-30), to: day(-20) });
  });

  it('measures overdue against the caller’s today', async () => {
    const body = await report(`today=${day(1)}`);
    expect(body.totals).toEqual(
      (await expected({ projectIds: [alpha, beta], sees: everyRequest, today: day(1) })).totals,
    );
    // The IN_REVIEW task is due today.
    expect(body.people.find((p) => p.userId === sam.id)).toMatchObject({ overdueTasks: 1 });
  });

  it('narrows tasks and requests to the chosen project', async () => {
    const body = await report(`projectId=${alpha}`);
    expect({ requestsIncluded: body.requestsIncluded, people: body.people, totals: body.totals }).toEqual(
      await expected({ projectIds: [alpha], project: alpha, sees: everyRequest }),
    );
    expect(body.people.some((p) => p.userId === carl.id || p.userId === nameless.id)).toBe(false);
  });

  it('shows an auditor the work of the projects they hold a role on', async () => {
    const body = await report('', auditor.cookie);
    expect({ requestsIncluded: body.requestsIncluded, people: body.people, totals: body.totals }).toEqual(
      await expected({ projectIds: [alpha], sees: (r) => r.project_id === alpha }),
    );
    const res = await t.api({ method: 'GET', url: url(`projectId=${beta}`), cookie: auditor.cookie });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'project_not_found' });
  });

  it('counts for a client every task but only the requests they see', async () => {
    const cookie = await t.cookieFor(ann.email);
    const body = await report('', cookie);
    expect({ requestsIncluded: body.requestsIncluded, people: body.people, totals: body.totals }).toEqual(
      await expected({ projectIds: [alpha, beta], sees: (r) => r.assignees.includes(ann.id) }),
    );
    expect(body.totals.activeRequests).toBe(2);
  });

  it('leaves requests out when the requests module is off for the caller', async () => {
    const user = await newUser(t, { companyIds: [company] });
    await setUserModuleAccess(t.database.db, company, user.id, 'requests', false);
    const body = await report('', await t.cookieFor(user.email));
    expect({ requestsIncluded: body.requestsIncluded, people: body.people, totals: body.totals }).toEqual(
      await expected({ projectIds: [alpha, beta], sees: null }),
    );
    expect(body.requestsIncluded).toBe(false);
    expect(body.people.every((p) => p.activeRequests === 0 && p.overdueRequests === 0 && p.total === p.openTasks)).toBe(
      true,
    );
  });

  it("answers 404 for another company's project, 400 naming a bad filter, 403 with the reports or projects module off", async () => {
    const acmeProject = await newActiveProject(t, await companyId(t, 'Acme Corp'), 'Acme other');
    const other = await t.api({ method: 'GET', url: url(`projectId=${acmeProject}`), cookie: consultant });
    expect({ status: other.statusCode, code: other.json().code }).toEqual({ status: 404, code: 'project_not_found' });

    for (const [query, field] of [
      [`from=${day(-1)}&to=${day(-2)}`, 'to'],
      [`today=${day(-5)}`, 'today'],
    ]) {
      const res = await t.api({ method: 'GET', url: url(query), cookie: consultant });
      expect({
        query,
        status: res.statusCode,
        code: res.json().code,
        fields: res.json().details.map((d: { field: string }) => d.field),
      }).toEqual({
        query,
        status: 400,
        code: 'validation_failed',
        fields: [field],
      });
    }

    const user = await newUser(t, { companyIds: [company] });
    const cookie = await t.cookieFor(user.email);
    for (const module of ['projects', 'reports'] as const) {
      await setUserModuleAccess(t.database.db, company, user.id, module, false);
      const res = await t.api({ method: 'GET', url: url(), cookie });
      expect({ module, status: res.statusCode, code: res.json().code }).toEqual({
        module,
        status: 403,
        code: 'module_access_denied',
      });
      await setUserModuleAccess(t.database.db, company, user.id, module, null);
    }
  });
});
