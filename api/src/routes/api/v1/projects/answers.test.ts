/**
 * The reads of projects, tasks, controls, files and evidence requests: their real answers on the
 * seeded data against their operations' result schemas (test/answers.ts).
 */
import { createTestApp, type TestApp } from '../../../../test/app';
import { ANSWER_TESTS, answerProblem, resultOf } from '../../../../test/answers';

const KEYS = ANSWER_TESTS['routes/api/v1/projects/answers.test.ts'];

let t: TestApp;
// every project, task, control, file and request of the seed is called: no rate limit in the way
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: '1000000' } });
});
afterAll(() => t.close());

describe('the answers of projects, tasks, controls, files and requests', () => {
  /** Every operation with a result schema, called for every seeded project, task and request the caller sees. */
  async function answers(cookie: string): Promise<{ key: string; url: string; body: unknown }[]> {
    const db = t.database.db;
    const companies = (await db.selectFrom('companies').select('id').execute()).map((r) => r.id);
    const projects = await db.selectFrom('projects').select(['id', 'company_id']).execute();
    const tasks = await db.selectFrom('tasks').select(['id', 'project_id']).execute();
    const requests = await db.selectFrom('requests').select('id').execute();
    const controls = await db.selectFrom('controls').select(['id', 'project_id']).execute();
    const files = await db.selectFrom('files').select(['id', 'project_id']).execute();
    const calls: { key: string; url: string }[] = [
      ...companies.flatMap((c) => [
        { key: 'GET /api/v1/companies/:id/projects', url: `/api/v1/companies/${c}/projects?pageSize=100` },
        { key: 'GET /api/v1/companies/:id/projects/summary', url: `/api/v1/companies/${c}/projects/summary` },
        { key: 'GET /api/v1/companies/:id/tasks', url: `/api/v1/companies/${c}/tasks?limit=200` },
        { key: 'GET /api/v1/companies/:id/requests', url: `/api/v1/companies/${c}/requests?pageSize=100` },
      ]),
      ...projects.flatMap((p) => [
        { key: 'GET /api/v1/projects/:id', url: `/api/v1/projects/${p.id}` },
        { key: 'GET /api/v1/projects/:id/tasks', url: `/api/v1/projects/${p.id}/tasks?pageSize=100` },
        { key: 'GET /api/v1/projects/:id/controls', url: `/api/v1/projects/${p.id}/controls?pageSize=100` },
        { key: 'GET /api/v1/projects/:id/files', url: `/api/v1/projects/${p.id}/files?pageSize=100` },
      ]),
      ...controls.map((c) => ({
        key: 'GET /api/v1/projects/:id/controls/:controlId',
        url: `/api/v1/projects/${c.project_id}/controls/${c.id}`,
      })),
      ...files.map((f) => ({
        key: 'GET /api/v1/projects/:id/files/:fileId',
        url: `/api/v1/projects/${f.project_id}/files/${f.id}`,
      })),
      ...tasks.map((task) => ({
        key: 'GET /api/v1/projects/:id/tasks/:taskId',
        url: `/api/v1/projects/${task.project_id}/tasks/${task.id}`,
      })),
      ...requests.map((r) => ({ key: 'GET /api/v1/requests/:id', url: `/api/v1/requests/${r.id}` })),
    ];
    const out: { key: string; url: string; body: unknown }[] = [];
    for (const call of calls) {
      const res = await t.api({ method: 'GET', url: call.url, cookie });
      if (res.statusCode === 200) out.push({ ...call, body: res.json() });
    }
    return out;
  }

  it.each(['admin@demo.test', 'lead@acme.test'])('allow every real answer to %s', async (email) => {
    const seen = await answers(await t.cookieFor(email));
    // each operation answered at least once, so no schema goes unchecked
    expect(new Set(seen.map((a) => a.key))).toEqual(new Set(KEYS));
    const problems = seen.flatMap(({ key, url, body }) => answerProblem(t.app, key, url, body) ?? []);
    expect(problems).toEqual([]);
  });

  it('refuse a body with a field missing, of another type or undocumented', async () => {
    const [task] = await t.database.db
      .selectFrom('tasks')
      .select('project_id')
      .where('parent_id', 'is', null)
      .limit(1)
      .execute();
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/projects/${task.project_id}/tasks`,
      cookie: await t.cookieFor('admin@demo.test'),
    });
    const body = res.json() as { results: Record<string, unknown>[] };
    const taskList = resultOf(t.app, 'GET /api/v1/projects/:id/tasks');
    expect(body.results.length).toBeGreaterThan(0);
    expect(taskList.safeParse(body).success).toBe(true);
    const withRow = (change: (row: Record<string, unknown>) => void) => {
      const copy = structuredClone(body);
      change(copy.results[0]);
      return taskList.safeParse(copy).success;
    };
    expect(withRow((row) => delete row.commentCount)).toBe(false);
    expect(withRow((row) => (row.overdue = 'no'))).toBe(false);
    expect(withRow((row) => (row.status = 'DONE'))).toBe(false);
    expect(withRow((row) => (row.createdAt = 'yesterday'))).toBe(false);
    expect(withRow((row) => (row.secret = 1))).toBe(false);
  });
});
