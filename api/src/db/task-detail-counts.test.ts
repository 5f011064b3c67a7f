import { sql, type Kysely } from 'kysely';
import { insertCompany } from './companies';
import { migrateTo, migrateToLatest } from './migrate';
import { insertProject } from './projects';
import type { Database } from './schema';
import { listProjectTasks } from './tasks';
import { createTestDatabase, type TestDatabase } from '../test/app';
import { ALL_MODULES, commentRow, taskRow } from '../test/task-rows';

interface Counts {
  subtasks: number;
  done: number;
  comments: number;
}

/** What the task rows keep, by task id. Raw SQL: the columns exist only from migration 0014 on. */
async function kept(db: Kysely<Database>, companyId: string): Promise<Record<string, Counts>> {
  const { rows } = await sql<{ id: string; subtask_count: number; subtasks_done: number; comment_count: number }>`
    select id, subtask_count, subtasks_done, comment_count from tasks where company_id = ${companyId}
  `.execute(db);
  return Object.fromEntries(
    rows.map((r) => [
      r.id,
      { subtasks: Number(r.subtask_count), done: Number(r.subtasks_done), comments: Number(r.comment_count) },
    ]),
  );
}

/** The same counted from the rows. */
async function counted(db: Kysely<Database>, companyId: string): Promise<Record<string, Counts>> {
  const { rows } = await sql<{
    id: string;
    subtasks: number | string;
    done: number | string;
    comments: number | string;
  }>`
    select t.id,
      (select count(*) from tasks s where s.parent_id = t.id) as subtasks,
      (select count(*) from tasks s where s.parent_id = t.id and s.status in ('COMPLETED', 'NOT_APPLICABLE')) as done,
      (select count(*) from task_comments c where c.task_id = t.id) as comments
    from tasks t where t.company_id = ${companyId}
  `.execute(db);
  return Object.fromEntries(
    rows.map((r) => [r.id, { subtasks: Number(r.subtasks), done: Number(r.done), comments: Number(r.comments) }]),
  );
}

describe("each task's subtask and comment counts (migration 0014)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  it('fills the counts of existing tasks', async () => {
    const db = database.db;
    await migrateTo(db, database.dialect, '0013-task-counts');
    const companyId = await insertCompany(db, { name: 'Details Backfill Co', modulesAccess: ALL_MODULES });
    const projectId = await insertProject(db, { companyId, title: 'Backfill', status: 'active' });
    const [parent, other] = [taskRow(projectId, companyId), taskRow(projectId, companyId)];
    await db.insertInto('tasks').values([parent, other]).execute();
    await db
      .insertInto('tasks')
      .values([
        taskRow(projectId, companyId, parent.id),
        taskRow(projectId, companyId, parent.id, 'COMPLETED'),
        taskRow(projectId, companyId, parent.id, 'NOT_APPLICABLE'),
      ])
      .execute();
    await db
      .insertInto('task_comments')
      .values([commentRow(parent.id), commentRow(parent.id), commentRow(other.id)])
      .execute();

    await migrateToLatest(db, database.dialect);
    const counts = await kept(db, companyId);
    expect(counts[parent.id]).toEqual({ subtasks: 3, done: 2, comments: 2 });
    expect(counts[other.id]).toEqual({ subtasks: 0, done: 0, comments: 1 });
    expect(counts).toEqual(await counted(db, companyId));
  });

  it('stay equal to the counted ones through inserts, status changes, moves, comments and deletes', async () => {
    const db = database.db;
    await migrateToLatest(db, database.dialect);
    const companyId = await insertCompany(db, { name: 'Details Co', modulesAccess: ALL_MODULES });
    const projectId = await insertProject(db, { companyId, title: 'Details', status: 'active' });
    const check = async () => expect(await kept(db, companyId)).toEqual(await counted(db, companyId));

    const [a, b] = [taskRow(projectId, companyId), taskRow(projectId, companyId)];
    await db.insertInto('tasks').values([a, b]).execute();
    // several subtasks in one statement (PostgreSQL: one statement-level trigger for all), of two parents
    const subs = [
      taskRow(projectId, companyId, a.id),
      taskRow(projectId, companyId, a.id, 'COMPLETED'),
      taskRow(projectId, companyId, b.id, 'NOT_APPLICABLE'),
    ];
    await db.insertInto('tasks').values(subs).execute();
    expect((await kept(db, companyId))[a.id]).toEqual({ subtasks: 2, done: 1, comments: 0 });
    expect((await kept(db, companyId))[b.id]).toEqual({ subtasks: 1, done: 1, comments: 0 });
    await check();

    // open to closed, closed to open, and one statement changing every subtask of the project
    await db.updateTable('tasks').set({ status: 'COMPLETED' }).where('id', '=', subs[0].id).execute();
    expect((await kept(db, companyId))[a.id]).toEqual({ subtasks: 2, done: 2, comments: 0 });
    await db.updateTable('tasks').set({ status: 'IN_PROGRESS' }).where('id', '=', subs[1].id).execute();
    expect((await kept(db, companyId))[a.id]).toEqual({ subtasks: 2, done: 1, comments: 0 });
    await db.updateTable('tasks').set({ status: 'IN_REVIEW' }).where('parent_id', 'is not', null).execute();
    expect((await kept(db, companyId))[a.id]).toEqual({ subtasks: 2, done: 0, comments: 0 });
    await check();
    // a change that is not a move or a status change keeps the counts
    await db.updateTable('tasks').set({ title: 'Renamed' }).where('project_id', '=', projectId).execute();
    await check();

    // a subtask moved to the other parent, then made top-level
    await db.updateTable('tasks').set({ parent_id: b.id }).where('id', '=', subs[0].id).execute();
    expect((await kept(db, companyId))[a.id].subtasks).toBe(1);
    expect((await kept(db, companyId))[b.id].subtasks).toBe(2);
    await db.updateTable('tasks').set({ parent_id: null }).where('id', '=', subs[0].id).execute();
    expect((await kept(db, companyId))[b.id].subtasks).toBe(1);
    await check();

    // comments: several in one statement, on two tasks; one deleted
    const comments = [commentRow(a.id), commentRow(a.id), commentRow(subs[1].id)];
    await db.insertInto('task_comments').values(comments).execute();
    expect((await kept(db, companyId))[a.id].comments).toBe(2);
    expect((await kept(db, companyId))[subs[1].id].comments).toBe(1);
    await db.deleteFrom('task_comments').where('id', '=', comments[0].id).execute();
    expect((await kept(db, companyId))[a.id].comments).toBe(1);
    await check();

    // deleting a subtask, then a parent with its subtasks and their comments (cascades)
    await db.deleteFrom('tasks').where('id', '=', subs[2].id).execute();
    expect((await kept(db, companyId))[b.id]).toEqual({ subtasks: 0, done: 0, comments: 0 });
    await db.deleteFrom('tasks').where('id', '=', a.id).execute();
    await check();
    expect(Object.keys(await kept(db, companyId)).sort()).toEqual([b.id, subs[0].id].sort());

    // a project's delete takes its tasks, subtasks and comments without error
    const c = taskRow(projectId, companyId);
    await db.insertInto('tasks').values(c).execute();
    await db
      .insertInto('tasks')
      .values(taskRow(projectId, companyId, c.id))
      .execute();
    await db.insertInto('task_comments').values(commentRow(c.id)).execute();
    await db.deleteFrom('projects').where('id', '=', projectId).execute();
    expect(await kept(db, companyId)).toEqual({});
  });

  it('are what the task list shows', async () => {
    const db = database.db;
    await migrateToLatest(db, database.dialect);
    const companyId = await insertCompany(db, { name: 'Details List Co', modulesAccess: ALL_MODULES });
    const projectId = await insertProject(db, { companyId, title: 'Listed', status: 'active' });
    const parent = taskRow(projectId, companyId);
    await db.insertInto('tasks').values(parent).execute();
    await db
      .insertInto('tasks')
      .values([taskRow(projectId, companyId, parent.id, 'COMPLETED'), taskRow(projectId, companyId, parent.id)])
      .execute();
    await db.insertInto('task_comments').values(commentRow(parent.id)).execute();
    const shown = async () =>
      (await listProjectTasks(db, projectId, { sort: 'createdAt', limit: 10, offset: 0 })).results[0];
    expect(await shown()).toMatchObject({ id: parent.id, subtaskCount: 2, subtasksDone: 1, commentCount: 1 });
    // the list reads the kept counts: what the row holds is what the list says
    await sql`update tasks set subtask_count = 9, subtasks_done = 8, comment_count = 7 where id = ${parent.id}`.execute(
      db,
    );
    expect(await shown()).toMatchObject({ subtaskCount: 9, subtasksDone: 8, commentCount: 7 });
  });

  it('go down (triggers, functions and columns) and up again with the counts refilled', async () => {
    const db = database.db;
    await migrateToLatest(db, database.dialect);
    const companyId = await insertCompany(db, { name: 'Details Down Co', modulesAccess: ALL_MODULES });
    const projectId = await insertProject(db, { companyId, title: 'Down and up', status: 'active' });
    const parent = taskRow(projectId, companyId);
    await db.insertInto('tasks').values(parent).execute();
    await migrateTo(db, database.dialect, '0013-task-counts');
    // without the triggers, writes go on as before
    await db
      .insertInto('tasks')
      .values(taskRow(projectId, companyId, parent.id, 'COMPLETED'))
      .execute();
    await db.insertInto('task_comments').values(commentRow(parent.id)).execute();
    await migrateToLatest(db, database.dialect);
    expect((await kept(db, companyId))[parent.id]).toEqual({ subtasks: 1, done: 1, comments: 1 });
    await db
      .insertInto('tasks')
      .values(taskRow(projectId, companyId, parent.id))
      .execute();
    expect((await kept(db, companyId))[parent.id]).toEqual({ subtasks: 2, done: 1, comments: 1 });
  });
});
