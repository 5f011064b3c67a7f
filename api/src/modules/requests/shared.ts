/** What the requests routes share: the server's day, who manages, notices after the commit, the links a request may hold. */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { deliverRequestNotices, type PendingNotices } from './notices';
import { invalidField } from '../../lib/contract';

/** The server's day (UTC), YYYY-MM-DD: what overdue and "due in n days" are judged against. */
export function today(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** 403 for a caller who may not manage requests (clients and auditors). */
export function assertManage(user: { isTevora: boolean; isAuditor: boolean }): void {
  if (!user.isTevora || user.isAuditor) throw new HttpError(403, 'forbidden');
}

export const requestNotFound = () => new HttpError(404, 'request_not_found');

/** After the commit: the bells and mails of a change, in the background. */
export function deliverAfterCommit(app: FastifyInstance, log: FastifyBaseLogger, pending: PendingNotices): void {
  if (pending.userIds.length === 0 && pending.mails.length === 0) return;
  deliverRequestNotices(app, log, pending).catch((error: unknown) =>
    log.warn({ err: error }, 'request notices failed'),
  );
}

/**
 * Checks what a request links to: the project must be the company's, the task and the control of that
 * project. 400 validation_failed naming the field otherwise.
 */
export async function checkRequestLinks(
  db: Kysely<Database>,
  companyId: string,
  links: { projectId: string | null; taskId: string | null; controlId: string | null },
  check: { projectId: boolean; taskId: boolean; controlId: boolean } = {
    projectId: true,
    taskId: true,
    controlId: true,
  },
): Promise<void> {
  const { projectId, taskId, controlId } = links;
  if (check.projectId && projectId) {
    const project = await db
      .selectFrom('projects')
      .select('id')
      .where('id', '=', projectId)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    if (!project) throw invalidField('projectId', 'projectId must be a project of this company');
  }
  if (check.taskId && taskId) {
    const task = projectId
      ? await db
          .selectFrom('tasks')
          .select('id')
          .where('id', '=', taskId)
          .where('project_id', '=', projectId)
          .executeTakeFirst()
      : undefined;
    if (!task) throw invalidField('taskId', "taskId must be a task of the request's project");
  }
  if (check.controlId && controlId) {
    const control = projectId
      ? await db
          .selectFrom('controls')
          .select('id')
          .where('id', '=', controlId)
          .where('project_id', '=', projectId)
          .executeTakeFirst()
      : undefined;
    if (!control) throw invalidField('controlId', "controlId must be a control of the request's project");
  }
}
