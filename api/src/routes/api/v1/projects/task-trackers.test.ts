import { randomUUID } from 'node:crypto';
import {
  type ApplicableTracker,
  type ApplyTemplateResult,
  type ProjectImportResult,
  type TaskTrackerDetail,
  type TaskTrackerImportResult,
} from '@portal/shared/core/practices';
import type { ControlDetail, TaskDetail, TaskList } from '@portal/shared/core/projects';
import { insertPractice } from '../../../../db/practices';
import * as seedProjects from '../../../../db/seed-projects';
import * as trackersDb from '../../../../db/task-trackers';
import { caseless } from '../../../../db/task-trackers';
import { createTestApp, type TestApp } from '../../../../test/app';
import { trackerCsv, type FixtureRow } from '../../../../test/task-tracker-files';
import { multipart, setProjectStatus } from '../../../../test/project-file-fixtures';
import {
  acmeProjectsSetup,
  auditRows,
  insertControl,
  insertTask,
  leadRoster,
  newActiveProject,
} from '../../../../test/project-fixtures';

type Row = FixtureRow;

const TEMPLATE: Row[] = [
  {
    'Task ID': 'AC-1',
    'Task Title': 'Review the access policy',
    'Task Description': 'Approved this year',
    'Control ID': 'CC6.1',
    'Control Title': 'Logical access',
    'Points of Focus': 'Restricts access\nManages credentials',
  },
  {
    'Task ID': 'AC-1.1',
    'Parent Task ID': 'AC-1',
    'Task Title': 'Collect the approval',
    'Control ID': 'CC6.1',
    'Points of Focus': 'Reviews access',
  },
  { 'Task ID': 'AC-2', 'Task Title': 'Sample new hires', 'Control ID': 'CC6.2', 'Control Title': 'Provisioning' },
  { 'Task Title': 'Kick-off meeting' },
];

let t: TestApp;
let acmeId: string;
let userIds: Record<string, string>;
let cookies: Record<string, string>;
/** consultant@demo.test Lead Consultant, lead@acme.test Client Lead; member@acme.test holds no role. */
let projectId: string;
let practiceId: string;
let practiceName: string;
/** The practice's published template (TEMPLATE) and a draft. */
let template: TaskTrackerDetail;
let draftId: string;

const consultant = () => cookies['consultant@demo.test'];
const lead = () => cookies['lead@acme.test'];
const member = () => cookies['member@acme.test'];
const outsider = () => cookies['client@globex.test'];
const auditor = () => cookies['auditor@demo.test'];

const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

async function importTemplate(practice: string, rows: Row[], publish: boolean): Promise<TaskTrackerDetail> {
  const res = await t.api({
    method: 'POST',
    url: `/api/v1/practices/${practice}/task-trackers/import`,
    cookie: consultant(),
    ...multipart({ name: unique('Template') }, { filename: 'template.csv', data: trackerCsv(rows) }),
  });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  const { tracker } = res.json() as TaskTrackerImportResult;
  if (publish)
    expect(
      (
        await t.api({
          method: 'PATCH',
          url: `/api/v1/task-trackers/${tracker.id}`,
          cookie: consultant(),
          payload: { status: 'published' },
        })
      ).statusCode,
    ).toBe(200);
  return (
    await t.api({ method: 'GET', url: `/api/v1/task-trackers/${tracker.id}`, cookie: consultant() })
  ).json() as TaskTrackerDetail;
}

beforeAll(async () => {
  t = await createTestApp();
  ({ acmeId, userIds, cookies, projectId } = await acmeProjectsSetup(
    t,
    ['Templates project', 'Templates other project'],
    ['consultant@demo.test', 'lead@acme.test', 'member@acme.test', 'client@globex.test', 'auditor@demo.test'],
  ));
  practiceName = unique('Apply practice');
  practiceId = await insertPractice(t.database.db, { name: practiceName });
  template = await importTemplate(practiceId, TEMPLATE, true);
  draftId = (await importTemplate(practiceId, TEMPLATE, false)).id;
});
afterAll(() => t.close());

const newProject = () => newActiveProject(t, acmeId, 'Templates project', leadRoster(userIds));

const apply = (project: string, payload: Record<string, unknown>, cookie = consultant()) =>
  t.api({ method: 'POST', url: `/api/v1/projects/${project}/task-trackers/apply`, cookie, payload });

const importFile = (project: string, rows: Row[] | Buffer, cookie = lead(), filename = 'tasks.csv') =>
  t.api({
    method: 'POST',
    url: `/api/v1/projects/${project}/tasks/import`,
    cookie,
    ...multipart({}, { filename, data: Buffer.isBuffer(rows) ? rows : trackerCsv(rows) }),
  });

async function taskList(project: string): Promise<TaskList['results']> {
  const res = await t.api({
    method: 'GET',
    url: `/api/v1/projects/${project}/tasks?pageSize=200`,
    cookie: consultant(),
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as TaskList).results;
}

async function taskDetail(project: string, taskId: string): Promise<TaskDetail> {
  return (
    await t.api({ method: 'GET', url: `/api/v1/projects/${project}/tasks/${taskId}`, cookie: consultant() })
  ).json() as TaskDetail;
}

async function controlDetail(project: string, controlId: string): Promise<ControlDetail> {
  return (
    await t.api({ method: 'GET', url: `/api/v1/projects/${project}/controls/${controlId}`, cookie: consultant() })
  ).json() as ControlDetail;
}

async function controlsOf(project: string) {
  return t.database.db
    .selectFrom('controls')
    .select(['id', 'name', 'title'])
    .where('project_id', '=', project)
    .orderBy('name')
    .execute();
}

async function workCount(project: string): Promise<Record<string, number>> {
  const count = async (table: 'tasks' | 'controls' | 'points_of_focus') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('project_id', '=', project)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { tasks: await count('tasks'), controls: await count('controls'), points: await count('points_of_focus') };
}

/** Runs a refused call and shows the project's work did not change. */
async function expectUnchanged(project: string, work: () => Promise<void>): Promise<void> {
  const before = await workCount(project);
  await work();
  expect(await workCount(project)).toEqual(before);
}

const taskId = (referenceId: string) => {
  const all = template.tasks.flatMap((task) => [task, ...task.subtasks]);
  return all.find((task) => task.referenceId === referenceId)!.id;
};

describe('GET /api/v1/projects/:id/task-trackers', () => {
  it("lists published templates of active practices, the project's practice first", async () => {
    const retired = await insertPractice(t.database.db, { name: unique('Retired practice') });
    const ofRetired = await importTemplate(retired, TEMPLATE, true);
    await t.database.db.updateTable('practices').set({ status: 'retired' }).where('id', '=', retired).execute();
    const project = await newProject();
    await t.database.db.updateTable('projects').set({ practice_id: practiceId }).where('id', '=', project).execute();

    const res = await t.api({ method: 'GET', url: `/api/v1/projects/${project}/task-trackers`, cookie: consultant() });
    expect(res.statusCode).toBe(200);
    const results = res.json().results as ApplicableTracker[];
    expect(results[0]).toEqual({
      id: template.id,
      name: template.name,
      description: template.description,
      practice: { id: practiceId, name: practiceName },
      taskCount: 4,
      controlCount: 2,
      ofProjectPractice: true,
    });
    const ids = results.map((r) => r.id);
    expect(ids).not.toContain(draftId);
    expect(ids).not.toContain(ofRetired.id);
    // the seeded practices' published templates follow
    expect(results.filter((r) => !r.ofProjectPractice).map((r) => r.practice.name)).toEqual(
      expect.arrayContaining(['PCI DSS Assessment', 'SOC 2 Readiness']),
    );
  });

  it('is for staff who manage projects: a Client Lead 403, an auditor without a role and another company 404', async () => {
    const url = `/api/v1/projects/${projectId}/task-trackers`;
    expect((await t.api({ method: 'GET', url, cookie: lead() })).json()).toMatchObject({
      code: 'user_can_not_update_project',
    });
    expect((await t.api({ method: 'GET', url, cookie: auditor() })).statusCode).toBe(404);
    expect((await t.api({ method: 'GET', url, cookie: outsider() })).statusCode).toBe(404);
  });
});

describe('POST /api/v1/projects/:id/task-trackers/apply', () => {
  it("copies the template's tasks, subtasks, controls, points of focus and links, in order; the project takes its practice", async () => {
    const project = await newProject();
    const res = await apply(project, { practiceId, taskTrackerId: template.id });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
    const result = res.json() as ApplyTemplateResult;
    expect(result).toEqual({
      rows: 4,
      tasks: 4,
      controlsCreated: 2,
      controlsLinked: 0,
      pointsOfFocus: 3,
      practice: { id: practiceId, name: practiceName },
    });

    const list = await taskList(project);
    expect(
      list.map((task) => [task.referenceId, task.title, task.status, task.assignees.length, task.subtaskCount]),
    ).toEqual([
      ['AC-1', 'Review the access policy', 'OPEN', 0, 1],
      ['AC-2', 'Sample new hires', 'OPEN', 0, 0],
      [null, 'Kick-off meeting', 'OPEN', 0, 0],
    ]);
    const first = await taskDetail(project, list[0].id);
    expect(first).toMatchObject({
      description: 'Approved this year',
      createdBy: { email: 'consultant@demo.test' },
      controls: [{ name: 'CC6.1', title: 'Logical access' }],
    });
    expect(first.subtasks.map((s) => s.referenceId)).toEqual(['AC-1.1']);
    const controls = await controlsOf(project);
    expect(controls.map((c) => [c.name, c.title])).toEqual([
      ['CC6.1', 'Logical access'],
      ['CC6.2', 'Provisioning'],
    ]);
    const cc61 = await controlDetail(project, controls[0].id);
    expect(cc61.pointsOfFocus.map((p) => p.name)).toEqual([
      'Restricts access',
      'Manages credentials',
      'Reviews access',
    ]);
    expect(cc61.tasks.map((task) => task.referenceId).sort()).toEqual(['AC-1', 'AC-1.1']);
    const company = await t.database.db
      .selectFrom('tasks')
      .select('company_id')
      .where('project_id', '=', project)
      .distinct()
      .execute();
    expect(company).toEqual([{ company_id: acmeId }]);

    const project_ = await t.database.db
      .selectFrom('projects')
      .select('practice_id')
      .where('id', '=', project)
      .executeTakeFirstOrThrow();
    expect(project_.practice_id).toBe(practiceId);
    const [entry] = await auditRows(t, 'project.template.apply', project);
    expect(entry).toMatchObject({
      actor_email: 'consultant@demo.test',
      company_id: acmeId,
      before: { practiceId: null },
      after: { practiceId, taskTrackerId: template.id, tasks: 4 },
    });
  });

  it('applies only the chosen tasks (a parent without its subtasks) with their controls', async () => {
    const project = await newProject();
    const res = await apply(project, {
      practiceId,
      taskTrackerId: template.id,
      taskIds: [taskId('AC-2'), taskId('AC-1')],
    });
    expect(res.json()).toMatchObject({ rows: 2, tasks: 2, controlsCreated: 2, pointsOfFocus: 3 });
    expect((await taskList(project)).map((task) => [task.referenceId, task.subtaskCount])).toEqual([
      ['AC-1', 0],
      ['AC-2', 0],
    ]);
    const only = await newProject();
    expect(
      (await apply(only, { practiceId, taskTrackerId: template.id, taskIds: [taskId('AC-2')] })).json(),
    ).toMatchObject({ tasks: 1, controlsCreated: 1, pointsOfFocus: 0 });
    expect((await controlsOf(only)).map((c) => c.name)).toEqual(['CC6.2']);
  });

  it('refuses a subtask without its parent (400 task_not_supported) and a task of no template (404 task_tracker_task_not_found)', async () => {
    const project = await newProject();
    await expectUnchanged(project, async () => {
      const orphan = await apply(project, { practiceId, taskTrackerId: template.id, taskIds: [taskId('AC-1.1')] });
      expect({ status: orphan.statusCode, body: orphan.json() }).toMatchObject({
        status: 400,
        body: { code: 'task_not_supported', details: [{ field: 'taskIds' }] },
      });
      const stranger = await apply(project, {
        practiceId,
        taskTrackerId: template.id,
        taskIds: [taskId('AC-2'), randomUUID()],
      });
      expect({ status: stranger.statusCode, body: stranger.json() }).toMatchObject({
        status: 404,
        body: { code: 'task_tracker_task_not_found' },
      });
    });
    const fresh = await t.database.db
      .selectFrom('projects')
      .select('practice_id')
      .where('id', '=', project)
      .executeTakeFirstOrThrow();
    expect(fresh.practice_id).toBeNull();
  });

  it('refuses an unknown or retired practice (400 invalid_practice), a template of another practice (404) and a draft (409)', async () => {
    const project = await newProject();
    const retired = await insertPractice(t.database.db, { name: unique('Retired'), status: 'retired' });
    await expectUnchanged(project, async () => {
      for (const id of [randomUUID(), retired]) {
        const res = await apply(project, { practiceId: id, taskTrackerId: template.id });
        expect({ status: res.statusCode, body: res.json() }).toMatchObject({
          status: 400,
          body: { code: 'invalid_practice', details: [{ field: 'practiceId' }] },
        });
      }
      const other = await insertPractice(t.database.db, { name: unique('Other') });
      const notTheirs = await apply(project, { practiceId: other, taskTrackerId: template.id });
      expect({ status: notTheirs.statusCode, body: notTheirs.json() }).toMatchObject({
        status: 404,
        body: { code: 'task_tracker_not_found', message: 'No templates found for the chosen practice.' },
      });
      const draft = await apply(project, { practiceId, taskTrackerId: draftId });
      expect({ status: draft.statusCode, body: draft.json() }).toMatchObject({
        status: 409,
        body: { code: 'task_tracker_in_wrong_status' },
      });
      const bad = await apply(project, { practiceId });
      expect({ status: bad.statusCode, body: bad.json() }).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', details: [{ field: 'taskTrackerId' }] },
      });
    });
  });

  it('refuses a Task ID the project has (409 naming the template task) and stores nothing', async () => {
    const project = await newProject();
    await insertTask(t, project, { referenceId: 'ac-2', title: 'Already here' });
    await expectUnchanged(project, async () => {
      const res = await apply(project, { practiceId, taskTrackerId: template.id });
      expect({ status: res.statusCode, body: res.json() }).toMatchObject({
        status: 409,
        body: { code: 'task_reference_id_already_exist_on_project', message: 'Task IDs must be unique or null' },
      });
      expect(res.json().details).toEqual([
        {
          field: 'taskTrackerId',
          message:
            'Template task "Sample new hires": Task ID AC-2 is already the Task ID of "Already here" in this project',
        },
      ]);
    });
  });

  it('reuses a control the project has (by Control ID, ignoring case), adding the points of focus it lacks', async () => {
    const project = await newProject();
    const controlId = await insertControl(t, project, 'cc6.1', 'Our own title');
    await t.api({
      method: 'POST',
      url: `/api/v1/projects/${project}/controls/${controlId}/points-of-focus`,
      cookie: consultant(),
      payload: { name: 'RESTRICTS ACCESS' },
    });
    const res = await apply(project, { practiceId, taskTrackerId: template.id });
    expect(res.json()).toMatchObject({ controlsCreated: 1, controlsLinked: 1, pointsOfFocus: 2 });
    const control = await controlDetail(project, controlId);
    expect(control).toMatchObject({ name: 'cc6.1', title: 'Our own title' });
    expect(control.pointsOfFocus.map((p) => p.name)).toEqual([
      'RESTRICTS ACCESS',
      'Manages credentials',
      'Reviews access',
    ]);
    expect(control.tasks.map((task) => task.referenceId).sort()).toEqual(['AC-1', 'AC-1.1']);
  });

  it("keeps the practice rule: another practice with tasks 409, another practice without tasks takes the template's", async () => {
    const other = await insertPractice(t.database.db, { name: unique('Previous practice') });
    const withTasks = await newProject();
    await t.database.db.updateTable('projects').set({ practice_id: other }).where('id', 'in', [withTasks]).execute();
    await insertTask(t, withTasks, { title: 'Existing work' });
    await expectUnchanged(withTasks, async () => {
      const res = await apply(withTasks, { practiceId, taskTrackerId: template.id });
      expect({ status: res.statusCode, body: res.json() }).toMatchObject({
        status: 409,
        body: { code: 'practices_can_not_be_changed_when_project_has_tasks' },
      });
    });
    const empty = await newProject();
    await t.database.db.updateTable('projects').set({ practice_id: other }).where('id', '=', empty).execute();
    expect((await apply(empty, { practiceId, taskTrackerId: template.id })).statusCode).toBe(200);
    expect(
      (
        await t.database.db
          .selectFrom('projects')
          .select('practice_id')
          .where('id', '=', empty)
          .executeTakeFirstOrThrow()
      ).practice_id,
    ).toBe(practiceId);
    // a project of the template's practice takes more of its templates
    const second = await importTemplate(practiceId, [{ 'Task ID': 'X-1', 'Task Title': 'More work' }], true);
    expect((await apply(empty, { practiceId, taskTrackerId: second.id })).json()).toMatchObject({ tasks: 1 });
  });

  it('refuses a canceled project (409 project_is_canceled), clients and Client Leads (403) and other companies (404)', async () => {
    const project = await newProject();
    await setProjectStatus(t, project, 'canceled');
    const canceled = await apply(project, { practiceId, taskTrackerId: template.id });
    expect({ status: canceled.statusCode, body: canceled.json() }).toMatchObject({
      status: 409,
      body: { code: 'project_is_canceled' },
    });
    expect((await apply(projectId, { practiceId, taskTrackerId: template.id }, lead())).json()).toMatchObject({
      code: 'user_can_not_update_project',
    });
    expect((await apply(projectId, { practiceId, taskTrackerId: template.id }, member())).statusCode).toBe(403);
    expect((await apply(projectId, { practiceId, taskTrackerId: template.id }, outsider())).json()).toMatchObject({
      code: 'project_not_found',
    });
    expect((await apply(projectId, { practiceId, taskTrackerId: template.id }, auditor())).statusCode).toBe(404);
  });
});

describe('POST /api/v1/projects/:id/tasks/import', () => {
  it('imports a file: new tasks in file order after the existing ones, subtasks of file and project tasks, existing controls reused', async () => {
    const project = await newProject();
    const existing = await insertTask(t, project, { referenceId: 'EX-1', title: 'Existing parent' });
    const controlId = await insertControl(t, project, 'CC6.2', 'Existing control');
    const res = await importFile(project, [
      { 'Task ID': 'N-1', 'Task Title': 'New one', 'Control ID': 'cc6.2', 'Points of Focus': 'Fresh point' },
      { 'Task ID': 'N-1.1', 'Parent Task ID': 'N-1', 'Task Title': 'Sub of new' },
      { 'Task ID': 'N-2', 'Parent Task ID': 'ex-1', 'Task Title': 'Under existing' },
      { 'Task Title': 'No Task ID', 'Control ID': 'NEW-C', 'Control Title': 'Brand new' },
    ]);
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
    expect(res.json() as ProjectImportResult).toEqual({
      rows: 4,
      tasks: 4,
      controlsCreated: 1,
      controlsLinked: 1,
      pointsOfFocus: 1,
    });

    expect((await taskList(project)).map((task) => [task.referenceId, task.title, task.status])).toEqual([
      ['EX-1', 'Existing parent', 'OPEN'],
      ['N-1', 'New one', 'OPEN'],
      [null, 'No Task ID', 'OPEN'],
    ]);
    const parent = await taskDetail(project, existing);
    expect(parent.subtasks.map((s) => s.title)).toEqual(['Under existing']);
    const control = await controlDetail(project, controlId);
    expect(control).toMatchObject({
      name: 'CC6.2',
      title: 'Existing control',
      pointsOfFocus: [{ name: 'Fresh point' }],
    });
    expect(control.tasks.map((task) => task.referenceId)).toEqual(['N-1']);
    expect((await controlsOf(project)).map((c) => c.name)).toEqual(['CC6.2', 'NEW-C']);
    const creators = await t.database.db
      .selectFrom('tasks')
      .select('created_by')
      .where('project_id', '=', project)
      .where('id', '!=', existing)
      .distinct()
      .execute();
    expect(creators).toEqual([{ created_by: userIds['lead@acme.test'] }]);
    const [entry] = await auditRows(t, 'project.tasks.import', project);
    expect(entry).toMatchObject({
      actor_email: 'lead@acme.test',
      company_id: acmeId,
      after: { fileName: 'tasks.csv', rows: 4, tasks: 4 },
    });
  });

  it('refuses a Task ID the project has (409 naming the row) and stores nothing', async () => {
    const project = await newProject();
    await insertTask(t, project, { referenceId: 'DUP-7', title: 'Taken' });
    await expectUnchanged(project, async () => {
      const res = await importFile(project, [
        { 'Task ID': 'OK-1', 'Task Title': 'Fine', 'Control ID': 'C1' },
        { 'Task ID': 'dup-7', 'Task Title': 'Clash' },
      ]);
      expect({ status: res.statusCode, body: res.json() }).toMatchObject({
        status: 409,
        body: { code: 'task_reference_id_already_exist_on_project' },
      });
      expect(res.json().details).toEqual([
        { field: 'file', message: 'Row 3, Task ID: dup-7 is already the Task ID of "Taken" in this project' },
      ]);
    });
  });

  it('refuses a Parent Task ID that is neither in the file nor a top-level task of the project (400 naming the row)', async () => {
    const project = await newProject();
    const parent = await insertTask(t, project, { referenceId: 'TOP', title: 'Top' });
    await insertTask(t, project, { referenceId: 'SUB', title: 'Sub', parentId: parent });
    await expectUnchanged(project, async () => {
      for (const parentReference of ['NOPE', 'SUB']) {
        const res = await importFile(project, [
          { 'Task Title': 'Fine' },
          { 'Task Title': 'Orphan', 'Parent Task ID': parentReference },
        ]);
        expect({ status: res.statusCode, body: res.json() }).toMatchObject({
          status: 400,
          body: {
            code: 'malformed_task_tracker',
            message: expect.stringMatching(new RegExp(`^Row 3, Parent Task ID: ${parentReference} `)),
          },
        });
      }
    });
  });

  it('refuses files by name (415), bad rows (400), canceled projects (409) and callers who may not write', async () => {
    const project = await newProject();
    await expectUnchanged(project, async () => {
      expect((await importFile(project, [{ 'Task Title': 'x' }], lead(), 'tracker.txt')).json()).toMatchObject({
        code: 'no_csv_file',
      });
      expect((await importFile(project, [{ 'Task Title': 'x' }], lead(), 'tracker.xlsb')).json()).toMatchObject({
        code: 'no_excel_file',
      });
      expect((await importFile(project, [{ 'Task ID': 'T-1' }])).json()).toMatchObject({
        code: 'malformed_task_tracker',
        message: 'Row 2, Task Title: Task Title is required',
      });
      expect((await importFile(project, [{ 'Task Title': 'x' }], member())).json()).toMatchObject({
        code: 'user_can_not_update_project',
      });
      expect((await importFile(project, [{ 'Task Title': 'x' }], outsider())).json()).toMatchObject({
        code: 'project_not_found',
      });
      expect((await importFile(project, [{ 'Task Title': 'x' }], auditor())).statusCode).toBe(404);
    });
    await setProjectStatus(t, project, 'canceled');
    const res = await importFile(project, [{ 'Task Title': 'x' }]);
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 409,
      body: { code: 'project_is_canceled' },
    });
  });

  it('stores nothing when a write fails midway (one transaction)', async () => {
    const project = await newProject();
    const real = seedProjects.insertInBatches;
    const spy = jest.spyOn(seedProjects, 'insertInBatches').mockImplementation(async (db, table, rows, size) => {
      if (table === 'control_tasks') throw new Error('disk full');
      return real(db, table, rows as never, size);
    });
    try {
      await expectUnchanged(project, async () => {
        const res = await importFile(project, TEMPLATE);
        expect(res.statusCode).toBe(500);
      });
    } finally {
      spy.mockRestore();
    }
  });

  describe('a project changed between the checks and the inserts (a concurrent writer)', () => {
    /** The import's checks see the project as `seen` says, whatever it holds by then. */
    function checksSee(seen: (found: Awaited<ReturnType<typeof trackersDb.projectTasksByReference>>) => void) {
      const real = trackersDb.projectTasksByReference;
      return jest.spyOn(trackersDb, 'projectTasksByReference').mockImplementation(async (...args) => {
        const found = await real(...args);
        seen(found);
        return found;
      });
    }

    it('answers a Task ID taken meanwhile with 409 task_reference_id_already_exist_on_project and stores nothing', async () => {
      const project = await newProject();
      await insertTask(t, project, { referenceId: 'RACE-1', title: 'Taken meanwhile' });
      const spy = checksSee((found) => found.clear());
      try {
        await expectUnchanged(project, async () => {
          const res = await importFile(project, [{ 'Task ID': 'race-1', 'Task Title': 'Late' }]);
          expect({ status: res.statusCode, body: res.json() }).toMatchObject({
            status: 409,
            body: {
              code: 'task_reference_id_already_exist_on_project',
              details: [
                { field: 'file', message: 'A Task ID was just taken by another task of this project: try again.' },
              ],
            },
          });
        });
      } finally {
        spy.mockRestore();
      }
    });

    it('answers a parent task deleted meanwhile with 404 task_not_found naming the file, not a 500, and stores nothing', async () => {
      const project = await newProject();
      const spy = checksSee((found) =>
        found.set(caseless('GONE-1'), {
          id: randomUUID(),
          referenceId: 'GONE-1',
          parentId: null,
          title: 'Deleted meanwhile',
        }),
      );
      try {
        await expectUnchanged(project, async () => {
          const res = await importFile(project, [{ 'Task Title': 'Orphan', 'Parent Task ID': 'GONE-1' }]);
          expect({ status: res.statusCode, body: res.json() }).toMatchObject({
            status: 404,
            body: {
              code: 'task_not_found',
              message: expect.stringContaining('was just deleted from the project'),
              details: [{ field: 'file' }],
            },
          });
        });
      } finally {
        spy.mockRestore();
      }
    });

    it('leaves other unique violations alone (a 500, not a Task ID conflict)', async () => {
      const project = await newProject();
      const real = seedProjects.insertInBatches;
      const spy = jest.spyOn(seedProjects, 'insertInBatches').mockImplementation(async (db, table, rows, size) => {
        if (table === 'control_tasks')
          throw Object.assign(new Error("UNIQUE constraint failed: index 'some_other_unique'"), {
            code: 'SQLITE_CONSTRAINT_UNIQUE',
          });
        return real(db, table, rows as never, size);
      });
      try {
        await expectUnchanged(project, async () => {
          expect((await importFile(project, TEMPLATE)).statusCode).toBe(500);
        });
      } finally {
        spy.mockRestore();
      }
    });
  });

  it('imports 10,000 rows, keeping file order', async () => {
    const project = await newProject();
    const rows: Row[] = Array.from({ length: 10_000 }, (_, i) =>
      i % 5 === 0
        ? { 'Task ID': `R-${i}`, 'Task Title': `Task ${i}`, 'Control ID': `C-${(i / 5) % 50}` }
        : { 'Task ID': `R-${i}`, 'Parent Task ID': `R-${i - (i % 5)}`, 'Task Title': `Sub ${i}` },
    );
    const started = Date.now();
    const res = await importFile(project, rows);
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 201,
      body: { rows: 10_000, tasks: 10_000, controlsCreated: 50 },
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    const firstPage = await taskList(project);
    expect(firstPage.slice(0, 3).map((task) => task.referenceId)).toEqual(['R-0', 'R-5', 'R-10']);
    const last = await t.api({
      method: 'GET',
      url: `/api/v1/projects/${project}/tasks?pageSize=200&page=10`,
      cookie: consultant(),
    });
    expect((last.json() as TaskList).results.at(-1)!.referenceId).toBe('R-9995');
    expect((await taskDetail(project, firstPage[0].id)).subtasks.map((s) => s.referenceId)).toEqual([
      'R-1',
      'R-2',
      'R-3',
      'R-4',
    ]);
  });
});
