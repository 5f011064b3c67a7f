/** The rule every write to a project's work follows: a canceled project's tasks, controls and points of focus are frozen. */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { lockProjectStatus } from '../../db/projects';
import type { Database } from '../../db/schema';
import { HttpError } from '../../lib/http-error';

/**
 * Checks, inside the write's transaction, that the project is not canceled; on PostgreSQL its row
 * stays share-locked until the transaction ends, so a concurrent cancel waits for this write (and
 * then sees it) or this write waits for the cancel (and then refuses).
 */
export async function lockWorkOf(trx: Kysely<Database>, projectId: string): Promise<void> {
  const status = await lockProjectStatus(trx, projectId, 'share');
  if (status === null) throw new HttpError(404, 'project_not_found');
  if (status === 'canceled') throw new HttpError(409, 'project_is_canceled');
}

/**
 * `lockWorkOf`, and then the project's files lock: folder creates, moves and deletes and file uploads,
 * moves, renames and attaches of one project run one after the other, so a check (no folder moved
 * below itself, the target folder still there) holds until the write commits. On PostgreSQL a
 * transaction-scoped advisory lock on the project; SQLite runs one transaction at a time already.
 */
export async function lockFilesOf(trx: Kysely<Database>, projectId: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtext(${`project-files:${projectId}`}))`.execute(trx);
  }
  await lockWorkOf(trx, projectId);
}

/** Whether the project's work may change now (what the permissions in replies say). */
export const workIsOpen = (project: { status: string }): boolean => project.status !== 'canceled';
