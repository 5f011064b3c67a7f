/**
 * What a task tracker template holds (its tasks, subtasks, controls and points of focus, as a task
 * tracker file describes it): emptying it, adding content in multi-row batches, reading it back, and
 * the published templates a project may apply.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { ApplicableTracker, TrackerControl, TrackerTask } from '@portal/shared/core/practices';
import type { Database, TrackerTasksTable } from '../schema';
import { insertInBatches } from '../seed-projects';
import { caseless, countBy } from './internal';

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
