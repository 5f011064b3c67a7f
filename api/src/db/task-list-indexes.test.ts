/**
 * The project task list's title order has an index of its own (migration 0015): the plans of the
 * queries the list runs name it. On PostgreSQL with sequential and bitmap scans off for the test's
 * transaction, because on a table this small a scan would rightly win.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { insertCompany } from './companies';
import { migrateTo, migrateToLatest } from './migrate';
import { insertProject } from './projects';
import type { Database } from './schema';
import { projectPageQuery } from './tasks';
import { createTestDatabase, type TestDatabase } from '../test/app';
import { ALL_MODULES, taskRow } from '../test/task-rows';

const NO_FLAGS = { unassigned: false, noDueDate: false };

let database: TestDatabase;
let projectId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  await migrateToLatest(db, database.dialect);
  const companyId = await insertCompany(db, { name: 'Indexes Co', modulesAccess: ALL_MODULES });
  projectId = await insertProject(db, { companyId, title: 'Indexed', status: 'active' });
  const statuses = ['OPEN', 'IN_PROGRESS', 'COMPLETED', 'IN_REVIEW'];
  await db
    .insertInto('tasks')
    .values(
      Array.from({ length: 60 }, (_, i) => ({
        ...taskRow(projectId, companyId, null, statuses[i % 4]),
        title: `Task ${(i * 37) % 60}`,
      })),
    )
    .execute();
  await sql`analyze`.execute(db);
});
afterAll(() => database.destroy());

/** The plan of the query as one text: PostgreSQL's EXPLAIN lines, or SQLite's EXPLAIN QUERY PLAN details. */
async function planOf(query: { compile(): CompiledQuery }): Promise<string> {
  const { sql: text, parameters } = query.compile();
  const db = database.db;
  if (database.dialect === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${text}`, [...parameters]),
    );
    return rows.map((r) => r.detail).join('\n');
  }
  return db.transaction().execute(async (trx: Kysely<Database>) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_bitmapscan = off`.execute(trx);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${text}`, [...parameters]),
    );
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

const page = (sort: 'title' | '-title' | 'createdAt', fromEnd = false) =>
  projectPageQuery(database.db, { sort, fromEnd, ...NO_FLAGS }, { projectId, limit: 25, offset: 0 });

describe('the project task list title index (migration 0015)', () => {
  it('walks the title index for a page by title, either direction, and the creation index by creation', async () => {
    for (const query of [page('title'), page('-title'), page('title', true)]) {
      expect(await planOf(query)).toMatch(/tasks_project_title_idx/);
    }
    expect(await planOf(page('createdAt'))).toMatch(/tasks_project_list_idx/);
  });

  it('goes down and up again', async () => {
    const db = database.db;
    await migrateTo(db, database.dialect, '0014-task-detail-counts');
    expect(await planOf(page('title'))).not.toMatch(/tasks_project_title_idx/);
    await migrateToLatest(db, database.dialect);
    expect(await planOf(page('title'))).toMatch(/tasks_project_title_idx/);
  });
});
