/**
 * Writing tasks: inserting one (with its assignees and control links), editing its fields, setting
 * its assignees and status (with the completed and closed stamps the reports read), deleting it, and
 * the ids of its subtasks.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TaskStatus } from '@portal/shared/core/projects';
import type { Database } from '../schema';
import { nowIso } from '../values';
import { isClosed } from './internal';

export interface NewTask {
  projectId: string;
  companyId: string;
  parentId: string | null;
  referenceId: string | null;
  title: string;
  description: string | null;
  status: TaskStatus;
  dueDate: string | null;
  createdBy: string;
  assigneeIds: string[];
  controlIds: string[];
}

export async function insertTask(db: Kysely<Database>, input: NewTask): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('tasks')
    .values({
      id,
      project_id: input.projectId,
      company_id: input.companyId,
      parent_id: input.parentId,
      reference_id: input.referenceId,
      title: input.title,
      description: input.description,
      status: input.status,
      due_date: input.dueDate,
      created_by: input.createdBy,
      created_at: now,
      updated_at: now,
      completed_at: input.status === 'COMPLETED' ? now : null,
      closed_at: isClosed(input.status) ? now : null,
    })
    .execute();
  if (input.assigneeIds.length) {
    await db
      .insertInto('task_assignees')
      .values(input.assigneeIds.map((userId) => ({ task_id: id, user_id: userId })))
      .execute();
  }
  if (input.controlIds.length) {
    await db
      .insertInto('control_tasks')
      .values(input.controlIds.map((controlId) => ({ control_id: controlId, task_id: id })))
      .execute();
  }
  return id;
}

export interface TaskChanges {
  title?: string;
  description?: string | null;
  referenceId?: string | null;
  dueDate?: string | null;
}

export async function updateTask(db: Kysely<Database>, taskId: string, changes: TaskChanges): Promise<void> {
  await db
    .updateTable('tasks')
    .set({
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.referenceId !== undefined ? { reference_id: changes.referenceId } : {}),
      ...(changes.dueDate !== undefined ? { due_date: changes.dueDate } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', taskId)
    .execute();
}

/** Makes the task's assignees exactly these users. */
export async function setTaskAssignees(
  db: Kysely<Database>,
  taskId: string,
  userIds: string[],
  current: string[],
): Promise<void> {
  const removed = current.filter((id) => !userIds.includes(id));
  const added = userIds.filter((id) => !current.includes(id));
  if (removed.length)
    await db.deleteFrom('task_assignees').where('task_id', '=', taskId).where('user_id', 'in', removed).execute();
  if (added.length)
    await db
      .insertInto('task_assignees')
      .values(added.map((userId) => ({ task_id: taskId, user_id: userId })))
      .execute();
}

/**
 * Entering COMPLETED stamps completed_at, entering a closed status closed_at (the reports' closing day);
 * leaving them clears the stamps. No move goes from one closed status to the other (TASK_TRANSITIONS).
 */
export async function setTaskStatus(db: Kysely<Database>, taskId: string, status: TaskStatus): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('tasks')
    .set({
      status,
      completed_at: status === 'COMPLETED' ? now : null,
      closed_at: isClosed(status) ? now : null,
      updated_at: now,
    })
    .where('id', '=', taskId)
    .execute();
}

/** Deletes the task; its subtasks, assignees, comments and control links go with it (foreign keys cascade). */
export async function deleteTask(db: Kysely<Database>, taskId: string): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', taskId).execute();
}

export async function subtaskIds(db: Kysely<Database>, taskId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tasks')
    .select('id')
    .where('parent_id', '=', taskId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
