import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/files/api';
import { addFileKind } from '../../../../lib/file-kinds';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { policyProject } from '../../../../plugins/app/policies';
import {
  deleteProjectFile,
  listProjectFiles,
  projectFileDetail,
  projectFileKind,
  updateProjectFile,
} from '../../../../modules/files/project-files';
import { attachFileToTask, detachFileFromTask, taskFiles } from '../../../../modules/files/task-files';
import { uploadProjectFile } from '../../../../modules/files/upload';

/**
 * A project's files with their versions, and files on tasks (issue 6): modules/files/. Bytes are
 * committed to the storage before their row's transaction, and removed again when it fails; deleted
 * rows' bytes are removed after the delete commits. A canceled project's files are frozen (409
 * project_is_canceled).
 */
export default async function projectFilesRoutes(app: FastifyInstance) {
  const { db } = app;

  addFileKind(app.fileKinds, projectFileKind(app));

  route(app, api.listFiles, async (request) => {
    const { project } = policyProject(request);
    return listProjectFiles(db, project, request.query);
  });

  route(app, api.uploadFile, async (request, reply) => {
    const { project } = policyProject(request);
    const { user } = await requireAuth(request);
    return reply.code(201).send(await uploadProjectFile(app, request, project, user.id));
  });

  route(app, api.getFile, async (request) => {
    const { project } = policyProject(request);
    return projectFileDetail(db, project, request.params.fileId);
  });

  route(app, api.updateFile, async (request) => {
    const { project } = policyProject(request);
    return updateProjectFile(db, request, project, request.params.fileId, request.body);
  });

  route(app, api.deleteFile, async (request, reply) => {
    const { project } = policyProject(request);
    await deleteProjectFile(app, request, project, request.params.fileId);
    return reply.code(204).send();
  });

  // Files on tasks.

  route(app, api.listTaskFiles, async (request) => {
    const { project } = policyProject(request);
    return taskFiles(db, project, request.params.taskId);
  });

  route(app, api.attachTaskFile, async (request, reply) => {
    const { project } = policyProject(request);
    const { user } = await requireAuth(request);
    const { taskId } = request.params;
    const { fileId } = request.body;
    return reply.code(201).send(await attachFileToTask(db, request, project, user.id, { taskId, fileId }));
  });

  route(app, api.detachTaskFile, async (request, reply) => {
    const { project } = policyProject(request);
    await detachFileFromTask(db, request, project, request.params);
    return reply.code(204).send();
  });
}
