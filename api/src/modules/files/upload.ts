/**
 * Uploading a file to a project (issue 6): a new file, or a new version of the file of that name in the
 * folder, optionally attached to a task. The bytes are committed to the storage before their row's
 * transaction, and removed again when it fails: never bytes without a row.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import * as api from '@portal/shared/core/files/api';
import {
  addFileVersion,
  attachTaskFile,
  findFileByName,
  findProjectFile,
  insertFileWithVersion,
  taskFileAttached,
} from '../../db/files';
import { findFolder } from '../../db/folders';
import { findTask } from '../../db/tasks';
import { isUniqueViolation } from '../../db/values';
import { audit } from '../../lib/audit';
import { checkFormFields } from '../../lib/form-fields';
import { commitUpload, discardForm, readStreamedForm } from '../../lib/uploads';
import { lockFilesOf } from '../projects/work';
import { settleDuplicate, settleMissing } from '../projects/writes';
import { duplicateFilename, folderNotFound, taskNotFound, type FilesProject } from './project-files';

/** Reads the upload form of `request` and stores its file in `project` for `userId`; the file as it is then. */
export async function uploadProjectFile(
  app: FastifyInstance,
  request: FastifyRequest,
  project: FilesProject,
  userId: string,
) {
  const { db } = app;
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
        uploadedBy: userId,
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
        await attachTaskFile(trx, task.id, fileId, userId);
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
  return findProjectFile(db, fileId);
}
