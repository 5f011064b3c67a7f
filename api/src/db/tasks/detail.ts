/**
 * One task: the task record the routes check and change, the detail page's task (subtasks, controls,
 * creator), tasks by id, the checks of a Task ID, a parent, ids and assignable users, and the task's
 * comments.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Task, TaskComment, TaskDetail, TaskStatus } from '@portal/shared/core/projects';
import type { Database } from '../schema';
import { nowIso, toIso } from '../values';
import { listColumns, toTasks } from './internal';

export interface TaskRecord {
  id: string;
  projectId: string;
  parentId: string | null;
  referenceId: string | null;
  title: string;
  description: string | null;
  status: TaskStatus;
  dueDate: string | null;
  assigneeIds: string[];
}

/** The task if it belongs to the project; null otherwise (another project's task is not revealed). */
export async function findTask(db: Kysely<Database>, projectId: string, taskId: string): Promise<TaskRecord | null> {
  const row = await db
    .selectFrom('tasks')
    .select(['id', 'project_id', 'parent_id', 'reference_id', 'title', 'description', 'status', 'due_date'])
    .where('id', '=', taskId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) return null;
  const assignees = await db
    .selectFrom('task_assignees')
    .select('user_id')
    .where('task_id', '=', taskId)
    .orderBy('user_id')
    .execute();
  return {
    id: row.id,
    projectId: row.project_id,
    parentId: row.parent_id,
    referenceId: row.reference_id,
    title: row.title,
    description: row.description,
    status: row.status as TaskStatus,
    dueDate: row.due_date,
    assigneeIds: assignees.map((a) => a.user_id),
  };
}

/** The task as the detail page shows it, without the caller's permissions. */
export async function findTaskDetail(
  db: Kysely<Database>,
  projectId: string,
  taskId: string,
): Promise<Omit<TaskDetail, 'permissions'> | null> {
  const row = await db
    .selectFrom('tasks as t')
    .leftJoin('users as u', 'u.id', 't.created_by')
    .leftJoin('tasks as p', 'p.id', 't.parent_id')
    .select([
      ...listColumns(db),
      't.description',
      't.completed_at',
      'u.id as creator_id',
      'u.first_name as creator_first_name',
      'u.last_name as creator_last_name',
      'u.email as creator_email',
      'p.title as parent_title',
      'p.reference_id as parent_reference_id',
    ])
    .where('t.id', '=', taskId)
    .where('t.project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) return null;
  const [subtaskRows, controls] = await Promise.all([
    db
      .selectFrom('tasks as t')
      .select(listColumns(db))
      .where('t.parent_id', '=', taskId)
      .orderBy('t.created_at')
      .orderBy('t.id')
      .execute(),
    db
      .selectFrom('control_tasks as ct')
      .innerJoin('controls as c', 'c.id', 'ct.control_id')
      .select(['c.id', 'c.name', 'c.title'])
      .where('ct.task_id', '=', taskId)
      .orderBy(sql`lower(c.name)`)
      .orderBy('c.id')
      .execute(),
  ]);
  const [task, ...subtasks] = toTasks([row, ...subtaskRows]);
  return {
    ...task,
    description: row.description,
    parent: row.parent_id
      ? { id: row.parent_id, title: row.parent_title ?? '', referenceId: row.parent_reference_id ?? null }
      : null,
    subtasks,
    controls,
    createdBy:
      row.creator_id && row.creator_email
        ? {
            id: row.creator_id,
            firstName: row.creator_first_name ?? '',
            lastName: row.creator_last_name ?? '',
            email: row.creator_email,
          }
        : null,
    completedAt: row.completed_at === null ? null : toIso(row.completed_at),
  };
}

/** Tasks by id, as lists show them (ControlDetail.tasks), oldest first. */
export async function tasksByIds(db: Kysely<Database>, ids: string[]): Promise<Task[]> {
  if (ids.length === 0) return [];
  return toTasks(
    await db
      .selectFrom('tasks as t')
      .select(listColumns(db))
      .where('t.id', 'in', ids)
      .orderBy('t.created_at')
      .orderBy('t.id')
      .execute(),
  );
}

/** Whether another task of the project has this Task ID, ignoring case. */
export async function taskReferenceTaken(
  db: Kysely<Database>,
  projectId: string,
  referenceId: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('tasks')
    .select('id')
    .where('project_id', '=', projectId)
    .where(sql<SqlBool>`lower(reference_id) = lower(${referenceId})`);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Whether the task is a top-level task of the project (so it may take subtasks). */
export async function isTopLevelTask(db: Kysely<Database>, projectId: string, taskId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tasks')
    .select('id')
    .where('id', '=', taskId)
    .where('project_id', '=', projectId)
    .where('parent_id', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of these ids are tasks of the project. */
export async function projectTaskIds(db: Kysely<Database>, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('tasks')
    .select('id')
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Which of these users may be given the project's work: active users who are staff but not auditors,
 * auditors holding a role on the project, or members of its company whose access stands.
 */
export async function assignableUserIds(
  db: Kysely<Database>,
  project: { id: string; companyId: string },
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.id', 'in', ids)
    .where('u.status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb.and([eb('u.is_tevora', '=', true), eb('u.is_auditor', '=', false)]),
        eb.and([
          eb('u.is_tevora', '=', true),
          eb.exists(
            eb
              .selectFrom('project_members as pm')
              .select('pm.user_id')
              .whereRef('pm.user_id', '=', 'u.id')
              .where('pm.project_id', '=', project.id),
          ),
        ]),
        eb.and([
          eb('u.is_tevora', '=', false),
          eb.exists(
            eb
              .selectFrom('company_memberships as m')
              .select('m.user_id')
              .whereRef('m.user_id', '=', 'u.id')
              .where('m.company_id', '=', project.companyId)
              .where('m.access_revoked_at', 'is', null),
          ),
        ]),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

// ---------------------------------------------------------------------------------------------
// Comments

function commentsQuery(db: Kysely<Database>) {
  return db
    .selectFrom('task_comments as c')
    .leftJoin('users as u', 'u.id', 'c.author_id')
    .select([
      'c.id',
      'c.task_id',
      'c.body',
      'c.created_at',
      'u.id as author_id',
      'u.first_name',
      'u.last_name',
      'u.email',
    ]);
}

type CommentRow = Awaited<ReturnType<ReturnType<typeof commentsQuery>['executeTakeFirstOrThrow']>>;

function toComment(row: CommentRow): TaskComment {
  return {
    id: row.id,
    taskId: row.task_id,
    author:
      row.author_id && row.email
        ? { id: row.author_id, firstName: row.first_name ?? '', lastName: row.last_name ?? '', email: row.email }
        : null,
    body: row.body,
    createdAt: toIso(row.created_at),
  };
}

/** The task's comments, oldest first. */
export async function listTaskComments(db: Kysely<Database>, taskId: string): Promise<TaskComment[]> {
  const rows = await commentsQuery(db)
    .where('c.task_id', '=', taskId)
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
  return rows.map(toComment);
}

/** Stores the body as given: it is plain text, and the web shows it as text. */
export async function insertTaskComment(
  db: Kysely<Database>,
  input: { taskId: string; authorId: string; body: string },
): Promise<TaskComment> {
  const id = randomUUID();
  await db
    .insertInto('task_comments')
    .values({ id, task_id: input.taskId, author_id: input.authorId, body: input.body, created_at: nowIso() })
    .execute();
  return toComment(await commentsQuery(db).where('c.id', '=', id).executeTakeFirstOrThrow());
}
