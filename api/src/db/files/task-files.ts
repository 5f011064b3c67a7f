/**
 * Files on tasks: whether a file is attached to a task, attaching and detaching it, and the task's
 * files in the order they were attached.
 */
import type { Kysely } from 'kysely';
import type { TaskFile } from '@portal/shared/core/files';
import { userRef } from '../folders';
import type { Database } from '../schema';
import { nowIso, toIso } from '../values';
import { filesByIds } from './listing';

export async function taskFileAttached(db: Kysely<Database>, taskId: string, fileId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('task_files')
      .select('file_id')
      .where('task_id', '=', taskId)
      .where('file_id', '=', fileId)
      .executeTakeFirst()) !== undefined
  );
}

export async function attachTaskFile(
  db: Kysely<Database>,
  taskId: string,
  fileId: string,
  createdBy: string,
): Promise<void> {
  await db
    .insertInto('task_files')
    .values({ task_id: taskId, file_id: fileId, created_by: createdBy, created_at: nowIso() })
    .execute();
}

export async function detachTaskFile(db: Kysely<Database>, taskId: string, fileId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('task_files')
    .where('task_id', '=', taskId)
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The task's files, in the order they were attached. */
export async function listTaskFiles(db: Kysely<Database>, taskId: string, fileId?: string): Promise<TaskFile[]> {
  let query = db
    .selectFrom('task_files as tf')
    .leftJoin('users as u', 'u.id', 'tf.created_by')
    .select(['tf.file_id', 'tf.created_at', 'u.id as user_id', 'u.first_name', 'u.last_name', 'u.email'])
    .where('tf.task_id', '=', taskId);
  if (fileId) query = query.where('tf.file_id', '=', fileId);
  const links = await query.orderBy('tf.created_at').orderBy('tf.file_id').execute();
  const files = new Map(
    (
      await filesByIds(
        db,
        links.map((l) => l.file_id),
      )
    ).map((f) => [f.id, f]),
  );
  return links.flatMap((l): TaskFile[] => {
    const file = files.get(l.file_id);
    return file
      ? [
          {
            ...file,
            attachedAt: toIso(l.created_at),
            attachedBy: userRef(l.user_id, l.first_name, l.last_name, l.email),
          },
        ]
      : [];
  });
}
