/**
 * A project's files with their versions (issue 6): listing, reading, renaming or moving, deleting, and
 * the file kind of their downloads. Uploads are upload.ts, files on tasks task-files.ts. Deleted rows'
 * bytes are removed after the delete commits. A canceled project's files are frozen (409
 * project_is_canceled).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { fileExtension, type fileUpdateSchema, type filesQuerySchema } from '@portal/shared/core/files';
import {
  deleteFiles,
  findFile,
  findFileAnywhere,
  findFileByName,
  findFileDetail,
  findFileVersion,
  findProjectFile,
  listFolderFiles,
  updateFile,
} from '../../db/files';
import { findFolder, findRootFolder } from '../../db/folders';
import type { Database } from '../../db/schema';
import { audit } from '../../lib/audit';
import { invalidField } from '../../lib/contract';
import type { FileKind } from '../../lib/file-kinds';
import { HttpError } from '../../lib/http-error';
import { projectAccessFor, type ProjectAccess } from '../../plugins/app/policies';
import { lockFilesOf } from '../projects/work';
import { settleDuplicate, settleMissing } from '../projects/writes';

/** The project of a policy: its id and its company. */
export type FilesProject = Pick<ProjectAccess['project'], 'id' | 'companyId'>;

export const fileNotFound = () => new HttpError(404, 'file_not_found');
export const folderNotFound = () => new HttpError(404, 'folder_not_found');
export const taskNotFound = () => new HttpError(404, 'task_not_found');
export const duplicateFilename = (name: string) =>
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

/** One page of the files of a folder (the project's root folder when none is given). */
export async function listProjectFiles(
  db: Kysely<Database>,
  project: FilesProject,
  query: z.output<typeof filesQuerySchema>,
) {
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
}

/** A file of the project with its versions and tasks, or 404 `file_not_found`. */
export async function projectFileDetail(db: Kysely<Database>, project: FilesProject, fileId: string) {
  const file = await findFile(db, project.id, fileId);
  const detail = file ? await findFileDetail(db, file.id) : null;
  if (!detail) throw fileNotFound();
  return detail;
}

/** Renames and/or moves a file of the project; the file as it is then. */
export async function updateProjectFile(
  db: Kysely<Database>,
  request: FastifyRequest,
  project: FilesProject,
  fileId: string,
  input: z.output<typeof fileUpdateSchema>,
) {
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
          await audit(request, { ...common, action: 'file.rename', before: { name: file.name }, after: { name } }, trx);
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
}

/** Deletes a file of the project with its versions, then their bytes. */
export async function deleteProjectFile(
  app: FastifyInstance,
  request: FastifyRequest,
  project: FilesProject,
  fileId: string,
): Promise<void> {
  const keys = await app.db.transaction().execute(async (trx) => {
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
