import type { Kysely } from 'kysely';
import { insertCompany } from './companies';
import { migrateTo, migrateToLatest } from './migrate';
import { insertProject } from './projects';
import type { Database } from './schema';
import { listProjectTasks } from './tasks';
import { createTestDatabase, type TestDatabase } from '../test/app';
import { ALL_MODULES, taskRow } from '../test/task-rows';

async function kept(db: Kysely<Database>, projectId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('project_task_counts')
    .select('top_level')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.top_level);
}

async function counted(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('project_id', '=', projectId)
    .where('parent_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('project_task_counts (migration 0013)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  it("fills each existing project's count of top-level tasks", async () => {
    const db = database.db;
    await migrateTo(db, database.dialect, '0012-reports');
    const companyId = await insertCompany(db, { name: 'Counts Backfill Co', modulesAccess: ALL_MODULES });
    const busy = await insertProject(db, { companyId, title: 'Busy', status: 'active' });
    const empty = await insertProject(db, { companyId, title: 'Empty', status: 'active' });
    const top = [taskRow(busy, companyId), taskRow(busy, companyId), taskRow(busy, companyId)];
    await db.insertInto('tasks').values(top).execute();
    await db
      .insertInto('tasks')
      .values(taskRow(busy, companyId, top[0].id))
      .execute();

    await migrateToLatest(db, database.dialect);
    expect(await kept(db, busy)).toBe(3);
    expect(await kept(db, empty)).toBe(0);
  });

  it('stays equal to the counted top-level tasks through inserts, subtasks, moves and deletes', async () => {
    const db = database.db;
    await migrateToLatest(db, database.dialect);
    const companyId = await insertCompany(db, { name: 'Counts Co', modulesAccess: ALL_MODULES });
    const a = await insertProject(db, { companyId, title: 'A', status: 'active' });
    const b = await insertProject(db, { companyId, title: 'B', status: 'active' });
    const check = async () => {
      expect(await kept(db, a)).toBe(await counted(db, a));
      expect(await kept(db, b)).toBe(await counted(db, b));
    };
    expect(await kept(db, a)).toBe(0);

    // one statement with several rows (PostgreSQL: one statement-level trigger for all), a subtask among them
    const first = taskRow(a, companyId);
    await db
      .insertInto('tasks')
      .values([first, taskRow(a, companyId), taskRow(b, companyId)])
      .execute();
    const child = taskRow(a, companyId, first.id);
    await db
      .insertInto('tasks')
      .values([child, taskRow(a, companyId, first.id)])
      .execute();
    expect(await kept(db, a)).toBe(2);
    expect(await kept(db, b)).toBe(1);
    await check();

    // a status change moves nothing
    await db.updateTable('tasks').set({ status: 'IN_PROGRESS' }).where('project_id', '=', a).execute();
    await check();

    // a subtask made top-level, then a top-level task moved to the other project
    await db.updateTable('tasks').set({ parent_id: null }).where('id', '=', child.id).execute();
    expect(await kept(db, a)).toBe(3);
    await db.updateTable('tasks').set({ project_id: b }).where('id', '=', child.id).execute();
    expect(await kept(db, a)).toBe(2);
    expect(await kept(db, b)).toBe(2);
    await check();

    // deleting a top-level task takes its subtask along (cascade): one top-level task fewer
    await db.deleteFrom('tasks').where('id', '=', first.id).execute();
    expect(await kept(db, a)).toBe(1);
    await check();

    // a project's delete takes its count row; its tasks go by cascade without error
    await db.deleteFrom('projects').where('id', '=', a).execute();
    expect(await kept(db, a)).toBeUndefined();
    expect(await kept(db, b)).toBe(2);
  });

  it('gives the task list its total without filters, and counts with them', async () => {
    const db = database.db;
    await migrateToLatest(db, database.dialect);
    const companyId = await insertCompany(db, { name: 'Counts List Co', modulesAccess: ALL_MODULES });
    const projectId = await insertProject(db, { companyId, title: 'Listed', status: 'active' });
    await db
      .insertInto('tasks')
      .values([
        taskRow(projectId, companyId),
        taskRow(projectId, companyId, null, 'COMPLETED'),
        taskRow(projectId, companyId, null, 'COMPLETED'),
      ])
      .execute();
    const list = (filters: { status?: ('COMPLETED' | 'OPEN')[] } = {}) =>
      listProjectTasks(db, projectId, { ...filters, sort: 'createdAt', limit: 2, offset: 0 });

    expect((await list()).total).toBe(3);
    expect((await list({ status: ['COMPLETED'] })).total).toBe(2);
    // the list reads the kept count: what it holds is what the list says
    await db.updateTable('project_task_counts').set({ top_level: 7 }).where('project_id', '=', projectId).execute();
    expect((await list()).total).toBe(7);
    expect((await list({ status: ['COMPLETED'] })).total).toBe(2);
    // a kept count the caller read with the project is used as it is, and only without filters
    const listKnowing = (kept: number | null, filters: { status?: ('COMPLETED' | 'OPEN')[] } = {}) =>
      listProjectTasks(db, projectId, { ...filters, sort: 'createdAt', limit: 2, offset: 0 }, kept);
    expect((await listKnowing(5)).total).toBe(5);
    expect((await listKnowing(5, { status: ['COMPLETED'] })).total).toBe(2);
    // no kept row (a project from before the triggers, say): counted
    await db.deleteFrom('project_task_counts').where('project_id', '=', projectId).execute();
    expect((await list()).total).toBe(3);
    expect((await listKnowing(null)).total).toBe(3);
  });

  it('goes down (triggers, functions and table) and up again with the counts refilled', async () => {
    const db = database.db;
    await migrateToLatest(db, database.dialect);
    const companyId = await insertCompany(db, { name: 'Counts Down Co', modulesAccess: ALL_MODULES });
    const projectId = await insertProject(db, { companyId, title: 'Down and up', status: 'active' });
    await migrateTo(db, database.dialect, '0012-reports');
    // without the triggers, writes go on as before
    await db
      .insertInto('tasks')
      .values([taskRow(projectId, companyId), taskRow(projectId, companyId)])
      .execute();
    await migrateToLatest(db, database.dialect);
    expect(await kept(db, projectId)).toBe(2);
    await db.insertInto('tasks').values(taskRow(projectId, companyId)).execute();
    expect(await kept(db, projectId)).toBe(3);
  });
});

describe('listProjectTasks pages (a page in the second half is read from the far end)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateToLatest(database.db, database.dialect);
  });
  afterAll(() => database.destroy());

  const SORTS = [
    'referenceId',
    '-referenceId',
    'title',
    '-title',
    'status',
    '-status',
    'dueDate',
    '-dueDate',
    'createdAt',
    '-createdAt',
  ] as const;

  it('gives every page of every sort exactly the rows of the whole list at that place', async () => {
    const db = database.db;
    const companyId = await insertCompany(db, { name: 'Pages Co', modulesAccess: ALL_MODULES });
    const projectId = await insertProject(db, { companyId, title: 'Pages', status: 'active' });
    // 11 tasks with ties and missing values (reference IDs, due dates), the same second for some
    const statuses = [
      'OPEN',
      'IN_PROGRESS',
      'COMPLETED',
      'OPEN',
      'IN_REVIEW',
      'OPEN',
      'NOT_APPLICABLE',
      'OPEN',
      'INCOMPLETE',
      'OPEN',
      'OPEN',
    ];
    const rows = statuses.map((status, i) => ({
      ...taskRow(projectId, companyId, null, status),
      title: ['beta', 'Alpha', 'gamma', 'alpha', 'Beta'][i % 5],
      reference_id: i % 3 === 0 ? null : `R-${10 - (i % 4)}-${i}`,
      due_date: i % 4 === 0 ? null : `2026-12-0${1 + (i % 3)}`,
      created_at: new Date(Date.UTC(2026, 10, 1, 9, 0, Math.floor(i / 3))).toISOString(),
    }));
    await db.insertInto('tasks').values(rows).execute();
    await db
      .insertInto('tasks')
      .values(taskRow(projectId, companyId, rows[0].id))
      .execute();

    for (const sort of SORTS) {
      const all = await listProjectTasks(db, projectId, { sort, limit: 100, offset: 0 });
      expect(all.total).toBe(11);
      const whole = all.results.map((t) => t.id);
      for (const limit of [1, 2, 3, 4]) {
        const paged: string[] = [];
        for (let offset = 0; offset < 11; offset += limit) {
          const page = await listProjectTasks(db, projectId, { sort, limit, offset });
          expect(page.total).toBe(11);
          paged.push(...page.results.map((t) => t.id));
        }
        expect({ sort, limit, ids: paged }).toEqual({ sort, limit, ids: whole });
      }
      expect((await listProjectTasks(db, projectId, { sort, limit: 5, offset: 11 })).results).toEqual([]);
      expect((await listProjectTasks(db, projectId, { sort, limit: 5, offset: 40 })).results).toEqual([]);
    }
    // with a filter (counted, not kept): the pages of the filtered list
    const open = await listProjectTasks(db, projectId, { status: ['OPEN'], sort: 'title', limit: 100, offset: 0 });
    expect(open.total).toBe(6);
    const openPaged: string[] = [];
    for (let offset = 0; offset < 6; offset += 4)
      openPaged.push(
        ...(await listProjectTasks(db, projectId, { status: ['OPEN'], sort: 'title', limit: 4, offset })).results.map(
          (t) => t.id,
        ),
      );
    expect(openPaged).toEqual(open.results.map((t) => t.id));
  });
});
