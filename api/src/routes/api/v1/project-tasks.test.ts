import { randomUUID } from 'node:crypto';
import type {
  CompanyTask,
  CompanyTaskPage,
  ProjectRole,
  ProjectUserRef,
  ProjectsSummary,
  Task,
  TaskComment,
  TaskDetail,
  TaskList,
} from '@portal/shared/core/projects';
import { addCompanyMember } from '../../../db/companies';
import { addProjectMember } from '../../../db/projects';
import * as tasksRepository from '../../../db/tasks';
import { createTestApp, type TestApp } from '../../../test/app';
import { companyId } from '../../../test/identity';
import {
  acmeProjectsSetup,
  auditRows,
  day,
  expectNulRefused,
  insertControl,
  insertTask,
  newActiveProject,
  newCompany,
  newUser,
  type NulCase,
  postTask,
  rowCount,
} from '../../../test/project-fixtures';

let t: TestApp;
let acmeId: string;
let globexId: string;
let userIds: Record<string, string>;
let cookies: Record<string, string>;
/** Acme project: consultant is Lead Consultant, lead@acme.test Client Lead; member@acme.test holds no role. */
let projectId: string;
/** Another Acme project with the same roster. */
let otherProjectId: string;

const newProject = (company: string, roles: [email: string, role: ProjectRole][] = []) =>
  newActiveProject(
    t,
    company,
    'Tasks test project',
    roles.map(([email, role]) => [userIds[email], role]),
  );

beforeAll(async () => {
  t = await createTestApp();
  ({ acmeId, userIds, cookies, projectId, otherProjectId } = await acmeProjectsSetup(
    t,
    ['Tasks test project', 'Tasks test project'],
    [
      'admin@demo.test',
      'consultant@demo.test',
      'auditor@demo.test',
      'lead@acme.test',
      'member@acme.test',
      'client@globex.test',
    ],
  ));
  globexId = await companyId(t, 'Globex Inc');
});
afterAll(() => t.close());

const consultant = () => cookies['consultant@demo.test'];
const lead = () => cookies['lead@acme.test'];
const member = () => cookies['member@acme.test'];

const tasksUrl = (project = projectId) => `/api/v1/projects/${project}/tasks`;
const taskUrl = (taskId: string, project = projectId) => `${tasksUrl(project)}/${taskId}`;

const createTask = (
  payload: Record<string, unknown>,
  cookie = consultant(),
  project = projectId,
): Promise<TaskDetail> => postTask(t, cookie, project, payload);

async function getTask(taskId: string, cookie = consultant(), project = projectId): Promise<TaskDetail> {
  const res = await t.api({ method: 'GET', url: taskUrl(taskId, project), cookie });
  expect(res.statusCode).toBe(200);
  return res.json() as TaskDetail;
}

async function listTasks(query: string, cookie = consultant(), project = projectId): Promise<TaskList> {
  const res = await t.api({ method: 'GET', url: `${tasksUrl(project)}?${query}`, cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
  return res.json() as TaskList;
}

describe('POST /api/v1/projects/:id/tasks', () => {
  it('creates a task with assignees and controls, answers its detail and records it', async () => {
    const controlId = await insertControl(t, projectId, 'CC1.1', 'Integrity');
    const task = await createTask({
      title: '  Review firewall rules ',
      description: 'Quarterly review',
      referenceId: 'FW-01',
      dueDate: '2030-01-31',
      assigneeIds: [userIds['member@acme.test'], userIds['consultant@demo.test'], userIds['member@acme.test']],
      controlIds: [controlId],
    });
    expect(task).toMatchObject({
      projectId,
      parentId: null,
      referenceId: 'FW-01',
      title: 'Review firewall rules',
      description: 'Quarterly review',
      status: 'OPEN',
      dueDate: '2030-01-31',
      overdue: false,
      subtaskCount: 0,
      subtasksDone: 0,
      commentCount: 0,
      parent: null,
      subtasks: [],
      controls: [{ id: controlId, name: 'CC1.1', title: 'Integrity' }],
      createdBy: { id: userIds['consultant@demo.test'], email: 'consultant@demo.test' },
      completedAt: null,
      permissions: { edit: true, changeStatus: true, comment: true },
    });
    // by first name: Daniel Reyes before Marcus Bell
    expect(task.assignees.map((a) => a.email)).toEqual(['consultant@demo.test', 'member@acme.test']);
    expect(Object.keys(task.assignees[0]).sort()).toEqual(['email', 'firstName', 'id', 'lastName']);
    const row = await t.database.db
      .selectFrom('tasks')
      .select(['company_id'])
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect(row.company_id).toBe(acmeId);
    const [entry] = await auditRows(t, 'task.create', task.id);
    expect(entry).toMatchObject({
      actor_email: 'consultant@demo.test',
      company_id: acmeId,
      target_type: 'task',
      after: { referenceId: 'FW-01', title: 'Review firewall rules' },
    });
  });

  it('lets a Client Lead create tasks, and stamps completed_at on a task created COMPLETED', async () => {
    const task = await createTask({ title: 'Already done', status: 'COMPLETED' }, lead());
    expect(task.status).toBe('COMPLETED');
    expect(task.completedAt).toEqual(expect.any(String));
    expect(task.createdBy?.email).toBe('lead@acme.test');
  });

  it('refuses a Task ID another task of the project has, in any case, with 409 and the catalogue message', async () => {
    await createTask({ title: 'First', referenceId: 'DUP-1' });
    const count = await rowCount(t, 'tasks');
    for (const referenceId of ['DUP-1', 'dup-1', '  Dup-1  ']) {
      const res = await t.api({
        method: 'POST',
        url: tasksUrl(),
        cookie: consultant(),
        payload: { title: 'Second', referenceId },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'task_reference_id_already_exist_on_project',
        message: 'Task IDs must be unique or null',
        details: [{ field: 'referenceId', message: expect.any(String) }],
      });
    }
    expect(await rowCount(t, 'tasks')).toBe(count);
    // the same Task ID in another project is fine
    await createTask({ title: 'Elsewhere', referenceId: 'DUP-1' }, consultant(), otherProjectId);
  });

  it('allows any number of tasks without a Task ID (null or empty)', async () => {
    const a = await createTask({ title: 'No id A' });
    const b = await createTask({ title: 'No id B', referenceId: null });
    const c = await createTask({ title: 'No id C', referenceId: '  ' });
    expect([a.referenceId, b.referenceId, c.referenceId]).toEqual([null, null, null]);
  });

  it('settles two requests racing for one Task ID: one is created, the other gets the 409', async () => {
    const payload = { title: 'Racer', referenceId: 'RACE-1' };
    const replies = await Promise.all(
      [0, 1, 2].map(() => t.api({ method: 'POST', url: tasksUrl(), cookie: consultant(), payload })),
    );
    expect(replies.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    for (const r of replies.filter((x) => x.statusCode === 409))
      expect(r.json().code).toBe('task_reference_id_already_exist_on_project');
    const rows = await t.database.db
      .selectFrom('tasks')
      .select('id')
      .where('project_id', '=', projectId)
      .where('reference_id', '=', 'RACE-1')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('answers the same 409 when the unique index catches a Task ID the check missed (a writer in between)', async () => {
    await createTask({ title: 'Taken first', referenceId: 'IDX-1' });
    const count = await rowCount(t, 'tasks');
    const spy = jest.spyOn(tasksRepository, 'taskReferenceTaken').mockResolvedValue(false);
    try {
      const res = await t.api({
        method: 'POST',
        url: tasksUrl(),
        cookie: consultant(),
        payload: { title: 'Taken second', referenceId: 'idx-1' },
      });
      expect(spy).toHaveBeenCalled();
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'task_reference_id_already_exist_on_project',
        message: 'Task IDs must be unique or null',
        details: [{ field: 'referenceId' }],
      });
    } finally {
      spy.mockRestore();
    }
    expect(await rowCount(t, 'tasks')).toBe(count);
  });

  it('creates subtasks one level deep under a top-level task of the same project', async () => {
    const parent = await createTask({ title: 'Parent', referenceId: 'P-1' });
    const sub = await createTask({ title: 'Child', parentId: parent.id });
    expect(sub).toMatchObject({ parentId: parent.id, parent: { id: parent.id, title: 'Parent', referenceId: 'P-1' } });
    const foreign = await createTask({ title: 'Foreign parent' }, consultant(), otherProjectId);
    const count = await rowCount(t, 'tasks');
    for (const parentId of [sub.id, foreign.id, 'no-such-task']) {
      const res = await t.api({
        method: 'POST',
        url: tasksUrl(),
        cookie: consultant(),
        payload: { title: 'Grandchild', parentId },
      });
      expect({ parentId, status: res.statusCode, body: res.json() }).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', details: [{ field: 'parentId' }] },
      });
    }
    expect(await rowCount(t, 'tasks')).toBe(count);
    const detail = await getTask(parent.id);
    expect(detail.subtasks.map((s) => s.id)).toEqual([sub.id]);
    expect(detail).toMatchObject({ subtaskCount: 1, subtasksDone: 0 });
  });

  it('refuses assignees who are neither staff nor members of the company with access', async () => {
    const count = await rowCount(t, 'tasks');
    for (const userId of [userIds['client@globex.test'], userIds['chloe.martin@acme.test'], 'nobody']) {
      const res = await t.api({
        method: 'POST',
        url: tasksUrl(),
        cookie: consultant(),
        payload: { title: 'Assigned', assigneeIds: [userIds['lead@acme.test'], userId] },
      });
      expect({ userId, status: res.statusCode, body: res.json() }).toMatchObject({
        status: 400,
        body: {
          code: 'validation_failed',
          details: [{ field: 'assigneeIds', message: expect.stringContaining(userId) }],
        },
      });
    }
    expect(await rowCount(t, 'tasks')).toBe(count);
    // staff who are not auditors may be assigned without a role on the project
    const task = await createTask({ title: 'Staffed', assigneeIds: [userIds['admin@demo.test']] });
    expect(task.assignees.map((a) => a.email)).toEqual(['admin@demo.test']);
  });

  it('refuses suspended users, and auditors without a role on the project; takes auditors who hold one', async () => {
    const suspendedClient = await newUser(t, { companyIds: [acmeId], status: 'suspended' });
    const suspendedStaff = await newUser(t, { isTevora: true, status: 'suspended' });
    const project = await newProject(acmeId, [['consultant@demo.test', 'Lead Consultant']]);
    const count = await rowCount(t, 'tasks');
    for (const userId of [suspendedClient.id, suspendedStaff.id, userIds['auditor@demo.test']]) {
      const res = await t.api({
        method: 'POST',
        url: tasksUrl(project),
        cookie: consultant(),
        payload: { title: 'Assigned', assigneeIds: [userId] },
      });
      expect({ userId, status: res.statusCode, body: res.json() }).toMatchObject({
        status: 400,
        body: {
          code: 'validation_failed',
          details: [{ field: 'assigneeIds', message: expect.stringContaining(userId) }],
        },
      });
    }
    expect(await rowCount(t, 'tasks')).toBe(count);
    await addProjectMember(t.database.db, project, userIds['auditor@demo.test'], 'Consultant');
    const task = await createTask(
      { title: 'Reviewed', assigneeIds: [userIds['auditor@demo.test']] },
      consultant(),
      project,
    );
    expect(task.assignees.map((a) => a.email)).toEqual(['auditor@demo.test']);
  });

  it("refuses controls that are not the project's", async () => {
    const controlId = await insertControl(t, otherProjectId, 'X1', 'Other');
    const count = await rowCount(t, 'tasks');
    const res = await t.api({
      method: 'POST',
      url: tasksUrl(),
      cookie: consultant(),
      payload: { title: 'Linked', controlIds: [controlId] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'controlIds' }] });
    expect(await rowCount(t, 'tasks')).toBe(count);
  });

  it.each([
    [{}, 'title'],
    [{ title: '   ' }, 'title'],
    [{ title: 'x'.repeat(201) }, 'title'],
    [{ title: 'ok', dueDate: '2026-02-30' }, 'dueDate'],
    [{ title: 'ok', status: 'DONE' }, 'status'],
    [{ title: 'ok', referenceId: 'r'.repeat(51) }, 'referenceId'],
    [{ title: 'ok', assigneeIds: 'someone' }, 'assigneeIds'],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    const count = await rowCount(t, 'tasks');
    const res = await t.api({ method: 'POST', url: tasksUrl(), cookie: consultant(), payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
    expect(await rowCount(t, 'tasks')).toBe(count);
  });

  it.each([
    ['member@acme.test', 403, 'user_can_not_update_project'],
    ['client@globex.test', 404, 'project_not_found'],
    ['auditor@demo.test', 404, 'project_not_found'],
  ])('refuses %s with %i %s', async (email, status, code) => {
    const count = await rowCount(t, 'tasks');
    const res = await t.api({
      method: 'POST',
      url: tasksUrl(),
      cookie: cookies[email],
      payload: { title: 'Not mine' },
    });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
    expect(await rowCount(t, 'tasks')).toBe(count);
  });
});

describe('GET /api/v1/projects/:id/tasks', () => {
  let listProjectId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    listProjectId = await newProject(acmeId, [['consultant@demo.test', 'Lead Consultant']]);
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 9, 0, i)).toISOString();
    const add = (key: string, fields: Omit<NonNullable<Parameters<typeof insertTask>[2]>, 'createdAt'>, i: number) =>
      insertTask(t, listProjectId, { ...fields, createdAt: at(i) }).then((id) => (ids[key] = id));
    await add(
      't1',
      {
        title: 'Alpha firewall review',
        referenceId: 'CC6.1-01',
        status: 'OPEN',
        dueDate: day(-1),
        assigneeIds: [userIds['member@acme.test']],
      },
      0,
    );
    await add(
      't2',
      {
        title: 'Beta access review',
        referenceId: 'cc6.1-02',
        status: 'IN_PROGRESS',
        dueDate: day(3),
        assigneeIds: [userIds['consultant@demo.test']],
      },
      1,
    );
    await add('t3', { title: 'Gamma backup test', status: 'COMPLETED', dueDate: day(-1) }, 2);
    await add(
      't4',
      {
        title: 'Delta 100% coverage',
        referenceId: 'A1',
        status: 'NOT_APPLICABLE',
        assigneeIds: [userIds['member@acme.test'], userIds['consultant@demo.test']],
      },
      3,
    );
    await add('t5', { title: 'Epsilon logging', status: 'OPEN' }, 4);
    await add('t6', { title: 'Zeta vendor', referenceId: 'B2', status: 'IN_REVIEW', dueDate: day(7) }, 5);
    await add('s1', { title: 'Alpha sub one', status: 'COMPLETED', parentId: ids.t1 }, 6);
    await add('s2', { title: 'Alpha sub two', status: 'OPEN', parentId: ids.t1, dueDate: day(-5) }, 7);
    for (const body of ['one', 'two']) {
      await t.database.db
        .insertInto('task_comments')
        .values({ id: randomUUID(), task_id: ids.t1, author_id: userIds['lead@acme.test'], body, created_at: at(10) })
        .execute();
    }
  });

  const keys = (list: TaskList) =>
    list.results.map((task) => Object.entries(ids).find(([, id]) => id === task.id)?.[0] ?? task.id);
  const list = (query = '') => listTasks(query, consultant(), listProjectId);

  it('lists top-level tasks in creation order with assignees and counts', async () => {
    const page = await list();
    expect(keys(page)).toEqual(['t1', 't2', 't3', 't4', 't5', 't6']);
    expect(page).toMatchObject({ total: 6, page: 1, pageSize: 25 });
    const t1 = page.results[0];
    expect(t1).toMatchObject({
      subtaskCount: 2,
      subtasksDone: 1,
      commentCount: 2,
      overdue: true,
      parentId: null,
      referenceId: 'CC6.1-01',
      status: 'OPEN',
    });
    expect(t1.assignees.map((a) => a.email)).toEqual(['member@acme.test']);
    const byKey = Object.fromEntries(page.results.map((task, i) => [keys(page)[i], task]));
    // closed work is never overdue; work due today or later is not yet
    expect([byKey.t2.overdue, byKey.t3.overdue, byKey.t5.overdue]).toEqual([false, false, false]);
    expect(byKey.t4.assignees).toHaveLength(2);
    expect(byKey.t5).toMatchObject({ assignees: [], subtaskCount: 0, commentCount: 0 });
  });

  it.each([
    ['status[]=OPEN&status[]=COMPLETED', ['t1', 't3', 't5']],
    ['status=OPEN', ['t1', 't5']],
    ['status=OPEN&status=IN_REVIEW', ['t1', 't5', 't6']],
    ['status=OPEN&status[]=IN_REVIEW', ['t1', 't5', 't6']],
    ['status=OPEN&status=OPEN&status=IN_REVIEW&status=OPEN', ['t1', 't5', 't6']],
    ['assigneeId=MEMBER', ['t1', 't4']],
    ['assigneeId=none', ['t3', 't5', 't6']],
    ['due=overdue', ['t1']],
    // today and the six days after: t6, due a week ahead, is next week's
    ['due=week', ['t2']],
    ['due=none', ['t4', 't5']],
    ['search=REVIEW', ['t1', 't2']],
    ['search=cc6.1', ['t1', 't2']],
    ['search=%25', ['t4']],
    ['search=sub', []],
    ['status=OPEN&assigneeId=none', ['t5']],
    ['sort=title', ['t1', 't2', 't4', 't5', 't3', 't6']],
    ['sort=-title', ['t6', 't3', 't5', 't4', 't2', 't1']],
    ['sort=referenceId', ['t4', 't6', 't1', 't2', 't3', 't5']],
    ['sort=-referenceId', ['t2', 't1', 't6', 't4', 't3', 't5']],
    ['sort=dueDate', ['t1', 't3', 't2', 't6', 't4', 't5']],
    ['sort=-dueDate', ['t6', 't2', 't1', 't3', 't4', 't5']],
    ['sort=status', ['t1', 't5', 't2', 't6', 't3', 't4']],
    ['sort=-createdAt', ['t6', 't5', 't4', 't3', 't2', 't1']],
  ])('filters and sorts with %s', async (query, expected) => {
    const page = await list(query.replace('MEMBER', userIds['member@acme.test']));
    expect(keys(page)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  it('pages with page and pageSize, counting every matching task', async () => {
    const second = await list('pageSize=4&page=2');
    expect(keys(second)).toEqual(['t5', 't6']);
    expect(second).toMatchObject({ total: 6, page: 2, pageSize: 4 });
    expect((await list('pageSize=4&page=3')).results).toEqual([]);
  });

  it.each([
    ['status=DONE', 'status'],
    ['due=soon', 'due'],
    ['pageSize=0', 'pageSize'],
    ['page=x', 'page'],
    ['sort=priority', 'sort'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await t.api({ method: 'GET', url: `${tasksUrl(listProjectId)}?${query}`, cookie: consultant() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
  });

  it('shows the list to a client without a role, and not to Globex users or auditors without a role', async () => {
    expect((await listTasks('', member(), listProjectId)).total).toBe(6);
    for (const email of ['client@globex.test', 'auditor@demo.test']) {
      const res = await t.api({ method: 'GET', url: tasksUrl(listProjectId), cookie: cookies[email] });
      expect({ email, status: res.statusCode, code: res.json().code }).toEqual({
        email,
        status: 404,
        code: 'project_not_found',
      });
    }
  });
});

describe('GET /api/v1/companies/:id/tasks (keyset)', () => {
  let keysetCompany: string;
  let projectA: string;
  let projectB: string;
  const all: { id: string; createdAt: string }[] = [];
  const url = (query: string, company = keysetCompany) => `/api/v1/companies/${company}/tasks?${query}`;

  beforeAll(async () => {
    keysetCompany = await newCompany(t, `Keyset Co ${randomUUID()}`);
    await addCompanyMember(t.database.db, keysetCompany, userIds['member@acme.test'], 'member');
    projectA = await newProject(keysetCompany, [['consultant@demo.test', 'Lead Consultant']]);
    projectB = await newProject(keysetCompany);
    // Several tasks share a creation time: the id breaks the tie, so no page repeats or skips one.
    for (let i = 0; i < 23; i += 1) {
      const createdAt = new Date(Date.UTC(2026, 2, 1, 12, 0, Math.floor(i / 3))).toISOString();
      const project = i % 2 === 0 ? projectA : projectB;
      const id = await insertTask(t, project, {
        title: `Keyset task ${i}`,
        createdAt,
        status: i % 4 === 0 ? 'COMPLETED' : 'OPEN',
        assigneeIds: i % 5 === 0 ? [userIds['member@acme.test']] : [],
      });
      all.push({ id, createdAt });
    }
    // a subtask is listed too
    const parent = all[0].id;
    const sub = await insertTask(t, projectA, {
      title: 'Keyset subtask',
      createdAt: new Date(Date.UTC(2026, 2, 2)).toISOString(),
      parentId: parent,
    });
    all.push({ id: sub, createdAt: new Date(Date.UTC(2026, 2, 2)).toISOString() });
  });

  const newestFirst = (rows: { id: string; createdAt: string }[]) =>
    [...rows]
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
      .map((r) => r.id);

  async function walk(
    query: string,
    cookie: string,
    company = keysetCompany,
  ): Promise<{ pages: number; tasks: CompanyTask[] }> {
    const tasks: CompanyTask[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await t.api({
        method: 'GET',
        url: url(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, company),
        cookie,
      });
      expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
      const page = res.json() as CompanyTaskPage;
      tasks.push(...page.results);
      cursor = page.nextCursor;
      pages += 1;
      expect(pages).toBeLessThan(100);
    } while (cursor);
    return { pages, tasks };
  }

  it('walks every task of the company exactly once, newest first, and stops with nextCursor null', async () => {
    const { pages, tasks } = await walk('limit=5', consultant());
    expect(pages).toBe(5);
    expect(tasks.map((task) => task.id)).toEqual(newestFirst(all));
    expect(new Set(tasks.map((task) => task.id)).size).toBe(all.length);
    expect(tasks[0]).toMatchObject({ title: 'Keyset subtask', parentId: all[0].id, projectId: projectA });
    expect(tasks.find((task) => task.projectId === projectB)?.projectTitle).toMatch(/^Tasks test project/);
    expect(tasks.find((task) => task.id === all[0].id)).toMatchObject({
      subtaskCount: 1,
      assignees: [{ email: 'member@acme.test' }],
    });
  });

  it('answers a last page that is exactly full with nextCursor null', async () => {
    const res = await t.api({ method: 'GET', url: url(`limit=${all.length}`), cookie: consultant() });
    expect(res.json()).toMatchObject({ nextCursor: null });
    expect((res.json() as CompanyTaskPage).results).toHaveLength(all.length);
  });

  it('filters by status and by assignee (me is the caller), across pages', async () => {
    const statuses = await t.database.db
      .selectFrom('tasks')
      .select(['id', 'status'])
      .where('company_id', '=', keysetCompany)
      .execute();
    const completed = new Set(statuses.filter((s) => s.status === 'COMPLETED').map((s) => s.id));
    const done = await walk('limit=2&status[]=COMPLETED', consultant());
    expect(done.tasks.map((task) => task.id)).toEqual(newestFirst(all.filter((r) => completed.has(r.id))));
    const open = await walk('limit=4&status=OPEN&status=IN_REVIEW', consultant());
    expect(open.tasks.map((task) => task.id)).toEqual(newestFirst(all.filter((r) => !completed.has(r.id))));
    const assigned = await t.database.db
      .selectFrom('task_assignees')
      .select('task_id')
      .where('user_id', '=', userIds['member@acme.test'])
      .execute();
    const mine = new Set(assigned.map((a) => a.task_id));
    const expected = newestFirst(all.filter((r) => mine.has(r.id)));
    expect(expected.length).toBeGreaterThan(2);
    expect((await walk('limit=2&assigneeId=me', member())).tasks.map((task) => task.id)).toEqual(expected);
    expect(
      (await walk(`limit=3&assigneeId=${userIds['member@acme.test']}`, consultant())).tasks.map((task) => task.id),
    ).toEqual(expected);
    expect((await walk('assigneeId=me', consultant())).tasks).toEqual([]);
  });

  it('shows auditors only the tasks of projects where they hold a role', async () => {
    const hipaa = (
      await t.database.db
        .selectFrom('projects')
        .select('id')
        .where('title', '=', 'Globex HIPAA Risk Assessment')
        .executeTakeFirstOrThrow()
    ).id;
    const pentest = (
      await t.database.db
        .selectFrom('projects')
        .select('id')
        .where('title', '=', 'Globex Penetration Test 2026')
        .executeTakeFirstOrThrow()
    ).id;
    const seen = await insertTask(t, hipaa, { title: 'Auditor sees this', createdAt: new Date().toISOString() });
    const hidden = await insertTask(t, pentest, {
      title: 'Auditor does not see this',
      createdAt: new Date().toISOString(),
    });
    const { tasks } = await walk('limit=200', cookies['auditor@demo.test'], globexId);
    const ids = tasks.map((task) => task.id);
    expect(ids).toContain(seen);
    expect(ids).not.toContain(hidden);
    expect(new Set(tasks.map((task) => task.projectId))).toEqual(new Set([hipaa]));
    // a client of the company sees both
    const client = (await walk('limit=200', cookies['client@globex.test'], globexId)).tasks.map((task) => task.id);
    expect(client).toEqual(expect.arrayContaining([seen, hidden]));
  });

  it.each([
    ['cursor=not-a-cursor'],
    [`cursor=${Buffer.from('{"a":1}').toString('base64url')}`],
    [`cursor=${Buffer.from(JSON.stringify(['2026-13-01T00:00:00.000Z', 'x'])).toString('base64url')}`],
    [`cursor=${Buffer.from(JSON.stringify(['2026-02-30T00:00:00.000Z', 'x'])).toString('base64url')}`],
    [`cursor=${Buffer.from(JSON.stringify(["2026-01-01'; drop table tasks; --", 'x'])).toString('base64url')}`],
    [`cursor=${Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', ''])).toString('base64url')}`],
    // zone offsets PostgreSQL would refuse
    [`cursor=${Buffer.from(JSON.stringify(['2026-01-01 00:00:00+16', 'x'])).toString('base64url')}`],
    [`cursor=${Buffer.from(JSON.stringify(['2026-01-01 00:00:00+99:99', 'x'])).toString('base64url')}`],
    [`cursor=${Buffer.from(JSON.stringify(['2026-01-01 00:00:00-15:60', 'x'])).toString('base64url')}`],
    ['cursor=%00'],
  ])('refuses a cursor it did not make (%s) with 400 naming cursor', async (query) => {
    const res = await t.api({ method: 'GET', url: url(query), cookie: consultant() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'cursor' }] });
  });

  it("takes a cursor in either database's time form, with a zone offset", async () => {
    const newestFirstIds = newestFirst(all);
    // 12:00:05Z written as +05:30: the tasks created before it follow
    const cursor = Buffer.from(JSON.stringify(['2026-03-01 17:30:05+05:30', 'zzzz'])).toString('base64url');
    const res = await t.api({ method: 'GET', url: url(`limit=200&cursor=${cursor}`), cookie: consultant() });
    expect(res.statusCode).toBe(200);
    const ids = (res.json() as CompanyTaskPage).results.map((task) => task.id);
    if (t.database.dialect === 'postgres') {
      expect(ids).toEqual(
        newestFirstIds.filter((id) => all.find((r) => r.id === id)!.createdAt <= '2026-03-01T12:00:05.000Z'),
      );
    } else {
      // SQLite compares the stored text: any cursor it did not make only has to be harmless
      expect(ids.every((id) => newestFirstIds.includes(id))).toBe(true);
    }
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['status=DONE', 'status'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await t.api({ method: 'GET', url: url(query), cookie: consultant() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
  });

  it('answers 404 to a user of another company', async () => {
    const res = await t.api({ method: 'GET', url: url('limit=5', acmeId), cookie: cookies['client@globex.test'] });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'company_not_found' });
  });
});

describe('GET, PATCH and DELETE /api/v1/projects/:id/tasks/:taskId', () => {
  it('shows the detail with what the caller may do', async () => {
    const task = await createTask({ title: 'Permissions', assigneeIds: [userIds['lead@acme.test']] });
    expect((await getTask(task.id, lead())).permissions).toEqual({ edit: true, changeStatus: true, comment: true });
    expect((await getTask(task.id, member())).permissions).toEqual({ edit: false, changeStatus: false, comment: true });
    const assigned = await createTask({ title: 'Assigned to member', assigneeIds: [userIds['member@acme.test']] });
    expect((await getTask(assigned.id, member())).permissions).toEqual({
      edit: false,
      changeStatus: true,
      comment: true,
    });
  });

  it("answers 404 task_not_found for another project's task, on every task route", async () => {
    const foreign = await createTask({ title: 'Foreign' }, consultant(), otherProjectId);
    const calls = [
      { method: 'GET', url: taskUrl(foreign.id) },
      { method: 'PATCH', url: taskUrl(foreign.id), payload: { title: 'Stolen' } },
      { method: 'DELETE', url: taskUrl(foreign.id) },
      { method: 'POST', url: `${taskUrl(foreign.id)}/status`, payload: { status: 'IN_PROGRESS' } },
      { method: 'GET', url: `${taskUrl(foreign.id)}/comments` },
      { method: 'POST', url: `${taskUrl(foreign.id)}/comments`, payload: { body: 'hello' } },
    ] as const;
    for (const call of calls) {
      const res = await t.api({ ...call, cookie: consultant() });
      expect({ call: `${call.method} ${call.url}`, status: res.statusCode, code: res.json().code }).toEqual({
        call: `${call.method} ${call.url}`,
        status: 404,
        code: 'task_not_found',
      });
    }
    expect(await getTask(foreign.id, consultant(), otherProjectId)).toMatchObject({
      title: 'Foreign',
      status: 'OPEN',
      commentCount: 0,
    });
  });

  it('edits fields and assignees, records before and after, and keeps its own Task ID in another case', async () => {
    const task = await createTask({
      title: 'Editable',
      referenceId: 'ED-1',
      assigneeIds: [userIds['member@acme.test']],
    });
    const res = await t.api({
      method: 'PATCH',
      url: taskUrl(task.id),
      cookie: lead(),
      payload: {
        title: 'Edited',
        referenceId: 'ed-1',
        dueDate: '2031-05-05',
        description: 'Now described',
        assigneeIds: [userIds['consultant@demo.test']],
      },
    });
    expect(res.statusCode).toBe(200);
    const edited = res.json() as TaskDetail;
    expect(edited).toMatchObject({
      title: 'Edited',
      referenceId: 'ed-1',
      dueDate: '2031-05-05',
      description: 'Now described',
    });
    expect(edited.assignees.map((a) => a.email)).toEqual(['consultant@demo.test']);
    const [entry] = await auditRows(t, 'task.update', task.id);
    expect(entry).toMatchObject({
      actor_email: 'lead@acme.test',
      before: { title: 'Editable', referenceId: 'ED-1', dueDate: null, assigneeIds: [userIds['member@acme.test']] },
      after: {
        title: 'Edited',
        referenceId: 'ed-1',
        dueDate: '2031-05-05',
        assigneeIds: [userIds['consultant@demo.test']],
      },
    });
    // clearing
    const cleared = await t.api({
      method: 'PATCH',
      url: taskUrl(task.id),
      cookie: lead(),
      payload: { referenceId: null, dueDate: null, assigneeIds: [] },
    });
    expect(cleared.json()).toMatchObject({ referenceId: null, dueDate: null, assignees: [], title: 'Edited' });
  });

  it('refuses a Task ID another task has, and bad values, changing nothing', async () => {
    await createTask({ title: 'Holder', referenceId: 'HOLD-1' });
    const task = await createTask({ title: 'Mover', referenceId: 'MOVE-1' });
    const taken = await t.api({
      method: 'PATCH',
      url: taskUrl(task.id),
      cookie: consultant(),
      payload: { title: 'Renamed', referenceId: 'hold-1' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      code: 'task_reference_id_already_exist_on_project',
      message: 'Task IDs must be unique or null',
      details: [{ field: 'referenceId' }],
    });
    const outsider = await t.api({
      method: 'PATCH',
      url: taskUrl(task.id),
      cookie: consultant(),
      payload: { title: 'Renamed', assigneeIds: [userIds['client@globex.test']] },
    });
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json()).toMatchObject({ details: [{ field: 'assigneeIds' }] });
    const empty = await t.api({ method: 'PATCH', url: taskUrl(task.id), cookie: consultant(), payload: { title: '' } });
    expect(empty.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'title' }] });
    expect(await getTask(task.id)).toMatchObject({ title: 'Mover', referenceId: 'MOVE-1', assignees: [] });
    expect(await auditRows(t, 'task.update', task.id)).toEqual([]);
  });

  it('refuses edits and deletes to a client without a role', async () => {
    const task = await createTask({ title: 'Guarded' });
    for (const method of ['PATCH', 'DELETE'] as const) {
      const res = await t.api({
        method,
        url: taskUrl(task.id),
        cookie: member(),
        payload: method === 'PATCH' ? { title: 'Mine now' } : undefined,
      });
      expect({ method, status: res.statusCode, code: res.json().code }).toEqual({
        method,
        status: 403,
        code: 'user_can_not_update_project',
      });
    }
    expect((await getTask(task.id)).title).toBe('Guarded');
  });

  it('deletes a task with its subtasks, comments, assignees and control links, and records it', async () => {
    const parent = await createTask({ title: 'Doomed parent', assigneeIds: [userIds['lead@acme.test']] });
    const sub = await createTask({
      title: 'Doomed child',
      parentId: parent.id,
      assigneeIds: [userIds['lead@acme.test']],
    });
    await t.api({ method: 'POST', url: `${taskUrl(sub.id)}/comments`, cookie: member(), payload: { body: 'bye' } });
    const controlId = await insertControl(t, projectId, `DEL-${randomUUID()}`, 'Doomed');
    await t.database.db.insertInto('control_tasks').values({ control_id: controlId, task_id: sub.id }).execute();
    expect((await t.api({ method: 'DELETE', url: taskUrl(parent.id), cookie: lead() })).statusCode).toBe(204);
    const db = t.database.db;
    expect(await db.selectFrom('tasks').select('id').where('id', 'in', [parent.id, sub.id]).execute()).toEqual([]);
    expect(
      await db.selectFrom('task_assignees').select('task_id').where('task_id', 'in', [parent.id, sub.id]).execute(),
    ).toEqual([]);
    expect(await db.selectFrom('task_comments').select('id').where('task_id', '=', sub.id).execute()).toEqual([]);
    expect(
      await db.selectFrom('control_tasks').select('task_id').where('control_id', '=', controlId).execute(),
    ).toEqual([]);
    const [entry] = await auditRows(t, 'task.delete', parent.id);
    expect(entry).toMatchObject({
      actor_email: 'lead@acme.test',
      before: { title: 'Doomed parent', subtaskIds: [sub.id] },
    });
    expect((await t.api({ method: 'GET', url: taskUrl(parent.id), cookie: lead() })).json().code).toBe(
      'task_not_found',
    );
  });

  it('deletes a subtask alone', async () => {
    const parent = await createTask({ title: 'Keeps living' });
    const sub = await createTask({ title: 'Goes', parentId: parent.id });
    expect((await t.api({ method: 'DELETE', url: taskUrl(sub.id), cookie: consultant() })).statusCode).toBe(204);
    expect(await getTask(parent.id)).toMatchObject({ subtasks: [], subtaskCount: 0 });
  });
});

describe('POST /api/v1/projects/:id/tasks/:taskId/status', () => {
  const move = (taskId: string, status: string, cookie = consultant()) =>
    t.api({ method: 'POST', url: `${taskUrl(taskId)}/status`, cookie, payload: { status } });

  it('follows the status machine, stamping completed_at on entering COMPLETED and clearing it on leaving', async () => {
    const task = await createTask({ title: 'Machine' });
    let res = await move(task.id, 'IN_PROGRESS');
    expect(res.json()).toMatchObject({ status: 'IN_PROGRESS', completedAt: null });
    res = await move(task.id, 'IN_REVIEW');
    expect(res.json()).toMatchObject({ status: 'IN_REVIEW' });
    res = await move(task.id, 'INCOMPLETE');
    expect(res.json()).toMatchObject({ status: 'INCOMPLETE' });
    res = await move(task.id, 'IN_REVIEW');
    res = await move(task.id, 'COMPLETED');
    expect(res.statusCode).toBe(200);
    const completedAt = (res.json() as TaskDetail).completedAt;
    expect(completedAt).toEqual(expect.any(String));
    expect(Date.now() - Date.parse(completedAt!)).toBeLessThan(60_000);
    res = await move(task.id, 'IN_PROGRESS');
    expect(res.json()).toMatchObject({ status: 'IN_PROGRESS', completedAt: null });
    const entries = await auditRows(t, 'task.status', task.id);
    expect(entries.map((e) => `${e.before.status}>${e.after.status}`)).toEqual([
      'OPEN>IN_PROGRESS',
      'IN_PROGRESS>IN_REVIEW',
      'IN_REVIEW>INCOMPLETE',
      'INCOMPLETE>IN_REVIEW',
      'IN_REVIEW>COMPLETED',
      'COMPLETED>IN_PROGRESS',
    ]);
  });

  it.each([
    ['OPEN', 'INCOMPLETE'],
    ['IN_REVIEW', 'OPEN'],
    ['COMPLETED', 'OPEN'],
    ['NOT_APPLICABLE', 'COMPLETED'],
    ['INCOMPLETE', 'COMPLETED'],
  ])('refuses %s -> %s with 409 invalid_status_transition, changing nothing', async (from, to) => {
    const task = await createTask({ title: `From ${from}`, status: from });
    const res = await move(task.id, to);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('invalid_status_transition');
    expect((await getTask(task.id)).status).toBe(from);
    expect(await auditRows(t, 'task.status', task.id)).toEqual([]);
  });

  it('answers 200 without a change or a record when the status is the same', async () => {
    const task = await createTask({ title: 'Same', status: 'IN_REVIEW' });
    const before = await t.database.db
      .selectFrom('tasks')
      .select('updated_at')
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    const res = await move(task.id, 'IN_REVIEW');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'IN_REVIEW' });
    const after = await t.database.db
      .selectFrom('tasks')
      .select('updated_at')
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect(after.updated_at).toEqual(before.updated_at);
    expect(await auditRows(t, 'task.status', task.id)).toEqual([]);
  });

  it('lets an assignee without write access move the status, and nobody else without it', async () => {
    const task = await createTask({ title: 'Assignee work', assigneeIds: [userIds['member@acme.test']] });
    const other = await createTask({ title: 'Not assigned' });
    const res = await move(task.id, 'IN_PROGRESS', member());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'IN_PROGRESS', permissions: { edit: false, changeStatus: true } });
    const [entry] = await auditRows(t, 'task.status', task.id);
    expect(entry).toMatchObject({ actor_email: 'member@acme.test' });
    const refused = await move(other.id, 'IN_PROGRESS', member());
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({
      status: 403,
      code: 'user_can_not_update_project',
    });
    expect((await getTask(other.id)).status).toBe('OPEN');
    const globex = await move(task.id, 'OPEN', cookies['client@globex.test']);
    expect({ status: globex.statusCode, code: globex.json().code }).toEqual({ status: 404, code: 'project_not_found' });
  });

  it('refuses an unknown status with 400 naming status', async () => {
    const task = await createTask({ title: 'Bad status' });
    const res = await move(task.id, 'DONE');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'status' }] });
  });
});

describe('task comments', () => {
  const commentsUrl = (taskId: string) => `${taskUrl(taskId)}/comments`;

  it('lets anyone who sees the project comment, stores the text as given, lists oldest first', async () => {
    const task = await createTask({ title: 'Discussed' });
    const body = '<b>Looks good</b> & <script>alert(1)</script>';
    const first = await t.api({ method: 'POST', url: commentsUrl(task.id), cookie: member(), payload: { body } });
    expect(first.statusCode).toBe(201);
    const comment = first.json() as TaskComment;
    expect(comment).toMatchObject({
      taskId: task.id,
      body,
      author: { id: userIds['member@acme.test'], email: 'member@acme.test' },
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await t.api({
      method: 'POST',
      url: commentsUrl(task.id),
      cookie: consultant(),
      payload: { body: '  Thanks  ' },
    });
    expect(second.json()).toMatchObject({ body: 'Thanks' });
    const list = await t.api({ method: 'GET', url: commentsUrl(task.id), cookie: lead() });
    expect(list.statusCode).toBe(200);
    expect((list.json() as { results: TaskComment[] }).results.map((c) => [c.author?.email, c.body])).toEqual([
      ['member@acme.test', body],
      ['consultant@demo.test', 'Thanks'],
    ]);
    expect((await getTask(task.id)).commentCount).toBe(2);
    const [entry] = await auditRows(t, 'task.comment.create', task.id);
    expect(entry).toMatchObject({ actor_email: 'member@acme.test', after: { commentId: comment.id, body } });
  });

  it('refuses an empty or too long body, and Globex users', async () => {
    const task = await createTask({ title: 'Quiet' });
    for (const payload of [{}, { body: '   ' }, { body: 'x'.repeat(5001) }]) {
      const res = await t.api({ method: 'POST', url: commentsUrl(task.id), cookie: member(), payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'body' }] });
    }
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.api({
        method,
        url: commentsUrl(task.id),
        cookie: cookies['client@globex.test'],
        payload: method === 'POST' ? { body: 'hi' } : undefined,
      });
      expect({ method, status: res.statusCode, code: res.json().code }).toEqual({
        method,
        status: 404,
        code: 'project_not_found',
      });
    }
    expect((await getTask(task.id)).commentCount).toBe(0);
  });
});

describe('Globex users and auditors without a role', () => {
  it('get 404 project_not_found on the task detail', async () => {
    const task = await createTask({ title: 'Private' });
    for (const email of ['client@globex.test', 'auditor@demo.test']) {
      const res = await t.api({ method: 'GET', url: taskUrl(task.id), cookie: cookies[email] });
      expect({ email, status: res.statusCode, code: res.json().code }).toEqual({
        email,
        status: 404,
        code: 'project_not_found',
      });
    }
  });
});

// The list reply of a single task is a Task: the detail-only fields stay out of it.
describe('list shapes', () => {
  it('keeps detail-only fields out of list rows', async () => {
    await createTask({ title: 'Shape' });
    const row = (await listTasks('search=Shape')).results[0] as Task & Partial<TaskDetail>;
    expect(row.description).toBeUndefined();
    expect(row.permissions).toBeUndefined();
  });
});

describe('GET /api/v1/projects/:id/assignees', () => {
  it("offers writers the roster's staff and the company's active members, and no other staff", async () => {
    const project = await newProject(acmeId, [
      ['consultant@demo.test', 'Lead Consultant'],
      ['lead@acme.test', 'Client Lead'],
    ]);
    const suspended = await newUser(t, { companyIds: [acmeId], status: 'suspended' });
    const res = await t.api({ method: 'GET', url: `/api/v1/projects/${project}/assignees`, cookie: lead() });
    expect(res.statusCode).toBe(200);
    const results = (res.json() as { results: ProjectUserRef[] }).results;
    const emails = results.map((u) => u.email);
    expect(emails).toEqual(expect.arrayContaining(['consultant@demo.test', 'lead@acme.test', 'member@acme.test']));
    // staff off the roster, suspended users and other companies' users are not offered
    for (const email of ['admin@demo.test', 'auditor@demo.test', 'client@globex.test', suspended.email])
      expect(emails).not.toContain(email);
    expect(results.find((u) => u.email === 'member@acme.test')).toEqual({
      id: userIds['member@acme.test'],
      firstName: expect.any(String),
      lastName: expect.any(String),
      email: 'member@acme.test',
    });
    // everyone offered can be assigned
    const task = await createTask(
      { title: 'Everyone', assigneeIds: results.slice(0, 20).map((u) => u.id) },
      consultant(),
      project,
    );
    expect(task.assignees).toHaveLength(Math.min(results.length, 20));
  });

  it('refuses readers without a role with 403, and other companies with 404', async () => {
    const member403 = await t.api({ method: 'GET', url: `/api/v1/projects/${projectId}/assignees`, cookie: member() });
    expect({ status: member403.statusCode, code: member403.json().code }).toEqual({
      status: 403,
      code: 'user_can_not_update_project',
    });
    const globex = await t.api({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/assignees`,
      cookie: cookies['client@globex.test'],
    });
    expect({ status: globex.statusCode, code: globex.json().code }).toEqual({ status: 404, code: 'project_not_found' });
  });
});

describe('GET /api/v1/projects/:id/task-assignees', () => {
  it("lists the users assigned to the project's top-level tasks, each once, by name ignoring case, to any reader", async () => {
    const project = await newProject(acmeId, [
      ['consultant@demo.test', 'Lead Consultant'],
      ['lead@acme.test', 'Client Lead'],
    ]);
    const [cal, amy, bob, subOnly, elsewhere] = [
      await newUser(t, { companyIds: [acmeId], firstName: 'Cal' }),
      await newUser(t, { companyIds: [acmeId], firstName: 'Amy', status: 'suspended' }),
      await newUser(t, { companyIds: [acmeId], firstName: 'bob' }),
      await newUser(t, { companyIds: [acmeId], firstName: 'Bea' }),
      await newUser(t, { companyIds: [acmeId], firstName: 'Dee' }),
    ];
    const parent = await insertTask(t, project, { assigneeIds: [cal.id, amy.id] });
    await insertTask(t, project, { assigneeIds: [cal.id, bob.id] });
    await insertTask(t, project);
    // subtasks and other projects' tasks do not count: the filter matches the project's top-level tasks
    await insertTask(t, project, { parentId: parent, assigneeIds: [subOnly.id] });
    await insertTask(t, otherProjectId, { assigneeIds: [elsewhere.id] });

    // member@acme.test holds no role on the project: a reader sees the people the task rows show
    const res = await t.api({ method: 'GET', url: `/api/v1/projects/${project}/task-assignees`, cookie: member() });
    expect(res.statusCode).toBe(200);
    const results = (res.json() as { results: ProjectUserRef[] }).results;
    expect(results.map((u) => u.firstName)).toEqual(['Amy', 'bob', 'Cal']);
    expect(results[2]).toEqual({ id: cal.id, firstName: 'Cal', lastName: 'Tester', email: cal.email });
  });

  it('answers an empty list for a project without assigned tasks, and 404 to other companies', async () => {
    const project = await newProject(acmeId, [['consultant@demo.test', 'Lead Consultant']]);
    await insertTask(t, project);
    const res = await t.api({ method: 'GET', url: `/api/v1/projects/${project}/task-assignees`, cookie: consultant() });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { results: [] } });
    const globex = await t.api({
      method: 'GET',
      url: `/api/v1/projects/${project}/task-assignees`,
      cookie: cookies['client@globex.test'],
    });
    expect({ status: globex.statusCode, code: globex.json().code }).toEqual({ status: 404, code: 'project_not_found' });
  });
});

describe('a canceled project', () => {
  it("refuses every change to its tasks with 409 project_is_canceled, changing nothing, and says so in the task's permissions", async () => {
    const project = await newProject(acmeId, [
      ['consultant@demo.test', 'Lead Consultant'],
      ['lead@acme.test', 'Client Lead'],
    ]);
    const task = await createTask(
      { title: 'Frozen', assigneeIds: [userIds['member@acme.test']] },
      consultant(),
      project,
    );
    // written directly: the cancel rule refuses projects with tasks, but older data or a restore may hold some
    await t.database.db.updateTable('projects').set({ status: 'canceled' }).where('id', '=', project).execute();
    const count = await rowCount(t, 'tasks');
    const status = {
      method: 'POST',
      url: `${taskUrl(task.id, project)}/status`,
      payload: { status: 'IN_PROGRESS' },
    } as const;
    const comment = {
      method: 'POST',
      url: `${taskUrl(task.id, project)}/comments`,
      payload: { body: 'hello' },
    } as const;
    const calls = [
      { method: 'POST', url: tasksUrl(project), payload: { title: 'Sneaked in' }, cookie: consultant() },
      { method: 'PATCH', url: taskUrl(task.id, project), payload: { title: 'Renamed' }, cookie: consultant() },
      { method: 'DELETE', url: taskUrl(task.id, project), cookie: consultant() },
      { ...status, cookie: consultant() },
      { ...comment, cookie: consultant() },
      // the assignee (a reader) and any reader
      { ...status, cookie: member() },
      { ...comment, cookie: member() },
    ] as const;
    for (const call of calls) {
      const res = await t.api(call);
      expect({ call: `${call.method} ${call.url}`, status: res.statusCode, body: res.json() }).toMatchObject({
        status: 409,
        body: { code: 'project_is_canceled', message: 'The project is canceled: restore it to change its work.' },
      });
    }
    expect(await rowCount(t, 'tasks')).toBe(count);
    const detail = await getTask(task.id, consultant(), project);
    expect(detail).toMatchObject({
      title: 'Frozen',
      status: 'OPEN',
      commentCount: 0,
      permissions: { edit: false, changeStatus: false, comment: false },
    });
    const shown = (await t.api({ method: 'GET', url: `/api/v1/projects/${project}`, cookie: consultant() })).json();
    expect(shown.permissions).toEqual({ manage: true, write: false, manageRoster: true });
    // restored to pending, the work opens again
    await t.database.db.updateTable('projects').set({ status: 'pending' }).where('id', '=', project).execute();
    expect(
      (
        await t.api({
          method: 'PATCH',
          url: taskUrl(task.id, project),
          cookie: consultant(),
          payload: { title: 'Thawed' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('cannot be canceled and given a task at the same time: either the cancel or the task is refused', async () => {
    for (let round = 0; round < 6; round += 1) {
      const project = await newProject(acmeId, [['consultant@demo.test', 'Lead Consultant']]);
      await t.database.db.updateTable('projects').set({ status: 'pending' }).where('id', '=', project).execute();
      const [cancel, create] = await Promise.all([
        t.api({
          method: 'POST',
          url: `/api/v1/projects/${project}/status`,
          cookie: consultant(),
          payload: { status: 'canceled' },
        }),
        t.api({ method: 'POST', url: tasksUrl(project), cookie: consultant(), payload: { title: `Racer ${round}` } }),
      ]);
      const row = await t.database.db
        .selectFrom('projects')
        .select('status')
        .where('id', '=', project)
        .executeTakeFirstOrThrow();
      const tasks = await t.database.db.selectFrom('tasks').select('id').where('project_id', '=', project).execute();
      const outcome = { cancel: cancel.statusCode, create: create.statusCode, status: row.status, tasks: tasks.length };
      expect([
        { cancel: 200, create: 409, status: 'canceled', tasks: 0 },
        { cancel: 409, create: 201, status: 'pending', tasks: 1 },
      ]).toContainEqual(outcome);
      expect(create.statusCode === 409 ? create.json().code : cancel.json().code).toBe(
        create.statusCode === 409 ? 'project_is_canceled' : 'project_with_tasks_cannot_be_canceled',
      );
    }
  });

  it('still accepts work on a completed project', async () => {
    const project = await newProject(acmeId, [['consultant@demo.test', 'Lead Consultant']]);
    await t.database.db.updateTable('projects').set({ status: 'completed' }).where('id', '=', project).execute();
    const task = await createTask({ title: 'Late finding' }, consultant(), project);
    const comment = await t.api({
      method: 'POST',
      url: `${taskUrl(task.id, project)}/comments`,
      cookie: member(),
      payload: { body: 'Noted' },
    });
    expect(comment.statusCode).toBe(201);
  });
});

describe('due this week', () => {
  it('means today and the six days after, in the task filter and in the dashboard count alike', async () => {
    const company = await newCompany(t, `Due week Co ${randomUUID()}`);
    const project = await newProject(company, [['consultant@demo.test', 'Lead Consultant']]);
    const at = new Date().toISOString();
    const due: Record<string, string> = {};
    for (const offset of [-1, 0, 6, 7]) {
      due[await insertTask(t, project, { title: `Due ${offset}`, createdAt: at, dueDate: day(offset) })] =
        `day ${offset}`;
    }
    const listed = (await listTasks('due=week', consultant(), project)).results.map((task) => due[task.id]).sort();
    expect(listed).toEqual(['day 0', 'day 6']);
    const summary = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${company}/projects/summary`,
      cookie: consultant(),
    });
    expect((summary.json() as ProjectsSummary).dueThisWeek).toBe(listed.length);
  });
});

describe('NUL characters', () => {
  it('are refused with 400 naming the field or parameter, before any query', async () => {
    const task = await createTask({ title: 'Plain' });
    const cases: NulCase[] = [
      ['POST', tasksUrl(), { title: 'a\u0000b' }, 'title'],
      ['POST', tasksUrl(), { title: 'ok', referenceId: 'R\u00001' }, 'referenceId'],
      ['POST', tasksUrl(), { title: 'ok', assigneeIds: ['\u0000'] }, 'assigneeIds.0'],
      ['PATCH', taskUrl(task.id), { description: 'x\u0000' }, 'description'],
      ['POST', `${taskUrl(task.id)}/comments`, { body: '\u0000' }, 'body'],
      ['GET', `${tasksUrl()}?search=%00`, undefined, 'search'],
      ['GET', `${tasksUrl()}?assigneeId=a%00`, undefined, 'assigneeId'],
      ['GET', `${tasksUrl()}?status[]=OPEN&status[]=%00`, undefined, 'status'],
      ['GET', taskUrl('%00'), undefined, 'taskId'],
      ['GET', '/api/v1/projects/%00/tasks', undefined, 'id'],
      ['GET', `/api/v1/companies/${acmeId}/tasks?cursor=%00`, undefined, 'cursor'],
    ];
    await expectNulRefused(t, consultant(), cases);
    expect(await getTask(task.id)).toMatchObject({ title: 'Plain', description: null, commentCount: 0 });
  });
});
