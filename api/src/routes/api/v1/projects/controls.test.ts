import type {
  ControlDetail,
  ControlList,
  PointOfFocus,
  PointOfFocusList,
  TaskDetail,
} from '@portal/shared/core/projects';
import * as controlsRepository from '../../../../db/controls';
import { createTestApp, type TestApp } from '../../../../test/app';
import {
  acmeProjectsSetup,
  auditRows,
  expectNulRefused,
  leadRoster,
  newActiveProject,
  type NulCase,
  postTask,
  rowCount,
} from '../../../../test/project-fixtures';

let t: TestApp;
let acmeId: string;
let userIds: Record<string, string>;
let cookies: Record<string, string>;
/** Acme project: consultant is Lead Consultant, lead@acme.test Client Lead; member@acme.test holds no role. */
let projectId: string;
let otherProjectId: string;

const newProject = () => newActiveProject(t, acmeId, 'Controls test project', leadRoster(userIds));

beforeAll(async () => {
  t = await createTestApp();
  ({ acmeId, userIds, cookies, projectId, otherProjectId } = await acmeProjectsSetup(
    t,
    ['Controls test project', 'Controls test project'],
    ['consultant@demo.test', 'auditor@demo.test', 'lead@acme.test', 'member@acme.test', 'client@globex.test'],
  ));
});
afterAll(() => t.close());

const consultant = () => cookies['consultant@demo.test'];
const lead = () => cookies['lead@acme.test'];
const member = () => cookies['member@acme.test'];

const controlsUrl = (project = projectId) => `/api/v1/projects/${project}/controls`;
const controlUrl = (controlId: string, project = projectId) => `${controlsUrl(project)}/${controlId}`;
const pointsUrl = (project = projectId) => `/api/v1/projects/${project}/points-of-focus`;

async function createControl(
  payload: Record<string, unknown>,
  cookie = consultant(),
  project = projectId,
): Promise<ControlDetail> {
  const res = await t.api({ method: 'POST', url: controlsUrl(project), cookie, payload });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as ControlDetail;
}

async function getControl(controlId: string, cookie = consultant(), project = projectId): Promise<ControlDetail> {
  const res = await t.api({ method: 'GET', url: controlUrl(controlId, project), cookie });
  expect(res.statusCode).toBe(200);
  return res.json() as ControlDetail;
}

const createTask = (payload: Record<string, unknown>, project = projectId): Promise<TaskDetail> =>
  postTask(t, consultant(), project, payload);

async function addPoint(
  controlId: string,
  payload: Record<string, unknown>,
  cookie = consultant(),
): Promise<PointOfFocus> {
  const res = await t.api({ method: 'POST', url: `${controlUrl(controlId)}/points-of-focus`, cookie, payload });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as PointOfFocus;
}

describe('POST /api/v1/projects/:id/controls', () => {
  it('creates a control linked to tasks, answers its detail and records it', async () => {
    const a = await createTask({ title: 'Linked A', status: 'COMPLETED' });
    const b = await createTask({ title: 'Linked B' });
    const control = await createControl({
      name: ' CC6.1 ',
      title: 'Logical access',
      description: 'Access is restricted',
      taskIds: [a.id, b.id, a.id],
    });
    expect(control).toMatchObject({
      projectId,
      name: 'CC6.1',
      title: 'Logical access',
      description: 'Access is restricted',
      taskCount: 2,
      tasksDone: 1,
      pointOfFocusCount: 0,
      pointsOfFocus: [],
      permissions: { edit: true },
    });
    expect(control.tasks.map((task) => task.id)).toEqual([a.id, b.id]);
    expect(
      (await t.api({ method: 'GET', url: `/api/v1/projects/${projectId}/tasks/${a.id}`, cookie: consultant() })).json()
        .controls,
    ).toEqual([{ id: control.id, name: 'CC6.1', title: 'Logical access' }]);
    const [entry] = await auditRows(t, 'control.create', control.id);
    expect(entry).toMatchObject({
      actor_email: 'consultant@demo.test',
      company_id: acmeId,
      after: { name: 'CC6.1', taskIds: [a.id, b.id] },
    });
  });

  it('refuses a name another control of the project has, in any case, with 409 naming name', async () => {
    await createControl({ name: 'A1.2', title: 'Availability' });
    const count = await rowCount(t, 'controls');
    for (const name of ['A1.2', 'a1.2']) {
      const res = await t.api({
        method: 'POST',
        url: controlsUrl(),
        cookie: consultant(),
        payload: { name, title: 'Again' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'control_name_must_be_unique',
        message: 'Control IDs must be unique.',
        details: [{ field: 'name' }],
      });
    }
    expect(await rowCount(t, 'controls')).toBe(count);
    // the same name in another project is fine
    await createControl({ name: 'A1.2', title: 'Availability' }, consultant(), otherProjectId);
  });

  it('answers the same 409 when the unique index catches a name the check missed', async () => {
    await createControl({ name: 'IDX.1', title: 'First' });
    const count = await rowCount(t, 'controls');
    const spy = jest.spyOn(controlsRepository, 'controlNameTaken').mockResolvedValue(false);
    try {
      const res = await t.api({
        method: 'POST',
        url: controlsUrl(),
        cookie: consultant(),
        payload: { name: 'idx.1', title: 'Second' },
      });
      expect(spy).toHaveBeenCalled();
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'control_name_must_be_unique', details: [{ field: 'name' }] });
    } finally {
      spy.mockRestore();
    }
    expect(await rowCount(t, 'controls')).toBe(count);
  });

  it("refuses tasks that are not the project's with 400 naming taskIds", async () => {
    const foreign = await createTask({ title: 'Foreign' }, otherProjectId);
    const count = await rowCount(t, 'controls');
    for (const taskId of [foreign.id, 'no-such-task']) {
      const res = await t.api({
        method: 'POST',
        url: controlsUrl(),
        cookie: consultant(),
        payload: { name: `T-${taskId}`, title: 'Bad links', taskIds: [taskId] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        details: [{ field: 'taskIds', message: expect.stringContaining(taskId) }],
      });
    }
    expect(await rowCount(t, 'controls')).toBe(count);
  });

  it.each([
    [{ title: 'No name' }, 'name'],
    [{ name: '  ', title: 'Blank' }, 'name'],
    [{ name: 'n'.repeat(51), title: 'Long' }, 'name'],
    [{ name: 'NT' }, 'title'],
    [{ name: 'TI', title: 'ok', taskIds: 'x' }, 'taskIds'],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    const count = await rowCount(t, 'controls');
    const res = await t.api({ method: 'POST', url: controlsUrl(), cookie: consultant(), payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
    expect(await rowCount(t, 'controls')).toBe(count);
  });

  it.each([
    ['member@acme.test', 403, 'user_can_not_update_project'],
    ['client@globex.test', 404, 'project_not_found'],
    ['auditor@demo.test', 404, 'project_not_found'],
  ])('refuses %s with %i %s', async (email, status, code) => {
    const count = await rowCount(t, 'controls');
    const res = await t.api({
      method: 'POST',
      url: controlsUrl(),
      cookie: cookies[email],
      payload: { name: 'Z9', title: 'Not mine' },
    });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
    expect(await rowCount(t, 'controls')).toBe(count);
  });
});

describe('GET /api/v1/projects/:id/controls', () => {
  let listProject: string;

  beforeAll(async () => {
    listProject = await newProject();
    const done = await createTask({ title: 'Done', status: 'NOT_APPLICABLE' }, listProject);
    const open = await createTask({ title: 'Open' }, listProject);
    const post = (payload: Record<string, unknown>) => createControl(payload, consultant(), listProject);
    const c2 = await post({ name: 'cc2.1', title: 'Communication', taskIds: [done.id, open.id] });
    await post({ name: 'CC1.1', title: 'Integrity and ethics' });
    await post({ name: 'A1.1', title: 'Zoned capacity', taskIds: [open.id] });
    const points = await t.api({
      method: 'POST',
      url: `${controlUrl(c2.id, listProject)}/points-of-focus`,
      cookie: consultant(),
      payload: { name: 'Internal' },
    });
    expect(points.statusCode).toBe(201);
  });

  const list = async (query = '', cookie = consultant()) => {
    const res = await t.api({ method: 'GET', url: `${controlsUrl(listProject)}?${query}`, cookie });
    expect(res.statusCode).toBe(200);
    return res.json() as ControlList;
  };

  it('lists controls by name with their counts, to a client without a role too', async () => {
    const page = await list('', member());
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 25 });
    expect(page.results.map((c) => [c.name, c.taskCount, c.tasksDone, c.pointOfFocusCount])).toEqual([
      ['A1.1', 1, 0, 0],
      ['CC1.1', 0, 0, 0],
      ['cc2.1', 2, 1, 1],
    ]);
  });

  it.each([
    ['sort=-name', ['cc2.1', 'CC1.1', 'A1.1']],
    ['sort=title', ['cc2.1', 'CC1.1', 'A1.1']],
    ['sort=-title', ['A1.1', 'CC1.1', 'cc2.1']],
    ['search=CC', ['CC1.1', 'cc2.1']],
    ['search=zoned', ['A1.1']],
    ['pageSize=2&page=2', ['cc2.1']],
  ])('sorts, searches and pages with %s', async (query, names) => {
    expect((await list(query)).results.map((c) => c.name)).toEqual(names);
  });

  it('refuses a bad query with 400 naming it', async () => {
    const res = await t.api({ method: 'GET', url: `${controlsUrl(listProject)}?sort=size`, cookie: consultant() });
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'sort' }] });
  });

  it('answers 404 to Globex users', async () => {
    const res = await t.api({ method: 'GET', url: controlsUrl(listProject), cookie: cookies['client@globex.test'] });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'project_not_found' });
  });
});

describe('GET, PATCH and DELETE /api/v1/projects/:id/controls/:controlId', () => {
  it('renames a control, refuses a taken name, keeps its own name in another case, and records the change', async () => {
    await createControl({ name: 'PI1.1', title: 'Processing' });
    const control = await createControl({ name: 'PI1.2', title: 'Inputs' });
    const taken = await t.api({
      method: 'PATCH',
      url: controlUrl(control.id),
      cookie: lead(),
      payload: { name: 'pi1.1' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'control_name_must_be_unique', details: [{ field: 'name' }] });
    const res = await t.api({
      method: 'PATCH',
      url: controlUrl(control.id),
      cookie: lead(),
      payload: { name: 'pi1.2', title: 'Inputs checked', description: 'Complete' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'pi1.2', title: 'Inputs checked', description: 'Complete' });
    const entries = await auditRows(t, 'control.update', control.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_email: 'lead@acme.test',
      before: { name: 'PI1.2', title: 'Inputs', description: null },
      after: { name: 'pi1.2', title: 'Inputs checked', description: 'Complete' },
    });
    const empty = await t.api({ method: 'PATCH', url: controlUrl(control.id), cookie: lead(), payload: { title: '' } });
    expect(empty.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'title' }] });
    expect((await getControl(control.id)).title).toBe('Inputs checked');
  });

  it("answers 404 control_not_found for another project's control on every control route", async () => {
    const foreign = await createControl({ name: 'FOREIGN', title: 'Elsewhere' }, consultant(), otherProjectId);
    const task = await createTask({ title: 'Here' });
    const calls = [
      { method: 'GET', url: controlUrl(foreign.id) },
      { method: 'PATCH', url: controlUrl(foreign.id), payload: { title: 'Stolen' } },
      { method: 'DELETE', url: controlUrl(foreign.id) },
      { method: 'PUT', url: `${controlUrl(foreign.id)}/tasks/${task.id}` },
      { method: 'DELETE', url: `${controlUrl(foreign.id)}/tasks/${task.id}` },
      { method: 'POST', url: `${controlUrl(foreign.id)}/points-of-focus`, payload: { name: 'Stolen' } },
    ] as const;
    for (const call of calls) {
      const res = await t.api({ ...call, cookie: consultant() });
      expect({ call: `${call.method} ${call.url}`, status: res.statusCode, code: res.json().code }).toEqual({
        call: `${call.method} ${call.url}`,
        status: 404,
        code: 'control_not_found',
      });
    }
    expect(await getControl(foreign.id, consultant(), otherProjectId)).toMatchObject({
      title: 'Elsewhere',
      taskCount: 0,
      pointOfFocusCount: 0,
    });
  });

  it('deletes a control with its links and points of focus (the tasks stay), and records it', async () => {
    const task = await createTask({ title: 'Survivor' });
    const control = await createControl({ name: 'GONE', title: 'Doomed', taskIds: [task.id] });
    await addPoint(control.id, { name: 'Doomed point' });
    expect((await t.api({ method: 'DELETE', url: controlUrl(control.id), cookie: member() })).statusCode).toBe(403);
    expect((await t.api({ method: 'DELETE', url: controlUrl(control.id), cookie: lead() })).statusCode).toBe(204);
    const db = t.database.db;
    expect(
      await db.selectFrom('control_tasks').select('task_id').where('control_id', '=', control.id).execute(),
    ).toEqual([]);
    expect(await db.selectFrom('points_of_focus').select('id').where('control_id', '=', control.id).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('tasks').select('id').where('id', '=', task.id).execute()).toHaveLength(1);
    const [entry] = await auditRows(t, 'control.delete', control.id);
    expect(entry).toMatchObject({ before: { name: 'GONE', taskIds: [task.id], pointsOfFocus: ['Doomed point'] } });
    expect((await t.api({ method: 'GET', url: controlUrl(control.id), cookie: lead() })).json().code).toBe(
      'control_not_found',
    );
  });
});

describe('PUT and DELETE /api/v1/projects/:id/controls/:controlId/tasks/:taskId', () => {
  it('links and unlinks a task idempotently, recording each change once', async () => {
    const control = await createControl({ name: 'LINK.1', title: 'Links' });
    const task = await createTask({ title: 'To link' });
    const url = `${controlUrl(control.id)}/tasks/${task.id}`;
    expect((await t.api({ method: 'PUT', url, cookie: lead() })).statusCode).toBe(204);
    expect((await t.api({ method: 'PUT', url, cookie: lead() })).statusCode).toBe(204);
    expect((await getControl(control.id)).tasks.map((x) => x.id)).toEqual([task.id]);
    expect(await auditRows(t, 'control.task.link', control.id)).toHaveLength(1);
    expect((await t.api({ method: 'DELETE', url, cookie: lead() })).statusCode).toBe(204);
    expect((await t.api({ method: 'DELETE', url, cookie: lead() })).statusCode).toBe(204);
    expect(await getControl(control.id)).toMatchObject({ tasks: [], taskCount: 0 });
    const unlinks = await auditRows(t, 'control.task.unlink', control.id);
    expect(unlinks).toHaveLength(1);
    expect(unlinks[0]).toMatchObject({ actor_email: 'lead@acme.test', before: { taskId: task.id } });
  });

  it("answers 404 task_not_found for another project's task, and 403 to a client without a role", async () => {
    const control = await createControl({ name: 'LINK.2', title: 'Links' });
    const foreign = await createTask({ title: 'Foreign' }, otherProjectId);
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await t.api({ method, url: `${controlUrl(control.id)}/tasks/${foreign.id}`, cookie: consultant() });
      expect({ method, status: res.statusCode, code: res.json().code }).toEqual({
        method,
        status: 404,
        code: 'task_not_found',
      });
    }
    const task = await createTask({ title: 'Local' });
    const res = await t.api({ method: 'PUT', url: `${controlUrl(control.id)}/tasks/${task.id}`, cookie: member() });
    expect(res.statusCode).toBe(403);
    expect((await getControl(control.id)).taskCount).toBe(0);
  });
});

describe('points of focus', () => {
  let pointsProject: string;
  let cc2: ControlDetail;
  let a1: ControlDetail;

  beforeAll(async () => {
    pointsProject = await newProject();
    cc2 = await createControl({ name: 'CC2.1', title: 'Communication' }, consultant(), pointsProject);
    a1 = await createControl({ name: 'A1.1', title: 'Availability' }, consultant(), pointsProject);
  });

  const url = (project = pointsProject) => pointsUrl(project);
  const post = async (control: ControlDetail, payload: Record<string, unknown>) => {
    const res = await t.api({
      method: 'POST',
      url: `${controlUrl(control.id, pointsProject)}/points-of-focus`,
      cookie: lead(),
      payload,
    });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
    return res.json() as PointOfFocus;
  };
  const list = async (query = '', cookie = consultant()) => {
    const res = await t.api({ method: 'GET', url: `${url()}?${query}`, cookie });
    expect(res.statusCode).toBe(200);
    return res.json() as PointOfFocusList;
  };

  it('adds points under a control, lists them by control name then oldest first, and records them', async () => {
    const first = await post(cc2, { name: 'Internal communication', description: 'Board minutes' });
    expect(first).toMatchObject({
      controlId: cc2.id,
      controlName: 'CC2.1',
      name: 'Internal communication',
      description: 'Board minutes',
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await post(cc2, { name: 'External communication' });
    await post(a1, { name: 'Capacity planning' });
    const page = await list('', member());
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 25 });
    expect(page.results.map((p) => `${p.controlName}: ${p.name}`)).toEqual([
      'A1.1: Capacity planning',
      'CC2.1: Internal communication',
      'CC2.1: External communication',
    ]);
    expect((await getControl(cc2.id, consultant(), pointsProject)).pointsOfFocus.map((p) => p.name)).toEqual([
      'Internal communication',
      'External communication',
    ]);
    expect((await getControl(cc2.id, consultant(), pointsProject)).pointOfFocusCount).toBe(2);
    const [entry] = await auditRows(t, 'point_of_focus.create', first.id);
    expect(entry).toMatchObject({
      actor_email: 'lead@acme.test',
      company_id: acmeId,
      after: { controlId: cc2.id, name: 'Internal communication' },
    });
  });

  it.each([
    ['controlId=A1', ['Capacity planning']],
    ['search=EXTERNAL', ['External communication']],
    ['search=minutes', ['Internal communication']],
    ['pageSize=2&page=2', ['External communication']],
  ])('filters and pages with %s', async (query, names) => {
    const page = await list(query.replace('A1', a1.id));
    expect(page.results.map((p) => p.name)).toEqual(names);
  });

  it('edits and deletes a point, recording both; refuses a client without a role', async () => {
    const point = await post(a1, { name: 'Monitoring' });
    const pointUrl = `${url()}/${point.id}`;
    expect(
      (await t.api({ method: 'PATCH', url: pointUrl, cookie: member(), payload: { name: 'Mine' } })).statusCode,
    ).toBe(403);
    const res = await t.api({
      method: 'PATCH',
      url: pointUrl,
      cookie: consultant(),
      payload: { name: 'Monitoring tools', description: 'SIEM' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: point.id,
      name: 'Monitoring tools',
      description: 'SIEM',
      controlName: 'A1.1',
    });
    const blank = await t.api({ method: 'PATCH', url: pointUrl, cookie: consultant(), payload: { name: ' ' } });
    expect(blank.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'name' }] });
    const [update] = await auditRows(t, 'point_of_focus.update', point.id);
    expect(update).toMatchObject({
      before: { name: 'Monitoring', description: null },
      after: { name: 'Monitoring tools', description: 'SIEM' },
    });
    expect((await t.api({ method: 'DELETE', url: pointUrl, cookie: member() })).statusCode).toBe(403);
    expect((await t.api({ method: 'DELETE', url: pointUrl, cookie: consultant() })).statusCode).toBe(204);
    expect(await auditRows(t, 'point_of_focus.delete', point.id)).toHaveLength(1);
    expect((await list()).results.map((p) => p.id)).not.toContain(point.id);
  });

  it("answers 404 point_of_focus_not_found for another project's point", async () => {
    const point = await post(a1, { name: 'Kept' });
    for (const method of ['PATCH', 'DELETE'] as const) {
      const res = await t.api({
        method,
        url: `${pointsUrl(projectId)}/${point.id}`,
        cookie: consultant(),
        payload: method === 'PATCH' ? { name: 'Stolen' } : undefined,
      });
      expect({ method, status: res.statusCode, code: res.json().code }).toEqual({
        method,
        status: 404,
        code: 'point_of_focus_not_found',
      });
    }
    expect((await list()).results.find((p) => p.id === point.id)?.name).toBe('Kept');
  });

  it('refuses a point without a name, and Globex users', async () => {
    const res = await t.api({
      method: 'POST',
      url: `${controlUrl(a1.id, pointsProject)}/points-of-focus`,
      cookie: consultant(),
      payload: { description: 'no name' },
    });
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'name' }] });
    const globex = await t.api({ method: 'GET', url: url(), cookie: cookies['client@globex.test'] });
    expect({ status: globex.statusCode, code: globex.json().code }).toEqual({ status: 404, code: 'project_not_found' });
  });
});

describe('a canceled project', () => {
  it('refuses every change to its controls and points of focus with 409 project_is_canceled, changing nothing', async () => {
    const project = await newProject();
    const control = await createControl({ name: 'FRZ.1', title: 'Frozen' }, consultant(), project);
    const task = await createTask({ title: 'Linked before' }, project);
    const point = (
      await t.api({
        method: 'POST',
        url: `${controlUrl(control.id, project)}/points-of-focus`,
        cookie: consultant(),
        payload: { name: 'Kept' },
      })
    ).json() as PointOfFocus;
    await t.database.db.updateTable('projects').set({ status: 'canceled' }).where('id', '=', project).execute();
    const before = await getControl(control.id, consultant(), project);
    expect(before.permissions).toEqual({ edit: false });
    const calls = [
      { method: 'POST', url: controlsUrl(project), payload: { name: 'FRZ.2', title: 'New' } },
      { method: 'PATCH', url: controlUrl(control.id, project), payload: { title: 'Renamed' } },
      { method: 'DELETE', url: controlUrl(control.id, project) },
      { method: 'PUT', url: `${controlUrl(control.id, project)}/tasks/${task.id}` },
      { method: 'DELETE', url: `${controlUrl(control.id, project)}/tasks/${task.id}` },
      { method: 'POST', url: `${controlUrl(control.id, project)}/points-of-focus`, payload: { name: 'New point' } },
      { method: 'PATCH', url: `${pointsUrl(project)}/${point.id}`, payload: { name: 'Renamed' } },
      { method: 'DELETE', url: `${pointsUrl(project)}/${point.id}` },
    ] as const;
    for (const call of calls) {
      const res = await t.api({ ...call, cookie: lead() });
      expect({ call: `${call.method} ${call.url}`, status: res.statusCode, code: res.json().code }).toEqual({
        call: `${call.method} ${call.url}`,
        status: 409,
        code: 'project_is_canceled',
      });
    }
    expect(await getControl(control.id, consultant(), project)).toEqual(before);
    const controls = await t.api({ method: 'GET', url: controlsUrl(project), cookie: consultant() });
    expect((controls.json() as ControlList).total).toBe(1);
  });
});

describe('NUL characters', () => {
  it('are refused with 400 naming the field or parameter', async () => {
    const control = await createControl({ name: 'NUL.1', title: 'Plain' });
    const cases: NulCase[] = [
      ['POST', controlsUrl(), { name: 'N\u0000', title: 'ok' }, 'name'],
      ['PATCH', controlUrl(control.id), { description: '\u0000' }, 'description'],
      ['POST', `${controlUrl(control.id)}/points-of-focus`, { name: 'p\u0000' }, 'name'],
      ['GET', `${controlsUrl()}?search=%00`, undefined, 'search'],
      ['GET', `${pointsUrl()}?controlId=%00`, undefined, 'controlId'],
      ['GET', controlUrl('%00'), undefined, 'controlId'],
    ];
    await expectNulRefused(t, consultant(), cases);
    expect(await getControl(control.id)).toMatchObject({
      name: 'NUL.1',
      title: 'Plain',
      description: null,
      pointOfFocusCount: 0,
    });
  });
});
