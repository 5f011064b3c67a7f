/**
 * How the task lists' pages are planned (prepared.ts, Planning): the lists as they open once per
 * connection, filtered ones per call. Which texts are named is what decides it on PostgreSQL.
 */
import { statementNames } from './prepared';
import { listCompanyTasks, listProjectTasks } from './tasks';
import { createTestApp, type TestApp } from '../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The texts of list pages (not of the other queries a list makes) that `run` named for the first time. */
async function namedBy(run: () => Promise<unknown>): Promise<string[]> {
  const before = new Set(statementNames.keys());
  await run();
  return [...statementNames.keys()].filter((text) => !before.has(text) && text.includes('"t"."subtask_count"'));
}

async function acme() {
  const db = t.database.db;
  const company = await db
    .selectFrom('companies')
    .select('id')
    .where('name', '=', 'Acme Corp')
    .executeTakeFirstOrThrow();
  const project = await db
    .selectFrom('projects')
    .select('id')
    .where('company_id', '=', company.id)
    .executeTakeFirstOrThrow();
  return { companyId: company.id, projectId: project.id };
}

describe('task list pages', () => {
  it('plans a project list as it opens (by creation, no filter) once, and a filtered or otherwise sorted one per call', async () => {
    const db = t.database.db;
    const { projectId } = await acme();
    const page = { limit: 25, offset: 0 };
    const opening = await namedBy(() => listProjectTasks(db, projectId, { ...page, sort: 'createdAt' }));
    expect(opening).toHaveLength(1);
    expect(opening[0]).toMatch(/"t"\."project_id" = (\$1|\?)/);
    expect(await namedBy(() => listProjectTasks(db, projectId, { ...page, sort: '-createdAt' }))).toHaveLength(1);
    for (const query of [
      { sort: 'createdAt' as const, status: ['OPEN' as const] },
      { sort: 'createdAt' as const, assigneeId: 'none' },
      { sort: 'createdAt' as const, due: 'overdue' as const },
      { sort: 'createdAt' as const, search: 'policy' },
      { sort: 'title' as const },
      { sort: '-dueDate' as const },
    ]) {
      expect(await namedBy(() => listProjectTasks(db, projectId, { ...page, ...query }))).toEqual([]);
    }
  });

  it('plans a company list without filters (first page or after a cursor) once, and a filtered one per call', async () => {
    const db = t.database.db;
    const { companyId } = await acme();
    const first = await listCompanyTasks(db, companyId, { after: null, limit: 1 });
    expect(first.next).not.toBeNull();
    expect(await namedBy(() => listCompanyTasks(db, companyId, { after: first.next, limit: 1 }))).toHaveLength(1);
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'member@acme.test')
      .executeTakeFirstOrThrow();
    for (const filters of [{ status: ['OPEN' as const] }, { assigneeId: user.id }, { memberOf: user.id }]) {
      expect(await namedBy(() => listCompanyTasks(db, companyId, { after: null, limit: 1, ...filters }))).toEqual([]);
    }
  });
});
