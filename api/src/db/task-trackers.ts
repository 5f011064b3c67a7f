import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Insertable, type Kysely, type SqlBool } from 'kysely';
import type {
  ApplicableTracker,
  TaskTrackerStatus,
  TaskTrackerSummary,
  TrackerControl,
  TrackerTask,
} from '@portal/shared/core/practices';
import type {
  ControlTasksTable,
  ControlsTable,
  Database,
  PointsOfFocusTable,
  TasksTable,
  TrackerTasksTable,
} from './schema';
import { insertInBatches } from './seed-projects';
import { nowIso, toCount, toIso } from './values';

/**
 * Task tracker templates of practices (issue 7): their tasks, subtasks, controls and points of focus,
 * and copying a template's (or a file's) work into a project. Rows go in multi-row batches of 500: a
 * 20,000-row file is some forty statements, well under PostgreSQL's 65,535 bind parameters each.
 */

/** Values in one `in (...)` list: bounded, so a 20,000-row file stays under every bind parameter limit. */
const IN_CHUNK = 1000;

function chunks<T>(values: T[], size = IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

/** The key Task IDs, Control IDs and point names compare by (the unique indexes use lower() too). */
export const caseless = (value: string): string => value.toLowerCase();

// ---------------------------------------------------------------------------------------------
// Templates

type TrackerRow = {
  id: string;
  practice_id: string;
  name: string;
  description: string;
  status: TaskTrackerStatus;
  created_at: Date | string;
  updated_at: Date | string;
  creator_id: string | null;
  creator_first_name: string | null;
  creator_last_name: string | null;
};

function trackersQuery(db: Kysely<Database>) {
  return db
    .selectFrom('task_trackers as tt')
    .leftJoin('users as u', 'u.id', 'tt.created_by')
    .select([
      'tt.id',
      'tt.practice_id',
      'tt.name',
      'tt.description',
      'tt.status',
      'tt.created_at',
      'tt.updated_at',
      'u.id as creator_id',
      'u.first_name as creator_first_name',
      'u.last_name as creator_last_name',
    ]);
}

/** Tasks, controls and points of focus of these templates: one grouped query each. */
async function withCounts(db: Kysely<Database>, rows: TrackerRow[]): Promise<TaskTrackerSummary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [tasks, controls, points] = await Promise.all([
    countBy(db, 'tracker_tasks', ids),
    countBy(db, 'tracker_controls', ids),
    countBy(db, 'tracker_points_of_focus', ids),
  ]);
  return rows.map((r) => ({
    id: r.id,
    practiceId: r.practice_id,
    name: r.name,
    description: r.description,
    status: r.status,
    taskCount: tasks.get(r.id) ?? 0,
    controlCount: controls.get(r.id) ?? 0,
    pointOfFocusCount: points.get(r.id) ?? 0,
    createdBy: r.creator_id
      ? { id: r.creator_id, firstName: r.creator_first_name ?? '', lastName: r.creator_last_name ?? '' }
      : null,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
  }));
}

/** The practice's templates, by name. */
export async function listTaskTrackers(db: Kysely<Database>, practiceId: string): Promise<TaskTrackerSummary[]> {
  const rows = await trackersQuery(db)
    .where('tt.practice_id', '=', practiceId)
    .orderBy(sql`lower(tt.name)`)
    .orderBy('tt.id')
    .execute();
  return withCounts(db, rows);
}

export async function findTaskTracker(db: Kysely<Database>, id: string): Promise<TaskTrackerSummary | null> {
  const rows = await trackersQuery(db).where('tt.id', '=', id).execute();
  return (await withCounts(db, rows))[0] ?? null;
}

/**
 * The template's status, read inside a write's transaction; on PostgreSQL its row stays locked until
 * the transaction ends, so a publish and a replace of the same draft run one after the other.
 */
export async function lockTaskTracker(trx: Kysely<Database>, id: string): Promise<TaskTrackerStatus | null> {
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  const row = await trx
    .selectFrom('task_trackers')
    .select('status')
    .where('id', '=', id)
    .$call((q) => (postgres ? q.forUpdate() : q))
    .executeTakeFirst();
  return row?.status ?? null;
}

/** Whether another template of the practice has this name, ignoring case. */
export async function taskTrackerNameTaken(
  db: Kysely<Database>,
  practiceId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('task_trackers')
    .select('id')
    .where('practice_id', '=', practiceId)
    .where(sql<SqlBool>`lower(name) = lower(${name})`);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertTaskTracker(
  db: Kysely<Database>,
  input: {
    practiceId: string;
    name: string;
    description: string;
    status?: TaskTrackerStatus;
    createdBy: string | null;
  },
): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('task_trackers')
    .values({
      id,
      practice_id: input.practiceId,
      name: input.name,
      description: input.description,
      status: input.status ?? 'draft',
      created_by: input.createdBy,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function updateTaskTracker(
  db: Kysely<Database>,
  id: string,
  changes: { name?: string; description?: string; status?: TaskTrackerStatus },
): Promise<void> {
  await db
    .updateTable('task_trackers')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .execute();
}

/** Deletes the template; its tasks, controls and points of focus go with it (foreign keys cascade). */
export async function deleteTaskTracker(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('task_trackers').where('id', '=', id).execute();
}

/** What a template holds, as a task tracker file describes it (TrackerFileContent fits). */
export interface TrackerContent {
  /** In file order; a subtask names its parent by the parent's Task ID (a top-level task of the content). */
  tasks: {
    referenceId: string | null;
    parentReferenceId: string | null;
    title: string;
    description: string | null;
    controlName: string | null;
  }[];
  controls: { name: string; title: string; description: string | null; pointsOfFocus: string[] }[];
}

/** Empties the template: tasks, controls, their links and points of focus. */
export async function clearTrackerContent(db: Kysely<Database>, trackerId: string): Promise<void> {
  await db.deleteFrom('tracker_points_of_focus').where('tracker_id', '=', trackerId).execute();
  // Controls take their task links with them; subtasks go before the tasks they point at.
  await db.deleteFrom('tracker_controls').where('tracker_id', '=', trackerId).execute();
  await db.deleteFrom('tracker_tasks').where('tracker_id', '=', trackerId).where('parent_id', 'is not', null).execute();
  await db.deleteFrom('tracker_tasks').where('tracker_id', '=', trackerId).execute();
}

/** Adds the content to an empty template, keeping its order. Run it in the transaction that checked the content. */
export async function insertTrackerContent(
  db: Kysely<Database>,
  trackerId: string,
  content: TrackerContent,
): Promise<{ tasks: number; controls: number; pointsOfFocus: number }> {
  const controlIds = new Map<string, string>();
  const controls = content.controls.map((c, position) => {
    const id = randomUUID();
    controlIds.set(caseless(c.name), id);
    return { id, tracker_id: trackerId, name: c.name, title: c.title, description: c.description, position };
  });
  const points = content.controls.flatMap((c) => {
    const seen = new Set<string>();
    return c.pointsOfFocus
      .filter((name) => !seen.has(caseless(name)) && seen.add(caseless(name)))
      .map((name, position) => ({
        id: randomUUID(),
        tracker_id: trackerId,
        control_id: controlIds.get(caseless(c.name))!,
        name,
        description: null,
        position,
      }));
  });
  const taskIds = new Map<string, string>();
  const tasks: Insertable<TrackerTasksTable>[] = content.tasks.map((task, position) => {
    const id = randomUUID();
    if (task.referenceId) taskIds.set(caseless(task.referenceId), id);
    return {
      id,
      tracker_id: trackerId,
      parent_id: null,
      reference_id: task.referenceId,
      title: task.title,
      description: task.description,
      position,
    };
  });
  const links: { control_id: string; task_id: string }[] = [];
  content.tasks.forEach((task, i) => {
    if (task.parentReferenceId) {
      const parentId = taskIds.get(caseless(task.parentReferenceId));
      if (!parentId)
        throw new Error(`tracker content: no task ${task.parentReferenceId} for the parent of "${task.title}"`);
      tasks[i].parent_id = parentId;
    }
    if (task.controlName) {
      const controlId = controlIds.get(caseless(task.controlName));
      if (!controlId) throw new Error(`tracker content: no control ${task.controlName} for "${task.title}"`);
      links.push({ control_id: controlId, task_id: tasks[i].id });
    }
  });
  await insertInBatches(db, 'tracker_tasks', [
    ...tasks.filter((t) => !t.parent_id),
    ...tasks.filter((t) => t.parent_id),
  ]);
  await insertInBatches(db, 'tracker_controls', controls);
  await insertInBatches(db, 'tracker_points_of_focus', points);
  await insertInBatches(db, 'tracker_control_tasks', links);
  return { tasks: tasks.length, controls: controls.length, pointsOfFocus: points.length };
}

/** The template's tasks (top-level in order, each with its subtasks) and controls (each with its points of focus). */
export async function trackerContent(
  db: Kysely<Database>,
  trackerId: string,
): Promise<{ tasks: TrackerTask[]; controls: TrackerControl[] }> {
  const [taskRows, links, controlRows, pointRows] = await Promise.all([
    db
      .selectFrom('tracker_tasks')
      .select(['id', 'parent_id', 'reference_id', 'title', 'description'])
      .where('tracker_id', '=', trackerId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('tracker_control_tasks as ct')
      .innerJoin('tracker_controls as c', 'c.id', 'ct.control_id')
      .select(['ct.task_id', 'c.name'])
      .where('c.tracker_id', '=', trackerId)
      .orderBy('c.position')
      .orderBy('c.id')
      .execute(),
    db
      .selectFrom('tracker_controls')
      .select(['id', 'name', 'title', 'description'])
      .where('tracker_id', '=', trackerId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('tracker_points_of_focus')
      .select(['id', 'control_id', 'name', 'description'])
      .where('tracker_id', '=', trackerId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);
  const controlsOf = new Map<string, string[]>();
  for (const link of links) controlsOf.set(link.task_id, [...(controlsOf.get(link.task_id) ?? []), link.name]);
  const tasks: TrackerTask[] = [];
  const byId = new Map<string, TrackerTask>();
  for (const r of taskRows.filter((row) => !row.parent_id)) {
    const task: TrackerTask = {
      id: r.id,
      referenceId: r.reference_id,
      title: r.title,
      description: r.description,
      controls: controlsOf.get(r.id) ?? [],
      subtasks: [],
    };
    tasks.push(task);
    byId.set(r.id, task);
  }
  for (const r of taskRows.filter((row) => row.parent_id)) {
    byId.get(r.parent_id!)?.subtasks.push({
      id: r.id,
      referenceId: r.reference_id,
      title: r.title,
      description: r.description,
      controls: controlsOf.get(r.id) ?? [],
    });
  }
  const pointsOf = new Map<string, TrackerControl['pointsOfFocus']>();
  for (const p of pointRows)
    pointsOf.set(p.control_id, [
      ...(pointsOf.get(p.control_id) ?? []),
      { id: p.id, name: p.name, description: p.description },
    ]);
  const controls = controlRows.map((c) => ({
    id: c.id,
    name: c.name,
    title: c.title,
    description: c.description,
    pointsOfFocus: pointsOf.get(c.id) ?? [],
  }));
  return { tasks, controls };
}

/**
 * Published templates of active practices, for a project: those of `practiceId` (the project's) first,
 * then by practice and template name.
 */
export async function applicableTrackers(
  db: Kysely<Database>,
  practiceId: string | null,
): Promise<ApplicableTracker[]> {
  const rows = await db
    .selectFrom('task_trackers as tt')
    .innerJoin('practices as p', 'p.id', 'tt.practice_id')
    .select(['tt.id', 'tt.name', 'tt.description', 'p.id as practice_id', 'p.name as practice_name'])
    .where('tt.status', '=', 'published')
    .where('p.status', '=', 'active')
    .orderBy(sql`case when p.id = ${practiceId ?? ''} then 0 else 1 end`)
    .orderBy(sql`lower(p.name)`)
    .orderBy('p.id')
    .orderBy(sql`lower(tt.name)`)
    .orderBy('tt.id')
    .execute();
  const ids = rows.map((r) => r.id);
  const [taskCounts, controlCounts] = await Promise.all([
    countBy(db, 'tracker_tasks', ids),
    countBy(db, 'tracker_controls', ids),
  ]);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    practice: { id: r.practice_id, name: r.practice_name },
    taskCount: taskCounts.get(r.id) ?? 0,
    controlCount: controlCounts.get(r.id) ?? 0,
    ofProjectPractice: r.practice_id === practiceId,
  }));
}

/** Rows of `table` per template. */
async function countBy(
  db: Kysely<Database>,
  table: 'tracker_tasks' | 'tracker_controls' | 'tracker_points_of_focus',
  trackerIds: string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const ids of chunks(trackerIds)) {
    const rows = await db
      .selectFrom(table)
      .select((eb) => ['tracker_id', eb.fn.countAll().as('n')])
      .where('tracker_id', 'in', ids)
      .groupBy('tracker_id')
      .execute();
    for (const r of rows) out.set(r.tracker_id, toCount(r.n as string | number));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Copying work into a project (applying a template, importing a file)

/** Tasks of the project holding any of these Task IDs (ignoring case), by the lower-cased Task ID. */
export async function projectTasksByReference(
  db: Kysely<Database>,
  projectId: string,
  referenceIds: string[],
): Promise<Map<string, { id: string; referenceId: string; parentId: string | null; title: string }>> {
  const out = new Map<string, { id: string; referenceId: string; parentId: string | null; title: string }>();
  for (const part of chunks([...new Set(referenceIds.map(caseless))])) {
    const rows = await db
      .selectFrom('tasks')
      .select(['id', 'reference_id', 'parent_id', 'title'])
      .where('project_id', '=', projectId)
      // lower() on both sides, as the unique index compares them.
      .where(sql<SqlBool>`lower(reference_id) in (${sql.join(part.map((r) => sql`lower(${r})`))})`)
      .execute();
    for (const r of rows)
      out.set(caseless(r.reference_id!), {
        id: r.id,
        referenceId: r.reference_id!,
        parentId: r.parent_id,
        title: r.title,
      });
  }
  return out;
}

/** What goes into a project: tasks in list order (a subtask after or before its parent), and controls. */
export interface ProjectWork {
  tasks: {
    referenceId: string | null;
    title: string;
    description: string | null;
    /** A top-level task of this list (its index), an existing top-level task of the project (its id), or none. */
    parent: { index: number } | { taskId: string } | null;
    /** Control IDs among `controls`, matched ignoring case. */
    controlNames: string[];
  }[];
  /** A control whose ID the project has is reused: its tasks are linked and the points of focus it lacks added. */
  controls: {
    name: string;
    title: string;
    description: string | null;
    pointsOfFocus: { name: string; description: string | null }[];
  }[];
}

export interface ProjectWorkCounts {
  tasks: number;
  controlsCreated: number;
  controlsLinked: number;
  pointsOfFocus: number;
}

/**
 * Adds the work to the project: tasks OPEN and unassigned, created by `createdBy`. Each task is stamped
 * one millisecond after the one before it, after every task the project has, so the task list (by
 * creation time) shows them in list order below the existing ones. The caller checks Task IDs and runs
 * it in one transaction: the unique indexes settle a concurrent writer.
 */
export async function copyWorkIntoProject(
  db: Kysely<Database>,
  project: { id: string; companyId: string },
  createdBy: string,
  work: ProjectWork,
): Promise<ProjectWorkCounts> {
  const now = nowIso();
  const latest = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.max('created_at').as('latest'))
    .where('project_id', '=', project.id)
    .executeTakeFirst();
  const after = latest?.latest ? new Date(toIso(latest.latest)).getTime() + 1 : 0;
  const start = Math.max(Date.now() - work.tasks.length + 1, after);

  const existing = new Map<string, { id: string; points: Set<string> }>();
  for (const part of chunks([...new Set(work.controls.map((c) => caseless(c.name)))])) {
    const rows = await db
      .selectFrom('controls')
      .select(['id', 'name'])
      .where('project_id', '=', project.id)
      .where(sql<SqlBool>`lower(name) in (${sql.join(part.map((n) => sql`lower(${n})`))})`)
      .execute();
    for (const r of rows) existing.set(caseless(r.name), { id: r.id, points: new Set() });
  }
  const existingById = new Map([...existing.values()].map((c) => [c.id, c]));
  for (const part of chunks([...existingById.keys()])) {
    const rows = await db
      .selectFrom('points_of_focus')
      .select(['control_id', 'name'])
      .where('control_id', 'in', part)
      .execute();
    for (const r of rows) existingById.get(r.control_id)?.points.add(caseless(r.name));
  }

  const controlIds = new Map<string, string>();
  const controls: Insertable<ControlsTable>[] = [];
  const points: Insertable<PointsOfFocusTable>[] = [];
  let controlsLinked = 0;
  for (const control of work.controls) {
    const key = caseless(control.name);
    if (controlIds.has(key)) continue;
    const found = existing.get(key);
    const id = found?.id ?? randomUUID();
    controlIds.set(key, id);
    if (found) controlsLinked += 1;
    else
      controls.push({
        id,
        project_id: project.id,
        name: control.name,
        title: control.title,
        description: control.description,
        created_at: now,
        updated_at: now,
      });
    const held = found?.points ?? new Set<string>();
    for (const point of control.pointsOfFocus) {
      if (held.has(caseless(point.name))) continue;
      held.add(caseless(point.name));
      // Stamped in order too: points of focus list by creation time.
      const at = new Date(Date.parse(now) + points.length).toISOString();
      points.push({
        id: randomUUID(),
        control_id: id,
        project_id: project.id,
        name: point.name,
        description: point.description,
        created_at: at,
        updated_at: at,
      });
    }
  }

  const tasks: Insertable<TasksTable>[] = work.tasks.map((task, i) => {
    const at = new Date(start + i).toISOString();
    return {
      id: randomUUID(),
      project_id: project.id,
      company_id: project.companyId,
      parent_id: task.parent && 'taskId' in task.parent ? task.parent.taskId : null,
      reference_id: task.referenceId,
      title: task.title,
      description: task.description,
      status: 'OPEN',
      due_date: null,
      created_by: createdBy,
      created_at: at,
      updated_at: at,
      completed_at: null,
      closed_at: null,
    };
  });
  const links: Insertable<ControlTasksTable>[] = [];
  work.tasks.forEach((task, i) => {
    if (task.parent && 'index' in task.parent) tasks[i].parent_id = tasks[task.parent.index].id;
    const linked = new Set<string>();
    for (const name of task.controlNames) {
      const controlId = controlIds.get(caseless(name));
      if (!controlId) throw new Error(`project work: no control ${name} for "${task.title}"`);
      if (linked.has(controlId)) continue;
      linked.add(controlId);
      links.push({ control_id: controlId, task_id: tasks[i].id });
    }
  });
  // Tasks whose parent is in this list go after it; the others' parents exist already.
  const isNewSubtask = (i: number) => {
    const parent = work.tasks[i].parent;
    return parent !== null && 'index' in parent;
  };
  await insertInBatches(
    db,
    'tasks',
    tasks.filter((_, i) => !isNewSubtask(i)),
  );
  await insertInBatches(
    db,
    'tasks',
    tasks.filter((_, i) => isNewSubtask(i)),
  );
  await insertInBatches(db, 'controls', controls);
  await insertInBatches(db, 'points_of_focus', points);
  await insertInBatches(db, 'control_tasks', links);
  return { tasks: tasks.length, controlsCreated: controls.length, controlsLinked, pointsOfFocus: points.length };
}
