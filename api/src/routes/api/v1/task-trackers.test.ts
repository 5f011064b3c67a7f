import { randomUUID } from 'node:crypto';
import {
  TASK_TRACKER_COLUMNS,
  type TaskTrackerDetail,
  type TaskTrackerImportResult,
  type TaskTrackerSummary,
} from '@portal/shared/core/practices';
import { insertPractice } from '../../../db/practices';
import * as seedProjects from '../../../db/seed-projects';
import * as trackersDb from '../../../db/task-trackers';
import { createTestApp, type TestApp } from '../../../test/app';
import { trackerCsv, trackerXlsx, type FixtureRow } from '../../../test/task-tracker-files';
import { multipart } from '../../../test/project-file-fixtures';
import { auditRows, cookiesFor } from '../../../test/project-fixtures';

type Row = FixtureRow;

/** `n` rows: every tenth a top-level task with a control, the rows after it its subtasks. */
function manyRows(n: number): Row[] {
  return Array.from({ length: n }, (_, i) => {
    const top = i - (i % 10);
    return i % 10 === 0
      ? {
          'Task ID': `T-${i}`,
          'Task Title': `Task ${i}`,
          'Control ID': `C-${i / 10}`,
          'Control Title': `Control ${i / 10}`,
          'Points of Focus': 'First;Second',
        }
      : {
          'Task ID': `T-${i}`,
          'Parent Task ID': `T-${top}`,
          'Task Title': `Subtask ${i}`,
          'Control ID': `C-${top / 10}`,
        };
  });
}

const SAMPLE: Row[] = [
  {
    'Task ID': 'AC-1',
    'Task Title': 'Review the access policy',
    'Task Description': 'Policy approved this year',
    'Control ID': 'CC6.1',
    'Control Title': 'Logical access',
    'Points of Focus': 'Restricts access\nManages credentials',
  },
  {
    'Task ID': 'AC-1.1',
    'Parent Task ID': 'AC-1',
    'Task Title': 'Collect the approval',
    'Control ID': 'cc6.1',
    'Points of Focus': 'Restricts ACCESS; Reviews access',
  },
  { 'Task ID': 'AC-2', 'Task Title': 'Sample new hires', 'Control ID': 'CC6.2', 'Control Title': 'Provisioning' },
  { 'Task Title': 'Kick-off meeting' },
];

let t: TestApp;
let cookies: Record<string, string>;
let practiceId: string;

beforeAll(async () => {
  t = await createTestApp();
  cookies = await cookiesFor(t, ['consultant@demo.test', 'auditor@demo.test', 'lead@acme.test']);
  practiceId = await insertPractice(t.database.db, { name: `Templates test ${randomUUID()}` });
});
afterAll(() => t.close());

const consultant = () => cookies['consultant@demo.test'];
const auditor = () => cookies['auditor@demo.test'];
const client = () => cookies['lead@acme.test'];

const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;
const trackersUrl = (practice = practiceId) => `/api/v1/practices/${practice}/task-trackers`;
const trackerUrl = (id: string) => `/api/v1/task-trackers/${id}`;

function importRaw(
  fields: Record<string, string>,
  file?: { filename: string; data: Buffer },
  cookie = consultant(),
  practice = practiceId,
) {
  return t.api({ method: 'POST', url: `${trackersUrl(practice)}/import`, cookie, ...multipart(fields, file) });
}

async function importTracker(
  rows: Row[] | Buffer,
  name = unique('Imported'),
  filename = 'tracker.csv',
): Promise<TaskTrackerImportResult> {
  const res = await importRaw(
    { name, description: 'From a file' },
    { filename, data: Buffer.isBuffer(rows) ? rows : trackerCsv(rows) },
  );
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as TaskTrackerImportResult;
}

async function detail(id: string, cookie = consultant()): Promise<TaskTrackerDetail> {
  const res = await t.api({ method: 'GET', url: trackerUrl(id), cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
  return res.json() as TaskTrackerDetail;
}

async function createDraft(name = unique('Draft')): Promise<TaskTrackerSummary> {
  const res = await t.api({ method: 'POST', url: trackersUrl(), cookie: consultant(), payload: { name } });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as TaskTrackerSummary;
}

async function trackerCount(): Promise<number> {
  const [trackers, tasks] = await Promise.all([
    t.database.db
      .selectFrom('task_trackers')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    t.database.db
      .selectFrom('tracker_tasks')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return Number(trackers.n) * 1_000_000 + Number(tasks.n);
}

/** Runs a refused import and shows it left no template and no task behind. */
async function expectNothingStored(work: () => Promise<void>): Promise<void> {
  const before = await trackerCount();
  await work();
  expect(await trackerCount()).toBe(before);
}

const patch = (id: string, payload: Record<string, unknown>, cookie = consultant()) =>
  t.api({ method: 'PATCH', url: trackerUrl(id), cookie, payload });

describe('templates of a practice', () => {
  it('creates an empty draft (201), lists it with its counts and records it', async () => {
    const name = unique('Empty draft');
    const created = await createDraft(name);
    expect(created).toMatchObject({
      practiceId,
      name,
      description: '',
      status: 'draft',
      taskCount: 0,
      controlCount: 0,
      pointOfFocusCount: 0,
      createdBy: { firstName: 'Daniel', lastName: 'Reyes' },
    });
    const res = await t.api({ method: 'GET', url: trackersUrl(), cookie: auditor() });
    expect(res.statusCode).toBe(200);
    expect((res.json().results as TaskTrackerSummary[]).map((r) => r.id)).toContain(created.id);
    expect(await auditRows(t, 'taskTracker.create', created.id)).toEqual([
      expect.objectContaining({
        actor_email: 'consultant@demo.test',
        after: expect.objectContaining({ name, status: 'draft' }),
      }),
    ]);
  });

  it('refuses a name the practice already has, in any case (409 task_tracker_name_taken naming name); another practice may use it', async () => {
    const name = unique('Same name');
    await createDraft(name);
    const res = await t.api({
      method: 'POST',
      url: trackersUrl(),
      cookie: consultant(),
      payload: { name: name.toUpperCase() },
    });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 409,
      body: { code: 'task_tracker_name_taken', details: [{ field: 'name' }] },
    });
    const other = await insertPractice(t.database.db, { name: unique('Other practice') });
    expect(
      (await t.api({ method: 'POST', url: trackersUrl(other), cookie: consultant(), payload: { name } })).statusCode,
    ).toBe(201);
  });

  it('refuses new templates in a retired practice, created or imported (400 invalid_practice saying it is retired), storing nothing', async () => {
    const retired = await insertPractice(t.database.db, { name: unique('Retired practice'), status: 'retired' });
    const created = await t.api({
      method: 'POST',
      url: trackersUrl(retired),
      cookie: consultant(),
      payload: { name: unique('Late') },
    });
    const imported = await importRaw(
      { name: unique('Late import') },
      { filename: 'tracker.csv', data: trackerCsv(SAMPLE) },
      consultant(),
      retired,
    );
    for (const res of [created, imported]) {
      expect({ status: res.statusCode, body: res.json() }).toMatchObject({
        status: 400,
        body: {
          code: 'invalid_practice',
          message: 'Invalid practice.',
          details: [{ field: 'id', message: expect.stringContaining('is retired') }],
        },
      });
    }
    expect((await t.api({ method: 'GET', url: trackersUrl(retired), cookie: consultant() })).json()).toEqual({
      results: [],
    });
  });

  it('answers a name taken by a concurrent writer (the unique index) with 409, and leaves other unique violations alone', async () => {
    const name = unique('Raced template');
    await createDraft(name);
    const spy = jest.spyOn(trackersDb, 'taskTrackerNameTaken').mockResolvedValue(false);
    try {
      const res = await t.api({
        method: 'POST',
        url: trackersUrl(),
        cookie: consultant(),
        payload: { name: name.toLowerCase() },
      });
      expect({ status: res.statusCode, body: res.json() }).toMatchObject({
        status: 409,
        body: { code: 'task_tracker_name_taken', details: [{ field: 'name' }] },
      });
    } finally {
      spy.mockRestore();
    }
    const other = jest.spyOn(trackersDb, 'insertTaskTracker').mockRejectedValue(
      Object.assign(new Error("UNIQUE constraint failed: index 'another_unique'"), {
        code: 'SQLITE_CONSTRAINT_UNIQUE',
      }),
    );
    try {
      expect(
        (
          await t.api({
            method: 'POST',
            url: trackersUrl(),
            cookie: consultant(),
            payload: { name: unique('Other failure') },
          })
        ).statusCode,
      ).toBe(500);
    } finally {
      other.mockRestore();
    }
  });

  it('answers 404 practice_not_found for an unknown practice, and keeps writes from auditors and everything from clients (403)', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.api({
        method,
        url: trackersUrl(randomUUID()),
        cookie: consultant(),
        ...(method === 'POST' ? { payload: { name: 'x' } } : {}),
      });
      expect({ status: res.statusCode, body: res.json() }).toMatchObject({
        status: 404,
        body: { code: 'practice_not_found' },
      });
    }
    expect(
      (await t.api({ method: 'POST', url: trackersUrl(), cookie: auditor(), payload: { name: unique('Auditor') } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await importRaw({ name: unique('Auditor') }, { filename: 'a.csv', data: trackerCsv(SAMPLE) }, auditor()))
        .statusCode,
    ).toBe(403);
    expect((await t.api({ method: 'GET', url: trackersUrl(), cookie: client() })).statusCode).toBe(403);
  });
});

describe('POST /api/v1/practices/:id/task-trackers/import', () => {
  it('makes a draft from a CSV file: tasks with subtasks, controls merged by Control ID with their points of focus', async () => {
    const name = unique('SOC 2 from CSV');
    const result = await importTracker(SAMPLE, name);
    expect(result).toMatchObject({
      rows: 4,
      tasks: 4,
      controls: 2,
      pointsOfFocus: 3,
      tracker: {
        name,
        description: 'From a file',
        status: 'draft',
        taskCount: 4,
        controlCount: 2,
        pointOfFocusCount: 3,
      },
    });
    const tracker = await detail(result.tracker.id, auditor());
    expect(tracker.practice).toMatchObject({ id: practiceId, status: 'active' });
    expect(
      tracker.tasks.map((task) => [
        task.referenceId,
        task.title,
        task.controls,
        task.subtasks.map((s) => [s.referenceId, s.controls]),
      ]),
    ).toEqual([
      ['AC-1', 'Review the access policy', ['CC6.1'], [['AC-1.1', ['CC6.1']]]],
      ['AC-2', 'Sample new hires', ['CC6.2'], []],
      [null, 'Kick-off meeting', [], []],
    ]);
    expect(tracker.tasks[0].description).toBe('Policy approved this year');
    expect(tracker.controls.map((c) => [c.name, c.title, c.pointsOfFocus.map((p) => p.name)])).toEqual([
      ['CC6.1', 'Logical access', ['Restricts access', 'Manages credentials', 'Reviews access']],
      ['CC6.2', 'Provisioning', []],
    ]);
    const [entry] = await auditRows(t, 'taskTracker.import', result.tracker.id);
    expect(entry).toMatchObject({
      target_type: 'taskTracker',
      after: { fileName: 'tracker.csv', rows: 4, tasks: 4, controls: 2, pointsOfFocus: 3 },
    });
  });

  it('reads an .xlsx file the same way', async () => {
    const xlsx = await trackerXlsx(SAMPLE);
    const result = await importTracker(xlsx, unique('From XLSX'), 'Tracker.XLSX');
    expect(result).toMatchObject({ rows: 4, tasks: 4, controls: 2, pointsOfFocus: 3 });
  });

  it('refuses files by name before reading them: 415 no_csv_file (tracker.txt) and no_excel_file (.xls), storing nothing', async () => {
    await expectNothingStored(async () => {
      const txt = await importRaw({ name: unique('Txt') }, { filename: 'tracker.txt', data: trackerCsv(SAMPLE) });
      expect({ status: txt.statusCode, body: txt.json() }).toMatchObject({
        status: 415,
        body: {
          code: 'no_csv_file',
          message: 'Only CSV files are accepted. This may just require adding a .csv to the filename.',
        },
      });
      const xls = await importRaw({ name: unique('Xls') }, { filename: 'tracker.xls', data: trackerCsv(SAMPLE) });
      expect({ status: xls.statusCode, body: xls.json() }).toMatchObject({
        status: 415,
        body: { code: 'no_excel_file' },
      });
    });
  });

  it('refuses a form without a file or a name (400 naming the field)', async () => {
    const noFile = await importRaw({ name: unique('No file') });
    expect({ status: noFile.statusCode, body: noFile.json() }).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: [{ field: 'file' }] },
    });
    const noName = await importRaw({}, { filename: 'tracker.csv', data: trackerCsv(SAMPLE) });
    expect({ status: noName.statusCode, body: noName.json() }).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: [{ field: 'name' }] },
    });
  });

  it('refuses repeated Task IDs ("Task IDs must be unique or null", naming both rows) and bad rows (malformed_task_tracker), storing nothing', async () => {
    await expectNothingStored(async () => {
      const duplicate = await importRaw(
        { name: unique('Duplicate') },
        {
          filename: 'tracker.csv',
          data: trackerCsv([
            { 'Task ID': 'T-1', 'Task Title': 'One' },
            { 'Task ID': 't-1', 'Task Title': 'Two' },
          ]),
        },
      );
      expect({ status: duplicate.statusCode, body: duplicate.json() }).toMatchObject({
        status: 400,
        body: { code: 'task_reference_id_already_exist_on_project' },
      });
      expect(duplicate.json().details[0].message).toMatch(/Row 3, Task ID: .*row 2.*Task IDs must be unique or null/);
      const malformed = await importRaw(
        { name: unique('Malformed') },
        { filename: 'tracker.csv', data: trackerCsv([{ 'Task ID': 'T-1' }]) },
      );
      expect({ status: malformed.statusCode, body: malformed.json() }).toMatchObject({
        status: 400,
        body: {
          code: 'malformed_task_tracker',
          message: 'Row 2, Task Title: Task Title is required',
          details: [{ field: 'file', message: 'Row 2, Task Title: Task Title is required' }],
        },
      });
    });
  });

  it('stores nothing when a write fails after some rows went in (one transaction)', async () => {
    const real = seedProjects.insertInBatches;
    const spy = jest.spyOn(seedProjects, 'insertInBatches').mockImplementation(async (db, table, rows, size) => {
      if (table === 'tracker_control_tasks') throw new Error('disk full');
      return real(db, table, rows as never, size);
    });
    try {
      await expectNothingStored(async () => {
        expect(
          (await importRaw({ name: unique('Midway') }, { filename: 'tracker.csv', data: trackerCsv(SAMPLE) }))
            .statusCode,
        ).toBe(500);
      });
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a name the practice has (409) before storing anything', async () => {
    const name = unique('Taken by import');
    await createDraft(name);
    await expectNothingStored(async () => {
      const res = await importRaw({ name }, { filename: 'tracker.csv', data: trackerCsv(SAMPLE) });
      expect({ status: res.statusCode, body: res.json() }).toMatchObject({
        status: 409,
        body: { code: 'task_tracker_name_taken' },
      });
    });
  });

  it('imports 10,000 rows in one go', async () => {
    const started = Date.now();
    const result = await importTracker(manyRows(10_000), unique('Ten thousand'));
    expect(result).toMatchObject({ rows: 10_000, tasks: 10_000, controls: 1_000, pointsOfFocus: 2_000 });
    const tracker = await detail(result.tracker.id);
    expect(tracker.tasks).toHaveLength(1_000);
    expect(tracker.tasks[999]).toMatchObject({
      referenceId: 'T-9990',
      subtasks: expect.arrayContaining([expect.objectContaining({ referenceId: 'T-9999' })]),
    });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('stores nothing of a 10,000-row file whose 9,999th data row is bad, naming its spreadsheet row (10,000: the header is row 1)', async () => {
    const rows = manyRows(10_000);
    rows[9_998] = { ...rows[9_998], 'Task Title': '' };
    await expectNothingStored(async () => {
      const res = await importRaw({ name: unique('Bad row') }, { filename: 'tracker.csv', data: trackerCsv(rows) });
      expect({ status: res.statusCode, body: res.json() }).toMatchObject({
        status: 400,
        body: {
          code: 'malformed_task_tracker',
          message: 'Row 10000, Task Title: Task Title is required',
          details: [{ field: 'file', message: 'Row 10000, Task Title: Task Title is required' }],
        },
      });
    });
  });
});

describe('PATCH and DELETE /api/v1/task-trackers/:trackerId', () => {
  it('renames, publishes (not when empty: 409 task_tracker_in_wrong_status), unpublishes and retires, recording each change', async () => {
    const empty = await createDraft();
    const refused = await patch(empty.id, { status: 'published' });
    expect({ status: refused.statusCode, body: refused.json() }).toMatchObject({
      status: 409,
      body: { code: 'task_tracker_in_wrong_status' },
    });

    const { tracker } = await importTracker(SAMPLE);
    const name = unique('Renamed template');
    const published = await patch(tracker.id, { name, description: 'Ready', status: 'published' });
    expect({ status: published.statusCode, body: published.json() }).toMatchObject({
      status: 200,
      body: { name, description: 'Ready', status: 'published', taskCount: 4 },
    });
    expect((await patch(tracker.id, { status: 'draft' })).json()).toMatchObject({ status: 'draft' });
    expect((await patch(tracker.id, { status: 'retired' })).json()).toMatchObject({ status: 'retired' });
    const entries = await auditRows(t, 'taskTracker.update', tracker.id);
    expect(entries.map((e) => e.after)).toEqual([
      { name, description: 'Ready', status: 'published' },
      { status: 'draft' },
      { status: 'retired' },
    ]);
  });

  it('refuses a name another template of the practice has (409), an unknown template (404) and auditors (403)', async () => {
    const first = await createDraft();
    const second = await createDraft();
    const taken = await patch(second.id, { name: first.name.toLowerCase() });
    expect({ status: taken.statusCode, body: taken.json() }).toMatchObject({
      status: 409,
      body: { code: 'task_tracker_name_taken', details: [{ field: 'name' }] },
    });
    const missing = await patch(randomUUID(), { name: 'x' });
    expect({ status: missing.statusCode, body: missing.json() }).toMatchObject({
      status: 404,
      body: { code: 'task_tracker_not_found' },
    });
    expect((await patch(first.id, { name: unique('Auditor') }, auditor())).statusCode).toBe(403);
  });

  it('deletes a template with its content (204), records it, then answers 404', async () => {
    const { tracker } = await importTracker(SAMPLE);
    expect((await t.api({ method: 'DELETE', url: trackerUrl(tracker.id), cookie: auditor() })).statusCode).toBe(403);
    expect((await t.api({ method: 'DELETE', url: trackerUrl(tracker.id), cookie: consultant() })).statusCode).toBe(204);
    const tasks = await t.database.db
      .selectFrom('tracker_tasks')
      .select('id')
      .where('tracker_id', '=', tracker.id)
      .execute();
    expect(tasks).toEqual([]);
    expect(await auditRows(t, 'taskTracker.delete', tracker.id)).toEqual([
      expect.objectContaining({ before: expect.objectContaining({ name: tracker.name, taskCount: 4 }) }),
    ]);
    const again = await t.api({ method: 'DELETE', url: trackerUrl(tracker.id), cookie: consultant() });
    expect({ status: again.statusCode, body: again.json() }).toMatchObject({
      status: 404,
      body: { code: 'task_tracker_not_found' },
    });
    expect((await t.api({ method: 'GET', url: trackerUrl(tracker.id), cookie: consultant() })).statusCode).toBe(404);
  });
});

describe('PUT /api/v1/task-trackers/:trackerId/import', () => {
  const replace = (id: string, rows: Row[], cookie = consultant()) =>
    t.api({
      method: 'PUT',
      url: `${trackerUrl(id)}/import`,
      cookie,
      ...multipart({}, { filename: 'replacement.csv', data: trackerCsv(rows) }),
    });

  it("replaces a draft's content with the file's", async () => {
    const draft = await createDraft();
    const res = await replace(draft.id, [
      { 'Task ID': 'N-1', 'Task Title': 'New task', 'Control ID': 'X1', 'Points of Focus': 'One' },
    ]);
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 200,
      body: { rows: 1, tasks: 1, controls: 1, pointsOfFocus: 1, tracker: { id: draft.id, taskCount: 1 } },
    });
    const again = await replace(draft.id, SAMPLE);
    expect(again.json()).toMatchObject({ tasks: 4, tracker: { taskCount: 4, controlCount: 2 } });
    expect((await detail(draft.id)).tasks.map((task) => task.referenceId)).toEqual(['AC-1', 'AC-2', null]);
    expect(await auditRows(t, 'taskTracker.replace', draft.id)).toHaveLength(2);
  });

  it('keeps the content when the file is bad, and refuses published templates (409 task_tracker_in_wrong_status)', async () => {
    const { tracker } = await importTracker(SAMPLE);
    const bad = await replace(tracker.id, [{ 'Task ID': 'Z-1' }]);
    expect({ status: bad.statusCode, body: bad.json() }).toMatchObject({
      status: 400,
      body: { code: 'malformed_task_tracker' },
    });
    expect((await detail(tracker.id)).taskCount).toBe(4);
    await patch(tracker.id, { status: 'published' });
    const refused = await replace(tracker.id, SAMPLE);
    expect({ status: refused.statusCode, body: refused.json() }).toMatchObject({
      status: 409,
      body: { code: 'task_tracker_in_wrong_status' },
    });
    expect((await replace(randomUUID(), SAMPLE)).statusCode).toBe(404);
  });
});

describe('exports and the file template', () => {
  it('exports a template as a CSV attachment, formula cells kept as text on import and made safe with an apostrophe on export', async () => {
    const { tracker } = await importTracker(
      [
        {
          'Task ID': 'F-1',
          'Task Title': '=SUM(1+1)',
          'Task Description': '@cmd|calc',
          'Control ID': 'C/1',
          'Control Title': '+Plus',
          'Points of Focus': '-minus',
        },
        { 'Task ID': 'F-2', 'Parent Task ID': 'F-1', 'Task Title': "'=ALREADY()" },
      ],
      unique('Formulas: a/b'),
    );
    const stored = await detail(tracker.id);
    expect(stored.tasks[0]).toMatchObject({
      title: '=SUM(1+1)',
      description: '@cmd|calc',
      subtasks: [{ title: '=ALREADY()' }],
    });
    expect(stored.controls[0]).toMatchObject({ title: '+Plus', pointsOfFocus: [{ name: '-minus' }] });

    const res = await t.api({ method: 'GET', url: `${trackerUrl(tracker.id)}/export?format=csv`, cookie: auditor() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="Formulas_ a_b [0-9a-f]{8}\.csv"; filename\*=UTF-8''/,
    );
    const text = res.body;
    expect(text.split('\r\n')[0]).toBe(`\ufeff${TASK_TRACKER_COLUMNS.join(',')}`);
    expect(text).toContain("'=SUM(1+1)");
    expect(text).toContain("'@cmd|calc");
    expect(text).toContain("'+Plus");
    expect(text).toContain("'-minus");
    expect(text).toContain("'=ALREADY()");

    // what was exported reads back as the same template
    const back = await importTracker(res.rawPayload, unique('Round trip'));
    const copy = await detail(back.tracker.id);
    expect(copy.tasks.map((task) => [task.title, task.description, task.subtasks.map((s) => s.title)])).toEqual([
      ['=SUM(1+1)', '@cmd|calc', ['=ALREADY()']],
    ]);
  });

  it('exports an .xlsx attachment that reads back the same', async () => {
    const { tracker } = await importTracker(SAMPLE);
    const res = await t.api({
      method: 'GET',
      url: `${trackerUrl(tracker.id)}/export?format=xlsx`,
      cookie: consultant(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".*\.xlsx"/);
    expect(res.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
    const back = await importTracker(res.rawPayload, unique('XLSX round trip'), 'export.xlsx');
    const [before, after] = [await detail(tracker.id), await detail(back.tracker.id)];
    const shape = (d: TaskTrackerDetail) => ({
      tasks: d.tasks.map((task) => [
        task.referenceId,
        task.title,
        task.controls,
        task.subtasks.map((s) => s.referenceId),
      ]),
      controls: d.controls.map((c) => [c.name, c.title, c.pointsOfFocus.map((p) => p.name)]),
    });
    expect(shape(after)).toEqual(shape(before));
  });

  it('refuses an unknown format (400 naming format) and an unknown template (404)', async () => {
    const { tracker } = await importTracker(SAMPLE);
    const bad = await t.api({
      method: 'GET',
      url: `${trackerUrl(tracker.id)}/export?format=pdf`,
      cookie: consultant(),
    });
    expect({ status: bad.statusCode, body: bad.json() }).toMatchObject({
      status: 400,
      body: { details: [{ field: 'format' }] },
    });
    expect(
      (await t.api({ method: 'GET', url: `${trackerUrl(randomUUID())}/export`, cookie: consultant() })).statusCode,
    ).toBe(404);
  });

  it('serves the file template to any signed-in user, as CSV and XLSX attachments', async () => {
    const csv = await t.api({ method: 'GET', url: '/api/v1/task-trackers/file-template?format=csv', cookie: client() });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="task-tracker-template\.csv"/);
    expect(csv.headers['x-content-type-options']).toBe('nosniff');
    expect(csv.body.split('\r\n')[0]).toBe(`\ufeff${TASK_TRACKER_COLUMNS.join(',')}`);
    const xlsx = await t.api({
      method: 'GET',
      url: '/api/v1/task-trackers/file-template?format=xlsx',
      cookie: client(),
    });
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.headers['content-disposition']).toMatch(/filename="task-tracker-template\.xlsx"/);
    expect((await t.api({ method: 'GET', url: '/api/v1/task-trackers/file-template' })).statusCode).toBe(401);
  });
});
