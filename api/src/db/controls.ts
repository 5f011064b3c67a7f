import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Control, PointOfFocus } from '@portal/shared/core/projects';
import type { Database } from './schema';
import { closedTaskSum } from './tasks';
import { likePattern, nowIso, toCount, toIso } from './values';

/** Controls of a project, the tasks linked to them and their points of focus (issue 5). */

export type ControlSort = 'name' | '-name' | 'title' | '-title';

export interface ControlRecord {
  id: string;
  projectId: string;
  name: string;
  title: string;
  description: string | null;
}

interface ControlRow {
  id: string;
  project_id: string;
  name: string;
  title: string;
}

/** Linked tasks, done tasks and points of focus of these controls: one grouped query each. */
async function withCounts(db: Kysely<Database>, rows: ControlRow[]): Promise<Control[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [tasks, points] = await Promise.all([
    db
      .selectFrom('control_tasks as ct')
      .innerJoin('tasks as t', 't.id', 'ct.task_id')
      .select((eb) => ['ct.control_id', eb.fn.countAll().as('n'), closedTaskSum().as('done')])
      .where('ct.control_id', 'in', ids)
      .groupBy('ct.control_id')
      .execute(),
    db
      .selectFrom('points_of_focus')
      .select((eb) => ['control_id', eb.fn.countAll().as('n')])
      .where('control_id', 'in', ids)
      .groupBy('control_id')
      .execute(),
  ]);
  const taskCounts = new Map(
    tasks.map((r) => [r.control_id, { n: toCount(r.n as string | number), done: toCount(r.done) }]),
  );
  const pointCounts = new Map(points.map((r) => [r.control_id, toCount(r.n as string | number)]));
  return rows.map((r) => ({
    id: r.id,
    projectId: r.project_id,
    name: r.name,
    title: r.title,
    taskCount: taskCounts.get(r.id)?.n ?? 0,
    tasksDone: taskCounts.get(r.id)?.done ?? 0,
    pointOfFocusCount: pointCounts.get(r.id) ?? 0,
  }));
}

/** A page of the project's controls, searched in name and title. */
export async function listControls(
  db: Kysely<Database>,
  projectId: string,
  query: { search?: string; sort: ControlSort; limit: number; offset: number },
): Promise<{ results: Control[]; total: number }> {
  let base = db.selectFrom('controls as c').where('c.project_id', '=', projectId);
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where(
      sql<SqlBool>`(lower(c.name) like ${pattern} escape '!' or lower(c.title) like ${pattern} escape '!')`,
    );
  }
  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const direction = query.sort.startsWith('-') ? 'desc' : 'asc';
  const column = query.sort.replace(/^-/, '') === 'title' ? sql`lower(c.title)` : sql`lower(c.name)`;
  const rows = await base
    .select(['c.id', 'c.project_id', 'c.name', 'c.title'])
    .orderBy(column, direction)
    .orderBy('c.id')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return { results: await withCounts(db, rows), total: toCount(totalRow.n as string | number) };
}

/** The control if it belongs to the project; null otherwise (another project's control is not revealed). */
export async function findControl(
  db: Kysely<Database>,
  projectId: string,
  controlId: string,
): Promise<ControlRecord | null> {
  const row = await db
    .selectFrom('controls')
    .select(['id', 'project_id', 'name', 'title', 'description'])
    .where('id', '=', controlId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row
    ? { id: row.id, projectId: row.project_id, name: row.name, title: row.title, description: row.description }
    : null;
}

/** The control with its counts, the ids of its linked tasks and its points of focus. */
export async function findControlDetail(
  db: Kysely<Database>,
  projectId: string,
  controlId: string,
): Promise<{
  control: Control & { description: string | null };
  taskIds: string[];
  pointsOfFocus: PointOfFocus[];
} | null> {
  const record = await findControl(db, projectId, controlId);
  if (!record) return null;
  const [[control], links, points] = await Promise.all([
    withCounts(db, [{ id: record.id, project_id: record.projectId, name: record.name, title: record.title }]),
    db.selectFrom('control_tasks').select('task_id').where('control_id', '=', controlId).execute(),
    pointsQuery(db).where('p.control_id', '=', controlId).orderBy('p.created_at').orderBy('p.id').execute(),
  ]);
  return {
    control: { ...control, description: record.description },
    taskIds: links.map((l) => l.task_id),
    pointsOfFocus: points.map(toPoint),
  };
}

/** Whether another control of the project has this name, ignoring case. */
export async function controlNameTaken(
  db: Kysely<Database>,
  projectId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('controls')
    .select('id')
    .where('project_id', '=', projectId)
    .where(sql<SqlBool>`lower(name) = lower(${name})`);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Which of these ids are controls of the project. */
export async function projectControlIds(db: Kysely<Database>, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('controls')
    .select('id')
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function insertControl(
  db: Kysely<Database>,
  input: { projectId: string; name: string; title: string; description: string | null; taskIds: string[] },
): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('controls')
    .values({
      id,
      project_id: input.projectId,
      name: input.name,
      title: input.title,
      description: input.description,
      created_at: now,
      updated_at: now,
    })
    .execute();
  if (input.taskIds.length) {
    await db
      .insertInto('control_tasks')
      .values(input.taskIds.map((taskId) => ({ control_id: id, task_id: taskId })))
      .execute();
  }
  return id;
}

export async function updateControl(
  db: Kysely<Database>,
  controlId: string,
  changes: { name?: string; title?: string; description?: string | null },
): Promise<void> {
  await db
    .updateTable('controls')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', controlId)
    .execute();
}

/** Deletes the control; its task links and points of focus go with it (foreign keys cascade). */
export async function deleteControl(db: Kysely<Database>, controlId: string): Promise<void> {
  await db.deleteFrom('controls').where('id', '=', controlId).execute();
}

/** Links the task; false when it already was linked. */
export async function linkControlTask(db: Kysely<Database>, controlId: string, taskId: string): Promise<boolean> {
  const result = await db
    .insertInto('control_tasks')
    .values({ control_id: controlId, task_id: taskId })
    .onConflict((oc) => oc.columns(['control_id', 'task_id']).doNothing())
    .executeTakeFirst();
  return toCount(result.numInsertedOrUpdatedRows) > 0;
}

/** Unlinks the task; false when it was not linked. */
export async function unlinkControlTask(db: Kysely<Database>, controlId: string, taskId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('control_tasks')
    .where('control_id', '=', controlId)
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  return toCount(result.numDeletedRows) > 0;
}

// ---------------------------------------------------------------------------------------------
// Points of focus

function pointsQuery(db: Kysely<Database>) {
  return db
    .selectFrom('points_of_focus as p')
    .innerJoin('controls as c', 'c.id', 'p.control_id')
    .select(['p.id', 'p.control_id', 'c.name as control_name', 'p.name', 'p.description', 'p.created_at']);
}

type PointRow = Awaited<ReturnType<ReturnType<typeof pointsQuery>['executeTakeFirstOrThrow']>>;

function toPoint(row: PointRow): PointOfFocus {
  return {
    id: row.id,
    controlId: row.control_id,
    controlName: row.control_name,
    name: row.name,
    description: row.description,
    createdAt: toIso(row.created_at),
  };
}

/** A page of the project's points of focus, by control name, then oldest first. */
export async function listPointsOfFocus(
  db: Kysely<Database>,
  projectId: string,
  query: { controlId?: string; search?: string; limit: number; offset: number },
): Promise<{ results: PointOfFocus[]; total: number }> {
  let base = pointsQuery(db).where('p.project_id', '=', projectId);
  if (query.controlId) base = base.where('p.control_id', '=', query.controlId);
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where(
      sql<SqlBool>`(lower(p.name) like ${pattern} escape '!' or lower(coalesce(p.description, '')) like ${pattern} escape '!')`,
    );
  }
  const totalRow = await base
    .clearSelect()
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .orderBy(sql`lower(c.name)`)
    .orderBy('c.id')
    .orderBy('p.created_at')
    .orderBy('p.id')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return { results: rows.map(toPoint), total: toCount(totalRow.n as string | number) };
}

/** The point of focus if it belongs to the project; null otherwise. */
export async function findPointOfFocus(
  db: Kysely<Database>,
  projectId: string,
  pointId: string,
): Promise<PointOfFocus | null> {
  const row = await pointsQuery(db)
    .where('p.id', '=', pointId)
    .where('p.project_id', '=', projectId)
    .executeTakeFirst();
  return row ? toPoint(row) : null;
}

export async function insertPointOfFocus(
  db: Kysely<Database>,
  input: { projectId: string; controlId: string; name: string; description: string | null },
): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('points_of_focus')
    .values({
      id,
      control_id: input.controlId,
      project_id: input.projectId,
      name: input.name,
      description: input.description,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function updatePointOfFocus(
  db: Kysely<Database>,
  pointId: string,
  changes: { name?: string; description?: string | null },
): Promise<void> {
  await db
    .updateTable('points_of_focus')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', pointId)
    .execute();
}

export async function deletePointOfFocus(db: Kysely<Database>, pointId: string): Promise<void> {
  await db.deleteFrom('points_of_focus').where('id', '=', pointId).execute();
}
