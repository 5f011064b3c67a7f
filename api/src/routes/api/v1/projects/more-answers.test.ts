/**
 * Project writes, roster, comments, points of focus, folders, task files, trackers and interviews:
 * their real answers (the seeded data's reads, and writes made here) against their operations' result
 * schemas (test/answers.ts).
 */
import { randomUUID } from 'node:crypto';
import { instantToZoned } from '@portal/shared/core/interviews';
import type { Folder } from '@portal/shared/core/files';
import { createTestApp, type TestApp } from '../../../../test/app';
import { ANSWER_TESTS, answerProblem, resultOf } from '../../../../test/answers';
import { trackerCsv } from '../../../../test/task-tracker-files';
import { multipart, PDF } from '../../../../test/project-file-fixtures';

const KEYS = ANSWER_TESTS['routes/api/v1/projects/more-answers.test.ts'];

let t: TestApp;
// every project, task and interview of the seed is called: no rate limit in the way
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: '1000000' } });
});
afterAll(() => t.close());

/** The first issue of `body` against the result schema of `key`, or null when it parses. */
function problem(key: string, url: string, body: unknown): string | null {
  return answerProblem(t.app, key, url, body);
}

/** A Monday-to-Friday a few days ahead, as a local date in New York. */
function nextWeekday(): string {
  for (let d = 3; ; d += 1) {
    const { date } = instantToZoned(Date.now() + d * 86_400_000, 'America/New_York');
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (weekday >= 1 && weekday <= 5) return date;
  }
}

describe('the answers of project writes, roster, comments, points of focus, folders, task files, trackers and interviews', () => {
  const writes = new Set<string>();
  const problems: string[] = [];

  /** One write that must succeed with `status`: its body checked with the schema of `key`. */
  async function write<T>(
    key: string,
    status: number,
    options: { method: string; url: string; cookie: string; payload?: unknown; headers?: Record<string, string> },
  ): Promise<T> {
    const res = await t.api(options as Parameters<TestApp['api']>[0]);
    expect({ key, status: res.statusCode, body: res.json() as unknown }).toMatchObject({ key, status });
    const body = res.json() as T;
    const found = problem(key, options.url, body);
    if (found) problems.push(found);
    writes.add(key);
    return body;
  }

  it('allow the answers of the writes', async () => {
    const db = t.database.db;
    const admin = await t.cookieFor('admin@demo.test');
    const users = Object.fromEntries(
      (await db.selectFrom('users').select(['id', 'email']).execute()).map((u) => [u.email, u.id]),
    );
    const acme = await db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', 'Acme Corp')
      .executeTakeFirstOrThrow();

    // a project: created, edited, given a Client Lead, activated
    const project = await write<{ id: string }>('POST /api/v1/companies/:id/projects', 201, {
      method: 'POST',
      url: `/api/v1/companies/${acme.id}/projects`,
      cookie: admin,
      payload: { title: `Result schemas ${randomUUID()}`, type: 'Readiness' },
    });
    const p = `/api/v1/projects/${project.id}`;
    await write('PATCH /api/v1/projects/:id', 200, {
      method: 'PATCH',
      url: p,
      cookie: admin,
      payload: { description: 'Checked answers', dueDate: '2030-01-31' },
    });
    await write('PATCH /api/v1/projects/roles/:userId/assignments', 200, {
      method: 'PATCH',
      url: `/api/v1/projects/roles/${users['lead@acme.test']}/assignments`,
      cookie: admin,
      payload: { projectId: project.id, role: 'Client Lead' },
    });
    await write('POST /api/v1/projects/:id/status', 200, {
      method: 'POST',
      url: `${p}/status`,
      cookie: admin,
      payload: { status: 'active' },
    });

    // a published template applied, a task tracker file imported
    const trackers = await t.api({ method: 'GET', url: `${p}/task-trackers`, cookie: admin });
    const [tracker] = (trackers.json() as { results: { id: string; practice: { id: string } }[] }).results;
    expect(tracker).toBeDefined();
    await write('POST /api/v1/projects/:id/task-trackers/apply', 200, {
      method: 'POST',
      url: `${p}/task-trackers/apply`,
      cookie: admin,
      payload: { practiceId: tracker.practice.id, taskTrackerId: tracker.id },
    });
    const file = trackerCsv([
      {
        'Task ID': 'MW-1',
        'Task Title': 'Collect the policy',
        'Control ID': 'MW-C',
        'Control Title': 'Policies',
        'Points of Focus': 'Approved yearly',
      },
      { 'Task ID': 'MW-1.1', 'Parent Task ID': 'MW-1', 'Task Title': 'Collect the approval', 'Control ID': 'MW-C' },
    ]);
    await write('POST /api/v1/projects/:id/tasks/import', 201, {
      method: 'POST',
      url: `${p}/tasks/import`,
      cookie: admin,
      ...multipart({}, { filename: 'tasks.csv', data: file }),
    });

    // a task: created, edited, moved, commented
    const task = await write<{ id: string }>('POST /api/v1/projects/:id/tasks', 201, {
      method: 'POST',
      url: `${p}/tasks`,
      cookie: admin,
      payload: {
        title: 'Sample the joiners',
        referenceId: 'MW-2',
        dueDate: '2030-01-15',
        assigneeIds: [users['lead@acme.test']],
      },
    });
    const tk = `${p}/tasks/${task.id}`;
    await write('PATCH /api/v1/projects/:id/tasks/:taskId', 200, {
      method: 'PATCH',
      url: tk,
      cookie: admin,
      payload: { description: 'Twenty of them' },
    });
    await write('POST /api/v1/projects/:id/tasks/:taskId/status', 200, {
      method: 'POST',
      url: `${tk}/status`,
      cookie: admin,
      payload: { status: 'IN_PROGRESS' },
    });
    await write('POST /api/v1/projects/:id/tasks/:taskId/comments', 201, {
      method: 'POST',
      url: `${tk}/comments`,
      cookie: admin,
      payload: { body: 'Started' },
    });
    // the Client Lead: a Project Manager of the company, a move of a task assigned to them
    const lead = await t.cookieFor('lead@acme.test');
    await write('PATCH /api/v1/projects/roles/:userId/assignments', 200, {
      method: 'PATCH',
      url: `/api/v1/projects/roles/${users['member@acme.test']}/assignments`,
      cookie: lead,
      payload: { projectId: project.id, role: 'Project Manager' },
    });
    await write('POST /api/v1/projects/:id/tasks/:taskId/status', 200, {
      method: 'POST',
      url: `${tk}/status`,
      cookie: lead,
      payload: { status: 'IN_REVIEW' },
    });
    await write('PATCH /api/v1/projects/:id/tasks/:taskId', 200, {
      method: 'PATCH',
      url: tk,
      cookie: lead,
      payload: { assigneeIds: [users['lead@acme.test'], users['member@acme.test']], dueDate: null },
    });
    await write('POST /api/v1/projects/:id/tasks/:taskId/comments', 201, {
      method: 'POST',
      url: `${tk}/comments`,
      cookie: lead,
      payload: { body: 'List attached' },
    });

    // a control and its point of focus
    const control = await write<{ id: string }>('POST /api/v1/projects/:id/controls', 201, {
      method: 'POST',
      url: `${p}/controls`,
      cookie: admin,
      payload: { name: 'MW-D', title: 'Joiners', description: 'New hires get access on approval', taskIds: [task.id] },
    });
    await write('PATCH /api/v1/projects/:id/controls/:controlId', 200, {
      method: 'PATCH',
      url: `${p}/controls/${control.id}`,
      cookie: admin,
      payload: { title: 'Joiners and movers' },
    });
    const point = await write<{ id: string }>('POST /api/v1/projects/:id/controls/:controlId/points-of-focus', 201, {
      method: 'POST',
      url: `${p}/controls/${control.id}/points-of-focus`,
      cookie: admin,
      payload: { name: 'Approves access' },
    });
    await write('PATCH /api/v1/projects/:id/points-of-focus/:pointId', 200, {
      method: 'PATCH',
      url: `${p}/points-of-focus/${point.id}`,
      cookie: admin,
      payload: { description: 'Before the first day' },
    });

    // a folder, files in it, one on the task
    const folders = (await t.api({ method: 'GET', url: `${p}/folders`, cookie: admin })).json() as {
      results: Folder[];
    };
    const root = folders.results.find((f) => f.parentId === null)!;
    const folder = await write<Folder>('POST /api/v1/projects/:id/folders', 201, {
      method: 'POST',
      url: `${p}/folders`,
      cookie: admin,
      payload: { name: 'Evidence', parentId: root.id },
    });
    await write('PATCH /api/v1/projects/:id/folders/:folderId', 200, {
      method: 'PATCH',
      url: `${p}/folders/${folder.id}`,
      cookie: admin,
      payload: { name: 'Evidence 2030' },
    });
    await write('POST /api/v1/projects/:id/files', 201, {
      method: 'POST',
      url: `${p}/files`,
      cookie: admin,
      ...multipart({ folderId: folder.id, taskId: task.id }, { filename: 'joiners.pdf', data: PDF }),
    });
    const loose = await write<{ id: string }>('POST /api/v1/projects/:id/files', 201, {
      method: 'POST',
      url: `${p}/files`,
      cookie: admin,
      ...multipart({ folderId: root.id }, { filename: 'approvals.pdf', data: PDF }),
    });
    // a second version of the same name
    await write('POST /api/v1/projects/:id/files', 201, {
      method: 'POST',
      url: `${p}/files`,
      cookie: admin,
      ...multipart(
        { folderId: root.id, onConflict: 'version' },
        { filename: 'approvals.pdf', data: Buffer.concat([PDF, Buffer.from('% v2\n')]) },
      ),
    });
    await write('PATCH /api/v1/projects/:id/files/:fileId', 200, {
      method: 'PATCH',
      url: `${p}/files/${loose.id}`,
      cookie: admin,
      payload: { name: 'approvals-2030.pdf' },
    });
    await write('POST /api/v1/projects/:id/tasks/:taskId/files', 201, {
      method: 'POST',
      url: `${tk}/files`,
      cookie: admin,
      payload: { fileId: loose.id },
    });

    // an interview: scheduled, changed, canceled
    const interview = await write<{ id: string }>('POST /api/v1/projects/:id/interviews', 201, {
      method: 'POST',
      url: `${p}/interviews`,
      cookie: admin,
      payload: {
        title: 'Access walkthrough',
        date: nextWeekday(),
        time: '10:00',
        timeZone: 'America/New_York',
        durationMinutes: 45,
        organizerId: users['admin@demo.test'],
        interviewerIds: [users['consultant@demo.test']],
        attendeeIds: [users['lead@acme.test']],
      },
    });
    await write('PATCH /api/v1/projects/:id/interviews/:interviewId', 200, {
      method: 'PATCH',
      url: `${p}/interviews/${interview.id}`,
      cookie: admin,
      payload: { location: 'Room 4' },
    });
    // unchanged (no invitations sent), then moved with an attendee fewer
    await write('PATCH /api/v1/projects/:id/interviews/:interviewId', 200, {
      method: 'PATCH',
      url: `${p}/interviews/${interview.id}`,
      cookie: admin,
      payload: { location: 'Room 4' },
    });
    await write('PATCH /api/v1/projects/:id/interviews/:interviewId', 200, {
      method: 'PATCH',
      url: `${p}/interviews/${interview.id}`,
      cookie: admin,
      payload: { time: '11:15', timeZone: 'America/New_York', date: nextWeekday(), attendeeIds: [] },
    });
    await write('POST /api/v1/projects/:id/interviews', 201, {
      method: 'POST',
      url: `${p}/interviews`,
      cookie: admin,
      payload: {
        title: 'Canceled walkthrough',
        date: nextWeekday(),
        time: '14:30',
        timeZone: 'Europe/London',
        organizerId: users['admin@demo.test'],
        interviewerIds: [users['consultant@demo.test']],
      },
    }).then((canceled) =>
      write('POST /api/v1/projects/:id/interviews/:interviewId/cancel', 200, {
        method: 'POST',
        url: `${p}/interviews/${(canceled as { id: string }).id}/cancel`,
        cookie: admin,
        payload: { reason: 'Moved to next quarter' },
      }),
    );

    expect(problems).toEqual([]);
    // every write of the list was made
    const writeKeys = KEYS.filter((key) => !key.startsWith('GET '));
    expect([...writes].sort()).toEqual(writeKeys.sort());
  });

  /** Every GET operation with a result schema, for every seeded (and written) project, task and interview. */
  async function answers(cookie: string, userId: string): Promise<{ key: string; url: string; body: unknown }[]> {
    const db = t.database.db;
    const projects = await db.selectFrom('projects').select('id').execute();
    const tasks = await db.selectFrom('tasks').select(['id', 'project_id']).execute();
    const interviews = await db.selectFrom('interviews').select(['id', 'project_id']).execute();
    const members = await db.selectFrom('project_members').select(['user_id', 'project_id']).execute();
    const calls: { key: string; url: string }[] = [
      ...projects.flatMap(({ id }) => [
        { key: 'GET /api/v1/projects/:id/users', url: `/api/v1/projects/${id}/users` },
        { key: 'GET /api/v1/projects/:id/assignable-users', url: `/api/v1/projects/${id}/assignable-users` },
        {
          key: 'GET /api/v1/projects/roles/:userId/assignments',
          url: `/api/v1/projects/roles/${userId}/assignments?projectId=${id}`,
        },
        { key: 'GET /api/v1/projects/:id/task-trackers', url: `/api/v1/projects/${id}/task-trackers` },
        { key: 'GET /api/v1/projects/:id/assignees', url: `/api/v1/projects/${id}/assignees` },
        { key: 'GET /api/v1/projects/:id/task-assignees', url: `/api/v1/projects/${id}/task-assignees` },
        { key: 'GET /api/v1/projects/:id/points-of-focus', url: `/api/v1/projects/${id}/points-of-focus?pageSize=200` },
        { key: 'GET /api/v1/projects/:id/folders', url: `/api/v1/projects/${id}/folders` },
        { key: 'GET /api/v1/projects/:id/interviews', url: `/api/v1/projects/${id}/interviews?when=all&pageSize=200` },
        { key: 'GET /api/v1/projects/:id/interview-people', url: `/api/v1/projects/${id}/interview-people` },
      ]),
      ...members.map((m) => ({
        key: 'GET /api/v1/projects/roles/:userId/assignments',
        url: `/api/v1/projects/roles/${m.user_id}/assignments?projectId=${m.project_id}`,
      })),
      ...tasks.flatMap((task) => [
        {
          key: 'GET /api/v1/projects/:id/tasks/:taskId/comments',
          url: `/api/v1/projects/${task.project_id}/tasks/${task.id}/comments`,
        },
        {
          key: 'GET /api/v1/projects/:id/tasks/:taskId/files',
          url: `/api/v1/projects/${task.project_id}/tasks/${task.id}/files`,
        },
      ]),
      ...interviews.map((i) => ({
        key: 'GET /api/v1/projects/:id/interviews/:interviewId',
        url: `/api/v1/projects/${i.project_id}/interviews/${i.id}`,
      })),
    ];
    // a few calls at a time: several hundred one after another outlast the test's limit on PostgreSQL
    const out: { key: string; url: string; body: unknown }[] = [];
    for (let i = 0; i < calls.length; i += 8) {
      const batch = calls.slice(i, i + 8);
      const answers = await Promise.all(batch.map((call) => t.api({ method: 'GET', url: call.url, cookie })));
      answers.forEach((res, j) => {
        if (res.statusCode === 200) out.push({ ...batch[j], body: res.json() });
      });
    }
    return out;
  }

  it.each(['admin@demo.test', 'lead@acme.test'])('allow every real answer of the reads to %s', async (email) => {
    const user = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const seen = await answers(await t.cookieFor(email), user.id);
    // each GET operation answered at least once, so no schema goes unchecked (the task trackers to staff
    // managers only: project:manage)
    const expected = KEYS.filter(
      (key) =>
        key.startsWith('GET ') && (email === 'admin@demo.test' || key !== 'GET /api/v1/projects/:id/task-trackers'),
    );
    expect(new Set(seen.map((a) => a.key))).toEqual(new Set(expected));
    expect(seen.flatMap(({ key, url, body }) => problem(key, url, body) ?? [])).toEqual([]);
  });

  it('refuse a body with a field missing, of another type or undocumented', async () => {
    const [interview] = await t.database.db.selectFrom('interviews').select(['id', 'project_id']).limit(1).execute();
    const url = `/api/v1/projects/${interview.project_id}/interviews/${interview.id}`;
    const res = await t.api({ method: 'GET', url, cookie: await t.cookieFor('admin@demo.test') });
    const body = res.json() as Record<string, unknown>;
    const schema = resultOf(t.app, 'GET /api/v1/projects/:id/interviews/:interviewId');
    expect(schema.safeParse(body).success).toBe(true);
    const changed = (change: (copy: Record<string, unknown>) => void) => {
      const copy = structuredClone(body);
      change(copy);
      return schema.safeParse(copy).success;
    };
    expect(changed((copy) => delete copy.canceledAt)).toBe(false);
    expect(changed((copy) => (copy.durationMinutes = '45'))).toBe(false);
    expect(changed((copy) => (copy.status = 'done'))).toBe(false);
    expect(changed((copy) => (copy.startsAt = 'tomorrow'))).toBe(false);
    expect(changed((copy) => (copy.time = '25:00'))).toBe(false);
    expect(changed((copy) => (copy.secret = 1))).toBe(false);
  });
});
