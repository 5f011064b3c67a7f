/**
 * Copying work into a project (applying a template, importing a file): the project's tasks by Task
 * ID, and adding tasks, controls (new or reused), points of focus and their links in multi-row
 * batches, in list order after the project's existing tasks.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely, type SqlBool } from 'kysely';
import type { ControlTasksTable, ControlsTable, Database, PointsOfFocusTable, TasksTable } from '../schema';
import { insertInBatches } from '../seed-projects';
import { nowIso, toIso } from '../values';
import { caseless, chunks } from './internal';

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
