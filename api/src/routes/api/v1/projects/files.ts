import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { fileExtension } from '@portal/shared/core/files';
import * as api from '@portal/shared/core/files/api';
import {
  addFileVersion,
  attachTaskFile,
  deleteFiles,
  detachTaskFile,
  findFile,
  findFileAnywhere,
  findFileByName,
  findFileDetail,
  findFileVersion,
  findProjectFile,
  insertFileWithVersion,
  listFolderFiles,
  listTaskFiles,
  taskFileAttached,
  updateFile,
} from '../../../../db/files';
import { findFolder, findRootFolder } from '../../../../db/folders';
import { findTask } from '../../../../db/tasks';
import { isUniqueViolation } from '../../../../db/values';
import { audit } from '../../../../lib/audit';
import { addFileKind, type FileKind } from '../../../../lib/file-kinds';
import { HttpError } from '../../../../lib/http-error';
import { commitUpload, discardForm, readStreamedForm } from '../../../../lib/uploads';
import { requireAuth } from '../../../../plugins/app/auth';
import { invalidField, route } from '../../../../lib/contract';
import { policyProject, projectAccessFor } from '../../../../plugins/app/policies';
import { checkFormFields } from '../../../../lib/form-fields';
import { lockFilesOf } from '../../../../modules/projects/work';
import { settleDuplicate, settleMissing } from '../../../../modules/projects/writes';

export const fileNotFound = () => new HttpError(404, 'file_not_found');
export const folderNotFound = () => new HttpError(404, 'folder_not_found');
const taskNotFound = () => new HttpError(404, 'task_not_found');
const duplicateFilename = (name: string) =>
  new HttpError(409, 'duplicate_filename', undefined, [
    { field: 'file', message: `${name} already exists in this folder` },
  ]);
const fileNameTaken = () =>
  new HttpError(409, 'folder_file_already_exist', undefined, [
    { field: 'name', message: 'name is already used by another file of this folder' },
  ]);
const extensionChanged = (current: string) => {
  const extension = fileExtension(current);
  const message = extension ? `name must keep the extension .${extension}` : 'name must not add an extension';
  return invalidField('name', message);
};
const alreadyAttached = () => new HttpError(409, 'file_already_attached_to_task');

/** Removes the bytes of deleted rows, after their transaction committed (a failure leaves an orphan the sweep removes). */
export async function removeBlobs(app: FastifyInstance, keys: string[]): Promise<void> {
  for (const key of keys) {
    try {
      await app.storage.remove(key);
    } catch (error) {
      app.log.warn({ err: error }, 'a deleted file version kept its bytes: the sweep removes them');
    }
  }
}

/**
 * A project's files with their versions, and files on tasks (issue 6). Bytes are committed to the
 * storage before their row's transaction, and removed again when it fails; deleted rows' bytes are
 * removed after the delete commits. A canceled project's files are frozen (409 project_is_canceled).
 */
export default async function projectFilesRoutes(app: FastifyInstance) {
  const { db } = app;

  addFileKind(app.fileKinds, projectFileKind(app));

  route(app, api.listFiles, async (request) => {
    const { project } = policyProject(request);
    const { query } = request;
    const folder = query.folderId
      ? await findFolder(db, project.id, query.folderId)
      : await findRootFolder(db, project.id);
    if (!folder) throw folderNotFound();
    const { results, total } = await listFolderFiles(db, folder.id, {
      search: query.search || undefined,
      sort: query.sort,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return { results, total, page: query.page, pageSize: query.pageSize };
  });

  route(app, api.uploadFile, async (request, reply) => {
    const { project } = policyProject(request);
    const { user } = await requireAuth(request);
    const form = await readStreamedForm(request, {
      storage: app.storage,
      fileField: 'file',
      maxFiles: 1,
      maxBytes: app.config.uploadMaxBytes,
    });
    let fields: z.output<typeof api.uploadFile.form.fields>;
    try {
      fields = checkFormFields(api.uploadFile.form.fields, form.fields);
    } catch (error) {
      await discardForm(form);
      throw error;
    }
    const [upload] = form.files;
    let key: string;
    try {
      key = await commitUpload(upload);
    } catch (error) {
      await discardForm(form);
      throw error;
    }

    const save = () =>
      db.transaction().execute(async (trx) => {
        await lockFilesOf(trx, project.id);
        const folder = await findFolder(trx, project.id, fields.folderId);
        if (!folder) throw folderNotFound();
        const task = fields.taskId ? await findTask(trx, project.id, fields.taskId) : null;
        if (fields.taskId && !task) throw taskNotFound();
        const version = {
          size: upload.blob.size,
          sha256: upload.blob.sha256,
          contentType: upload.contentType,
          storageKey: key,
          uploadedBy: user.id,
        };
        const existing = await findFileByName(trx, folder.id, upload.name);
        let fileId: string;
        if (existing) {
          if (fields.onConflict !== 'version') throw duplicateFilename(existing.name);
          const added = await addFileVersion(trx, { ...version, fileId: existing.id });
          fileId = existing.id;
          await audit(
            request,
            {
              action: 'file.version',
              targetType: 'file',
              targetId: fileId,
              targetLabel: existing.name,
              companyId: project.companyId,
              after: {
                projectId: project.id,
                folderId: folder.id,
                version: added.version,
                versionId: added.versionId,
                size: version.size,
                sha256: version.sha256,
                contentType: version.contentType,
              },
            },
            trx,
          );
        } else {
          const created = await insertFileWithVersion(trx, {
            ...version,
            projectId: project.id,
            companyId: project.companyId,
            folderId: folder.id,
            name: upload.name,
          });
          fileId = created.fileId;
          await audit(
            request,
            {
              action: 'file.upload',
              targetType: 'file',
              targetId: fileId,
              targetLabel: upload.name,
              companyId: project.companyId,
              after: {
                projectId: project.id,
                folderId: folder.id,
                name: upload.name,
                version: 1,
                versionId: created.versionId,
                size: version.size,
                sha256: version.sha256,
                contentType: version.contentType,
              },
            },
            trx,
          );
        }
        if (task && !(await taskFileAttached(trx, task.id, fileId))) {
          await attachTaskFile(trx, task.id, fileId, user.id);
          await audit(
            request,
            {
              action: 'task.file.attach',
              targetType: 'task',
              targetId: task.id,
              targetLabel: task.title,
              companyId: project.companyId,
              after: { fileId, name: upload.name },
            },
            trx,
          );
        }
        return fileId;
      });

    let fileId: string;
    try {
      try {
        fileId = await settleMissing(folderNotFound, save);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Another upload took the name (or the task link) meanwhile: as a new version, try once more (it now
        // finds the file); otherwise the name is taken.
        if (fields.onConflict !== 'version') throw duplicateFilename(upload.name);
        fileId = await settleMissing(folderNotFound, () => settleDuplicate(() => duplicateFilename(upload.name), save));
      }
    } catch (error) {
      // Never bytes without a row.
      await app.storage.remove(key).catch(() => undefined);
      throw error;
    }
    return reply.code(201).send(await findProjectFile(db, fileId));
  });

  route(app, api.getFile, async (request) => {
    const { project } = policyProject(request);
    const { fileId } = request.params;
    const file = await findFile(db, project.id, fileId);
    const detail = file ? await findFileDetail(db, file.id) : null;
    if (!detail) throw fileNotFound();
    return detail;
  });

  route(app, api.updateFile, async (request) => {
    const { project } = policyProject(request);
    const { fileId } = request.params;
    const input = request.body;
    await settleMissing(input.folderId !== undefined ? folderNotFound : fileNotFound, () =>
      settleDuplicate(fileNameTaken, () =>
        db.transaction().execute(async (trx) => {
          await lockFilesOf(trx, project.id);
          const file = await findFile(trx, project.id, fileId);
          if (!file) throw fileNotFound();
          const folder = input.folderId !== undefined ? await findFolder(trx, project.id, input.folderId) : null;
          if (input.folderId !== undefined && !folder) throw folderNotFound();
          const name = input.name ?? file.name;
          const folderId = folder?.id ?? file.folderId;
          const renamed = name !== file.name;
          const moved = folderId !== file.folderId;
          if (!renamed && !moved) return;
          // The content was checked against the name it came with: a new name keeps its extension.
          if (renamed && fileExtension(name) !== fileExtension(file.name)) throw extensionChanged(file.name);
          if (folderId && (await findFileByName(trx, folderId, name, file.id))) throw fileNameTaken();
          await updateFile(trx, file.id, {
            name: renamed ? name : undefined,
            folderId: moved && folderId ? folderId : undefined,
          });
          const common = { targetType: 'file', targetId: file.id, targetLabel: name, companyId: project.companyId };
          if (renamed)
            await audit(
              request,
              { ...common, action: 'file.rename', before: { name: file.name }, after: { name } },
              trx,
            );
          if (moved)
            await audit(
              request,
              { ...common, action: 'file.move', before: { folderId: file.folderId }, after: { folderId } },
              trx,
            );
        }),
      ),
    );
    const file = await findProjectFile(db, fileId);
    if (!file) throw fileNotFound();
    return file;
  });

  route(app, api.deleteFile, async (request, reply) => {
    const { project } = policyProject(request);
    const { fileId } = request.params;
    const keys = await db.transaction().execute(async (trx) => {
      await lockFilesOf(trx, project.id);
      const file = await findFile(trx, project.id, fileId);
      if (!file) throw fileNotFound();
      const detail = await findFileDetail(trx, file.id);
      const removed = await deleteFiles(trx, [file.id]);
      await audit(
        request,
        {
          action: 'file.delete',
          targetType: 'file',
          targetId: file.id,
          targetLabel: file.name,
          companyId: project.companyId,
          before: {
            projectId: project.id,
            folderId: file.folderId,
            name: file.name,
            versions: detail?.versions.length ?? 0,
            taskIds: detail?.tasks.map((t) => t.id) ?? [],
          },
        },
        trx,
      );
      return removed;
    });
    await removeBlobs(app, keys);
    return reply.code(204).send();
  });

  // Files on tasks.

  route(app, api.listTaskFiles, async (request) => {
    const { project } = policyProject(request);
    const { taskId } = request.params;
    if (!(await findTask(db, project.id, taskId))) throw taskNotFound();
    return { results: await listTaskFiles(db, taskId) };
  });

  route(app, api.attachTaskFile, async (request, reply) => {
    const { project } = policyProject(request);
    const { user } = await requireAuth(request);
    const { taskId } = request.params;
    const { fileId } = request.body;
    await settleMissing(fileNotFound, () =>
      settleDuplicate(alreadyAttached, () =>
        db.transaction().execute(async (trx) => {
          await lockFilesOf(trx, project.id);
          const task = await findTask(trx, project.id, taskId);
          if (!task) throw taskNotFound();
          const file = await findFile(trx, project.id, fileId);
          if (!file) throw fileNotFound();
          if (await taskFileAttached(trx, task.id, file.id)) throw alreadyAttached();
          await attachTaskFile(trx, task.id, file.id, user.id);
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
    return reply.code(201).send(attached);
  });

  route(app, api.detachTaskFile, async (request, reply) => {
    const { project } = policyProject(request);
    const { taskId, fileId } = request.params;
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
    return reply.code(204).send();
  });
}

/**
 * Project files for GET /files/:id/signed-url and the download: the caller must read the file's project
 * (module on); a version other than the current one must be one of the file's. Anything else: null (404).
 */
export function projectFileKind(app: FastifyInstance): FileKind {
  return {
    name: 'projectFile',
    async find({ auth, fileId, versionId }) {
      const file = await findFileAnywhere(app.db, fileId);
      if (!file) return null;
      try {
        if (!(await projectAccessFor(app.db, auth.user, file.projectId))) return null;
      } catch (error) {
        // The projects module off for the caller: the file is not theirs to see.
        if (error instanceof HttpError) return null;
        throw error;
      }
      const version = await findFileVersion(app.db, file.id, versionId ?? file.currentVersionId);
      if (!version) return null;
      return {
        versionId: version.id,
        name: file.name,
        contentType: version.contentType,
        size: version.size,
        storageKey: version.storageKey,
      };
    },
  };
}
