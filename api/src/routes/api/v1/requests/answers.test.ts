/**
 * Practices, task trackers and evidence requests: their real answers on the seeded data and on writes
 * against their operations' result schemas (test/answers.ts).
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { requestEvent } from '@portal/shared/core/requests/results';
import { multipart as formWith } from '../../../../test/project-file-fixtures';
import { PDF, multipart as evidence } from '../../../../test/evidence-fixtures';
import { createTestApp, type TestApp } from '../../../../test/app';
import { ANSWER_TESTS, answerProblem } from '../../../../test/answers';
import { requestCsv } from '../../../../test/request-files';
import { trackerCsv } from '../../../../test/task-tracker-files';

let t: TestApp;
// every practice, template and request of the seed is called: no rate limit in the way
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: '1000000' } });
});
afterAll(() => t.close());

const STAFF = 'admin@demo.test';
const CLIENT = 'lead@acme.test';
const keysOf = (method: 'GET' | 'writes') =>
  ANSWER_TESTS['routes/api/v1/requests/answers.test.ts'].filter((key) => (method === 'GET') === key.startsWith('GET '));
/** The GET operations only staff reach (policy `staff`): a client is refused them. */
const STAFF_ONLY = [
  'GET /api/v1/practices',
  'GET /api/v1/practices/:id',
  'GET /api/v1/practices/:id/task-trackers',
  'GET /api/v1/task-trackers/:trackerId',
];

/** The first problem of a body its operation's result schema refuses, or none. */
function problemsOf(key: string, url: string, body: unknown): string[] {
  const found = answerProblem(t.app, key, url, body);
  return found ? [found] : [];
}

describe('the answers of requests, practices and task trackers', () => {
  /** Every GET operation with a result schema, called for every seeded practice, template, company and request. */
  async function answers(cookie: string): Promise<{ key: string; url: string; body: unknown }[]> {
    const db = t.database.db;
    const companies = (await db.selectFrom('companies').select('id').execute()).map((r) => r.id);
    const practices = (await db.selectFrom('practices').select('id').execute()).map((r) => r.id);
    const trackers = (await db.selectFrom('task_trackers').select('id').execute()).map((r) => r.id);
    const requests = (await db.selectFrom('requests').select('id').execute()).map((r) => r.id);
    const calls: { key: string; url: string }[] = [
      { key: 'GET /api/v1/practices', url: '/api/v1/practices' },
      { key: 'GET /api/v1/practices', url: '/api/v1/practices?status=retired' },
      ...practices.flatMap((p) => [
        { key: 'GET /api/v1/practices/:id', url: `/api/v1/practices/${p}` },
        { key: 'GET /api/v1/practices/:id/task-trackers', url: `/api/v1/practices/${p}/task-trackers` },
      ]),
      ...trackers.map((id) => ({ key: 'GET /api/v1/task-trackers/:trackerId', url: `/api/v1/task-trackers/${id}` })),
      ...companies.map((c) => ({
        key: 'GET /api/v1/companies/:id/requests/assignees',
        url: `/api/v1/companies/${c}/requests/assignees`,
      })),
      ...requests.flatMap((r) => [
        { key: 'GET /api/v1/requests/:id/history', url: `/api/v1/requests/${r}/history` },
        { key: 'GET /api/v1/requests/:id/comments', url: `/api/v1/requests/${r}/comments` },
      ]),
    ];
    const out: { key: string; url: string; body: unknown }[] = [];
    for (const call of calls) {
      const res = await t.api({ method: 'GET', url: call.url, cookie });
      if (res.statusCode === 200) out.push({ ...call, body: res.json() });
    }
    return out;
  }

  describe('the writes', () => {
    const written = new Set<string>();
    const problems: string[] = [];
    /** Checks a write's answer: its status, then its body against the operation's schema. */
    function check(key: string, url: string, res: LightMyRequestResponse, status: number): unknown {
      expect({ key, status: res.statusCode, body: res.json() as unknown }).toMatchObject({ key, status });
      written.add(key);
      problems.push(...problemsOf(key, url, res.json()));
      return res.json();
    }
    const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

    it('allow the answers of the practice and task tracker writes', async () => {
      const cookie = await t.cookieFor(STAFF);
      let url = '/api/v1/practices';
      const practice = check(
        'POST /api/v1/practices',
        url,
        await t.api({ method: 'POST', url, cookie, payload: { name: unique('Results'), description: 'A practice' } }),
        201,
      ) as { id: string };
      url = `/api/v1/practices/${practice.id}`;
      check(
        'PATCH /api/v1/practices/:id',
        url,
        await t.api({ method: 'PATCH', url, cookie, payload: { description: null } }),
        200,
      );

      url = `/api/v1/practices/${practice.id}/task-trackers`;
      const draft = check(
        'POST /api/v1/practices/:id/task-trackers',
        url,
        await t.api({ method: 'POST', url, cookie, payload: { name: unique('Draft') } }),
        201,
      ) as { id: string };
      const rows = [
        {
          'Task ID': 'AC-1',
          'Task Title': 'Review the access policy',
          'Control ID': 'CC6.1',
          'Control Title': 'Logical access',
          'Points of Focus': 'Restricts access\nManages credentials',
        },
        { 'Task ID': 'AC-1.1', 'Parent Task ID': 'AC-1', 'Task Title': 'Collect the approval', 'Control ID': 'cc6.1' },
        { 'Task Title': 'Kick-off meeting' },
      ];
      url = `/api/v1/practices/${practice.id}/task-trackers/import`;
      const imported = check(
        'POST /api/v1/practices/:id/task-trackers/import',
        url,
        await t.api({
          method: 'POST',
          url,
          cookie,
          ...formWith(
            { name: unique('Imported'), description: 'From a file' },
            { filename: 'tracker.csv', data: trackerCsv(rows) },
          ),
        }),
        201,
      ) as { tracker: { id: string } };
      url = `/api/v1/task-trackers/${draft.id}/import`;
      check(
        'PUT /api/v1/task-trackers/:trackerId/import',
        url,
        await t.api({
          method: 'PUT',
          url,
          cookie,
          ...formWith({}, { filename: 'replacement.csv', data: trackerCsv(rows) }),
        }),
        200,
      );
      url = `/api/v1/task-trackers/${imported.tracker.id}`;
      check(
        'PATCH /api/v1/task-trackers/:trackerId',
        url,
        await t.api({ method: 'PATCH', url, cookie, payload: { status: 'published', description: null } }),
        200,
      );
      url = `/api/v1/task-trackers/${draft.id}`;
      check(
        'PATCH /api/v1/task-trackers/:trackerId',
        url,
        await t.api({ method: 'PATCH', url, cookie, payload: { name: unique('Renamed'), status: 'retired' } }),
        200,
      );
      url = `/api/v1/practices/${practice.id}`;
      check(
        'PATCH /api/v1/practices/:id',
        url,
        await t.api({ method: 'PATCH', url, cookie, payload: { status: 'retired' } }),
        200,
      );
    });

    it('allow the answers of the evidence request writes, of staff and of a client', async () => {
      const db = t.database.db;
      const staff = await t.cookieFor(STAFF);
      const client = await t.cookieFor(CLIENT);
      const acme = await db
        .selectFrom('companies')
        .select('id')
        .where('name', '=', 'Acme Corp')
        .executeTakeFirstOrThrow();
      const lead = await db.selectFrom('users').select('id').where('email', '=', CLIENT).executeTakeFirstOrThrow();
      const team = await db.selectFrom('teams').select('id').where('company_id', '=', acme.id).executeTakeFirst();
      const project = await db
        .selectFrom('projects')
        .select('id')
        .where('company_id', '=', acme.id)
        .executeTakeFirstOrThrow();

      let url = `/api/v1/companies/${acme.id}/requests`;
      const payload = {
        title: unique('Firewall review'),
        description: 'The rules',
        priority: 'high',
        dueDate: '2030-01-31',
        projectId: project.id,
        assigneeIds: [lead.id],
        teamIds: team ? [team.id] : [],
      };
      const created = check(
        'POST /api/v1/companies/:id/requests',
        url,
        await t.api({ method: 'POST', url, cookie: staff, payload }),
        201,
      ) as { id: string };
      url = `/api/v1/requests/${created.id}`;
      check(
        'PATCH /api/v1/requests/:id',
        url,
        await t.api({
          method: 'PATCH',
          url,
          cookie: staff,
          payload: { title: unique('Firewall rules'), internalNote: 'Ask twice', dueDate: null },
        }),
        200,
      );
      url = `/api/v1/companies/${acme.id}/requests/bulk`;
      check(
        'POST /api/v1/companies/:id/requests/bulk',
        url,
        await t.api({
          method: 'POST',
          url,
          cookie: staff,
          payload: { action: 'dueDate', requestIds: [created.id], dueDate: '2030-02-28' },
        }),
        200,
      );
      url = `/api/v1/companies/${acme.id}/requests/import`;
      const file = requestCsv([
        { Title: unique('Imported request'), Priority: 'Low', Assignees: CLIENT },
        { Title: unique('Another'), 'Due Date': '2030-03-01' },
      ]);
      check(
        'POST /api/v1/companies/:id/requests/import',
        url,
        await t.api({ method: 'POST', url, cookie: staff, ...formWith({}, { filename: 'requests.csv', data: file }) }),
        201,
      );

      // the open requests of Acme (the imported ones among them), reassigned, canceled and reopened together
      const open = await db
        .selectFrom('requests')
        .select('id')
        .where('company_id', '=', acme.id)
        .where('status', '=', 'open')
        .execute();
      url = `/api/v1/companies/${acme.id}/requests/bulk`;
      const requestIds = open.map((r) => r.id).filter((r) => r !== created.id);
      const assign = { action: 'assign', mode: 'replace', requestIds, assigneeIds: [lead.id], teamIds: [] };
      check(
        'POST /api/v1/companies/:id/requests/bulk',
        url,
        await t.api({ method: 'POST', url, cookie: staff, payload: assign }),
        200,
      );
      check(
        'POST /api/v1/companies/:id/requests/bulk',
        url,
        await t.api({
          method: 'POST',
          url,
          cookie: staff,
          payload: { action: 'status', requestIds, transition: 'cancel' },
        }),
        200,
      );
      check(
        'POST /api/v1/companies/:id/requests/bulk',
        url,
        await t.api({
          method: 'POST',
          url,
          cookie: staff,
          payload: { action: 'status', requestIds, transition: 'reopen' },
        }),
        200,
      );
      url = `/api/v1/requests/${created.id}`;
      // the team leaves: an `unassigned` entry in the history the sweep below reads
      check(
        'PATCH /api/v1/requests/:id',
        url,
        await t.api({ method: 'PATCH', url, cookie: staff, payload: { teamIds: [], priority: 'critical' } }),
        200,
      );

      url = `/api/v1/requests/${created.id}/files`;
      const [first] = (
        check(
          'POST /api/v1/requests/:id/files',
          url,
          await t.api({ method: 'POST', url, cookie: client, ...evidence([{ filename: 'draft.pdf', data: PDF }]) }),
          201,
        ) as { results: { id: string }[] }
      ).results;
      // a removed file: a `file_removed` entry in the history
      expect((await t.api({ method: 'DELETE', url: `${url}/${first.id}`, cookie: client })).statusCode).toBe(204);
      check(
        'POST /api/v1/requests/:id/files',
        url,
        await t.api({ method: 'POST', url, cookie: client, ...evidence([{ filename: 'export.pdf', data: PDF }]) }),
        201,
      );
      url = `/api/v1/requests/${created.id}/comments`;
      check(
        'POST /api/v1/requests/:id/comments',
        url,
        await t.api({ method: 'POST', url, cookie: client, payload: { body: 'Uploaded the export' } }),
        201,
      );
      check(
        'POST /api/v1/requests/:id/comments',
        url,
        await t.api({ method: 'POST', url, cookie: staff, payload: { body: 'Check the date', internal: true } }),
        201,
      );
      url = `/api/v1/requests/${created.id}/transitions`;
      check(
        'POST /api/v1/requests/:id/transitions',
        url,
        await t.api({ method: 'POST', url, cookie: client, payload: { action: 'submit', expectedStatus: 'open' } }),
        200,
      );
      check(
        'POST /api/v1/requests/:id/transitions',
        url,
        await t.api({ method: 'POST', url, cookie: staff, payload: { action: 'return', reason: 'The export is cut' } }),
        200,
      );
    });

    it('cover every write of the map', () => {
      expect(problems).toEqual([]);
      expect(new Set(written)).toEqual(new Set(keysOf('writes')));
    });
  });

  // After the writes above (tests run in file order): the sweep reads their history and comments too.
  it.each([
    [STAFF, keysOf('GET')],
    [CLIENT, keysOf('GET').filter((key) => !STAFF_ONLY.includes(key))],
  ])('allow every real answer to %s', async (email, expected) => {
    const seen = await answers(await t.cookieFor(email));
    // each operation the caller may call answered at least once, so no schema goes unchecked
    expect(new Set(seen.map((a) => a.key))).toEqual(new Set(expected));
    expect(seen.flatMap(({ key, url, body }) => problemsOf(key, url, body))).toEqual([]);
  });

  it('refuse a history entry with a field missing, of another type or undocumented', async () => {
    const request = await t.database.db
      .selectFrom('requests')
      .innerJoin('companies', 'companies.id', 'requests.company_id')
      .select('requests.id')
      .where('companies.name', '=', 'Acme Corp')
      .executeTakeFirstOrThrow();
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/requests/${request.id}/history`,
      cookie: await t.cookieFor(STAFF),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { results: Record<string, unknown>[] };
    expect(body.results.length).toBeGreaterThan(0);
    expect(requestEvent.safeParse(body.results[0]).success).toBe(true);
    const withEntry = (change: (entry: Record<string, unknown>) => void) => {
      const copy = structuredClone(body.results[0]);
      change(copy);
      return requestEvent.safeParse(copy).success;
    };
    expect(withEntry((entry) => delete entry.actor)).toBe(false);
    expect(withEntry((entry) => (entry.type = 'deleted'))).toBe(false);
    expect(withEntry((entry) => (entry.createdAt = 'yesterday'))).toBe(false);
    expect(withEntry((entry) => (entry.detail = { secret: 1 }))).toBe(false);
    expect(withEntry((entry) => (entry.secret = 1))).toBe(false);
  });
});
