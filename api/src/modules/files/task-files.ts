/** Files on tasks (issue 6): a task's files, attaching a file of the project to a task and detaching it. */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { attachTaskFile, detachTaskFile, findFile, listTaskFiles, taskFileAttached } from '../../db/files';
import type { Database } from '../../db/schema';
import { findTask } from '../../db/tasks';
import { audit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { lockFilesOf } from '../projects/work';
import { settleDuplicate, settleMissing } from '../projects/writes';
import { fileNotFound, taskNotFound, type FilesProject } from './project-files';

const alreadyAttached = () => new HttpError(409, 'file_already_attached_to_task');

/** The files of a task of the project, or 404 `task_not_found`. */
export async function taskFiles(db: Kysely<Database>, project: FilesProject, taskId: string) {
  if (!(await findTask(db, project.id, taskId))) throw taskNotFound();
  return { results: await listTaskFiles(db, taskId) };
}

/** Attaches a file of the project to one of its tasks, for `userId`; the file as the task lists it. */
export async function attachFileToTask(
  db: Kysely<Database>,
  request: FastifyRequest,
  project: FilesProject,
  userId: string,
  { taskId, fileId }: { taskId: string; fileId: string },
) {
  await settleMissing(fileNotFound, () =>
    settleDuplicate(alreadyAttached, () =>
      db.transaction().execute(async (trx) => {
        await lockFilesOf(trx, project.id);
        const task = await findTask(trx, project.id, taskId);
        if (!task) throw taskNotFound();
        const file = await findFile(trx, project.id, fileId);
        if (!file) throw fileNotFound();
        if (await taskFileAttached(trx, task.id, file.id)) throw alreadyAttached();
        await attachTaskFile(trx, task.id, file.id, userId);
        await audit(
          request,
          {
            action: 'task.file.attach',
            targetType: 'task',
            targetId: task.id,
            targetLabel: task.title,
            companyId: project.companyId,
            after: { fileId: file.id, name: file.name },
          },
          trx,
        );
      }),
    ),
  );
  const [attached] = await listTaskFiles(db, taskId, fileId);
  return attached;
}

/** Detaches a file from a task of the project (the file stays). */
export async function detachFileFromTask(
  db: Kysely<Database>,
  request: FastifyRequest,
  project: FilesProject,
  { taskId, fileId }: { taskId: string; fileId: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockFilesOf(trx, project.id);
    const task = await findTask(trx, project.id, taskId);
    if (!task) throw taskNotFound();
    const file = await findFile(trx, project.id, fileId);
    if (!file || !(await detachTaskFile(trx, task.id, file.id))) throw fileNotFound();
    await audit(
      request,
      {
        action: 'task.file.detach',
        targetType: 'task',
        targetId: task.id,
        targetLabel: task.title,
        companyId: project.companyId,
        before: { fileId: file.id, name: file.name },
      },
      trx,
    );
  });
}
