/**
 * A project's own columns and its lifecycle: inserting one (bare, or created pending with its Lead
 * Consultant) with its root folder, reading and updating its fields, the checks around them (title
 * taken, practice active, tasks or files present), and its status, set or read under a row lock.
 */
import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { ProjectStatus, ProjectType, TaskStatus } from '@portal/shared/core/projects';
import { insertRootFolder } from '../folders';
import type { Database } from '../schema';
import { nowIso } from '../values';
import { addProjectMember } from './roles';

export async function insertProject(
  db: Kysely<Database>,
  input: { companyId: string; title: string; status: string },
): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('projects')
    .values({
      id,
      company_id: input.companyId,
      title: input.title,
      status: input.status,
      created_at: now,
      updated_at: now,
    })
    .execute();
  // Every project has its root folder (issue 6).
  await insertRootFolder(db, id, null, now);
  return id;
}

/** The project's own columns (what PATCH compares and the audit records). */
export interface ProjectFields {
  title: string;
  description: string | null;
  type: ProjectType;
  practiceId: string | null;
  startDate: string | null;
  dueDate: string | null;
}

export async function findProjectFields(
  db: Kysely<Database>,
  id: string,
): Promise<(ProjectFields & { status: ProjectStatus; companyId: string }) | null> {
  const row = await db
    .selectFrom('projects')
    .select(['title', 'description', 'type', 'practice_id', 'start_date', 'due_date', 'status', 'company_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    title: row.title,
    description: row.description,
    type: row.type as ProjectType,
    practiceId: row.practice_id,
    startDate: row.start_date,
    dueDate: row.due_date,
    status: row.status as ProjectStatus,
    companyId: row.company_id,
  };
}

/** Whether another project (of any company) has this title, ignoring case. */
export async function projectTitleTaken(db: Kysely<Database>, title: string, exceptId?: string): Promise<boolean> {
  let query = db
    .selectFrom('projects')
    .select('id')
    .where(sql<boolean>`lower(title) = lower(${title})`);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function activePracticeExists(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('practices')
    .select('id')
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}

/** A new project, pending, with its Lead Consultant and its root folder. */
export async function createProject(
  db: Kysely<Database>,
  input: ProjectFields & { companyId: string; createdBy: string; leadConsultantId: string },
): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('projects')
    .values({
      id,
      company_id: input.companyId,
      title: input.title,
      description: input.description,
      type: input.type,
      practice_id: input.practiceId,
      start_date: input.startDate,
      due_date: input.dueDate,
      status: 'pending',
      created_by: input.createdBy,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await addProjectMember(db, id, input.leadConsultantId, 'Lead Consultant');
  // Every project has its root folder (issue 6), made in the project's transaction.
  await insertRootFolder(db, id, input.createdBy, now);
  return id;
}

export async function updateProjectFields(
  db: Kysely<Database>,
  id: string,
  changes: Partial<ProjectFields>,
): Promise<void> {
  const set: Record<string, string | null> = {};
  if (changes.title !== undefined) set.title = changes.title;
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.type !== undefined) set.type = changes.type;
  if (changes.practiceId !== undefined) set.practice_id = changes.practiceId;
  if (changes.startDate !== undefined) set.start_date = changes.startDate;
  if (changes.dueDate !== undefined) set.due_date = changes.dueDate;
  await db
    .updateTable('projects')
    .set({ ...set, updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

export async function setProjectStatus(db: Kysely<Database>, id: string, status: ProjectStatus): Promise<void> {
  await db.updateTable('projects').set({ status, updated_at: nowIso() }).where('id', '=', id).execute();
}

/** Whether the project has any task (subtasks included); with `outside`, any task in a status not listed. */
export async function projectHasTasks(
  db: Kysely<Database>,
  projectId: string,
  outside?: readonly TaskStatus[],
): Promise<boolean> {
  let query = db.selectFrom('tasks').select('id').where('project_id', '=', projectId);
  if (outside?.length) query = query.where('status', 'not in', outside);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

export async function projectHasFiles(db: Kysely<Database>, projectId: string): Promise<boolean> {
  return (
    (await db.selectFrom('files').select('id').where('project_id', '=', projectId).limit(1).executeTakeFirst()) !==
    undefined
  );
}

/**
 * The project's status, read under a row lock on PostgreSQL until the transaction ends: `update` for
 * whoever changes the status, `share` for writers of its work, so a cancel and a new task never pass
 * each other's checks. SQLite runs one write transaction at a time already.
 */
export async function lockProjectStatus(
  trx: Kysely<Database>,
  projectId: string,
  mode: 'update' | 'share',
): Promise<ProjectStatus | null> {
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  const row = await trx
    .selectFrom('projects')
    .select('status')
    .where('id', '=', projectId)
    .$call((q) => (!postgres ? q : mode === 'update' ? q.forUpdate() : q.forShare()))
    .executeTakeFirst();
  return row ? (row.status as ProjectStatus) : null;
}
