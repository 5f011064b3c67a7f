/**
 * Task tracker templates of practices (issue 7) themselves: listing and finding them with their
 * counts, the row lock of a write, the name check, and inserting, updating and deleting one.
 */
import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely, type SqlBool } from 'kysely';
import type { TaskTrackerStatus, TaskTrackerSummary } from '@portal/shared/core/practices';
import type { Database } from '../schema';
import { nowIso, toIso } from '../values';
import { countBy } from './internal';

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
