import type { FastifyInstance } from 'fastify';
import { FOLDER_MAX_DEPTH, type Folder } from '@portal/shared/core/files';
import * as api from '@portal/shared/core/files/api';
import {
  deleteFolders,
  findFolder,
  findFolderDto,
  folderNameTaken,
  folderTree,
  foldersHaveOpenTaskFiles,
  insertFolder,
  listFolders,
  updateFolder,
} from '../../../../db/folders';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { policyProject } from '../../../../plugins/app/policies';
import { folderNotFound, removeBlobs } from '../../../../modules/files/project-files';
import { lockFilesOf } from '../../../../modules/projects/work';
import { settleDuplicate, settleMissing } from '../../../../modules/projects/writes';

const folderTaken = () =>
  new HttpError(409, 'folder_already_exist', undefined, [
    { field: 'name', message: 'name is already used by another folder here' },
  ]);
const tooDeep = () =>
  new HttpError(400, 'folder_not_supported', `Folders can be nested at most ${FOLDER_MAX_DEPTH} levels deep.`);

/** A project's folders (issue 6): one root made with the project, folders below it, moved and deleted with what they hold. */
export default async function projectFoldersRoutes(app: FastifyInstance) {
  const { db } = app;

  async function folderOrThrow(projectId: string, folderId: string): Promise<Folder> {
    const folder = await findFolderDto(db, projectId, folderId);
    if (!folder) throw folderNotFound();
    return folder;
  }

  route(app, api.listFolders, async (request) => {
    const { project } = policyProject(request);
    return { results: await listFolders(db, project.id) };
  });

  route(app, api.createFolder, async (request, reply) => {
    const { project } = policyProject(request);
    const { user } = await requireAuth(request);
    const input = request.body;
    // Every project has its root already.
    if (input.parentId === null) throw new HttpError(409, 'root_folder_already_exist');
    const parentId = input.parentId;
    const id = await settleMissing(folderNotFound, () =>
      settleDuplicate(folderTaken, () =>
        db.transaction().execute(async (trx) => {
          await lockFilesOf(trx, project.id);
          const parent = await findFolder(trx, project.id, parentId);
          if (!parent) throw folderNotFound();
          if ((await folderTree(trx, project.id)).depth(parent.id) + 1 > FOLDER_MAX_DEPTH) throw tooDeep();
          if (await folderNameTaken(trx, project.id, parent.id, input.name)) throw folderTaken();
          const folderId = await insertFolder(trx, {
            projectId: project.id,
            parentId: parent.id,
            name: input.name,
            createdBy: user.id,
          });
          await audit(
            request,
            {
              action: 'folder.create',
              targetType: 'folder',
              targetId: folderId,
              targetLabel: input.name,
              companyId: project.companyId,
              after: { projectId: project.id, parentId: parent.id, name: input.name },
            },
            trx,
          );
          return folderId;
        }),
      ),
    );
    return reply.code(201).send(await folderOrThrow(project.id, id));
  });

  route(app, api.updateFolder, async (request) => {
    const { project } = policyProject(request);
    const { folderId } = request.params;
    const input = request.body;
    await settleMissing(folderNotFound, () =>
      settleDuplicate(folderTaken, () =>
        db.transaction().execute(async (trx) => {
          await lockFilesOf(trx, project.id);
          const folder = await findFolder(trx, project.id, folderId);
          if (!folder) throw folderNotFound();
          if (folder.parentId === null) throw new HttpError(400, 'forbidden_folder_action');
          const name = input.name ?? folder.name;
          let parentId = folder.parentId;
          if (input.parentId !== undefined && input.parentId !== folder.parentId) {
            const target = await findFolder(trx, project.id, input.parentId);
            if (!target) throw folderNotFound();
            const tree = await folderTree(trx, project.id);
            if (tree.subtree(folder.id).includes(target.id))
              throw new HttpError(400, 'folder_cannot_be_moved_to_itself');
            // The moved folder sits one below its new parent, and its own subfolders go with it.
            if (tree.depth(target.id) + 1 + tree.height(folder.id) > FOLDER_MAX_DEPTH) throw tooDeep();
            parentId = target.id;
          }
          const renamed = name !== folder.name;
          const moved = parentId !== folder.parentId;
          if (!renamed && !moved) return;
          if (await folderNameTaken(trx, project.id, parentId, name, folder.id)) throw folderTaken();
          await updateFolder(trx, folder.id, {
            name: renamed ? name : undefined,
            parentId: moved ? parentId : undefined,
          });
          const common = { targetType: 'folder', targetId: folder.id, targetLabel: name, companyId: project.companyId };
          if (renamed)
            await audit(
              request,
              { ...common, action: 'folder.rename', before: { name: folder.name }, after: { name } },
              trx,
            );
          if (moved)
            await audit(
              request,
              { ...common, action: 'folder.move', before: { parentId: folder.parentId }, after: { parentId } },
              trx,
            );
        }),
      ),
    );
    return folderOrThrow(project.id, folderId);
  });

  route(app, api.deleteFolder, async (request, reply) => {
    const { project } = policyProject(request);
    const { folderId } = request.params;
    const keys = await db.transaction().execute(async (trx) => {
      await lockFilesOf(trx, project.id);
      const folder = await findFolder(trx, project.id, folderId);
      if (!folder) throw folderNotFound();
      if (folder.parentId === null) throw new HttpError(400, 'root_folder_cannot_be_deleted');
      const subtree = (await folderTree(trx, project.id)).subtree(folder.id);
      if (await foldersHaveOpenTaskFiles(trx, subtree)) throw new HttpError(409, 'folder_project_has_open_tasks');
      const { storageKeys, fileCount } = await deleteFolders(trx, subtree);
      await audit(
        request,
        {
          action: 'folder.delete',
          targetType: 'folder',
          targetId: folder.id,
          targetLabel: folder.name,
          companyId: project.companyId,
          before: {
            projectId: project.id,
            parentId: folder.parentId,
            name: folder.name,
            folders: subtree.length,
            files: fileCount,
          },
        },
        trx,
      );
      return storageKeys;
    });
    // The bytes go once the rows are gone for good.
    await removeBlobs(app, keys);
    return reply.code(204).send();
  });
}
