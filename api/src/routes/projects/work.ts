/** The rule every write to a project's work follows: a canceled project's tasks, controls and points of focus are frozen. */
import type { Kysely } from 'kysely';
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

/** Whether the project's work may change now (what the permissions in replies say). */
export const workIsOpen = (project: { status: string }): boolean => project.status !== 'canceled';
