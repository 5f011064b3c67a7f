import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { ControlDetail, PointOfFocus } from '@portal/shared/core/projects';
import * as api from '@portal/shared/core/projects/api';
import {
  controlNameTaken,
  deleteControl,
  deletePointOfFocus,
  findControl,
  findControlDetail,
  findPointOfFocus,
  insertControl,
  insertPointOfFocus,
  linkControlTask,
  listControls,
  listPointsOfFocus,
  unlinkControlTask,
  updateControl,
  updatePointOfFocus,
  type ControlRecord,
} from '../../../../db/controls';
import type { Database } from '../../../../db/schema';
import { findTask, projectTaskIds, tasksByIds } from '../../../../db/tasks';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { pageWindow } from '../../../../lib/paging';
import { invalidField, route, type OperationRequest } from '../../../../lib/contract';
import { policyProject } from '../../../../plugins/app/policies';
import { lockWorkOf, workIsOpen } from '../../../../modules/projects/work';
import { changedFields, settleDuplicate } from '../../../../modules/projects/writes';

const controlNotFound = () => new HttpError(404, 'control_not_found');
const nameTaken = () =>
  new HttpError(409, 'control_name_must_be_unique', undefined, [
    { field: 'name', message: 'name is already used by another control of this project' },
  ]);

async function controlOrThrow(db: Kysely<Database>, projectId: string, controlId: string): Promise<ControlRecord> {
  const control = await findControl(db, projectId, controlId);
  if (!control) throw controlNotFound();
  return control;
}

/** Controls of a project, their links to tasks and their points of focus. */
export default async function projectControlsRoutes(app: FastifyInstance) {
  const { db } = app;

  async function detail(request: FastifyRequest, controlId: string): Promise<ControlDetail> {
    const access = policyProject(request);
    const found = await findControlDetail(db, access.project.id, controlId);
    if (!found) throw controlNotFound();
    return {
      ...found.control,
      tasks: await tasksByIds(db, found.taskIds),
      pointsOfFocus: found.pointsOfFocus,
      permissions: { edit: access.write && workIsOpen(access.project) },
    };
  }

  route(app, api.listControls, async (request) => {
    const { project } = policyProject(request);
    const { query } = request;
    const window = pageWindow({ ...query, ignorePagination: false });
    const { results, total } = await listControls(db, project.id, {
      search: query.search,
      sort: query.sort,
      limit: query.pageSize,
      offset: window.offset,
    });
    return window.reply(results, total);
  });

  route(app, api.createControl, async (request, reply) => {
    const { project } = policyProject(request);
    const input = request.body;
    const taskIds = [...new Set(input.taskIds ?? [])];
    const controlId = await settleDuplicate(nameTaken, () =>
      db.transaction().execute(async (trx) => {
        await lockWorkOf(trx, project.id);
        const found = await projectTaskIds(trx, project.id, taskIds);
        const strangers = taskIds.filter((id) => !found.has(id));
        if (strangers.length)
          throw invalidField('taskIds', `taskIds holds tasks that are not of this project: ${strangers.join(', ')}`);
        if (await controlNameTaken(trx, project.id, input.name)) throw nameTaken();
        const id = await insertControl(trx, {
          projectId: project.id,
          name: input.name,
          title: input.title,
          description: input.description ?? null,
          taskIds,
        });
        await audit(
          request,
          {
            action: 'control.create',
            targetType: 'control',
            targetId: id,
            targetLabel: input.name,
            companyId: project.companyId,
            after: {
              projectId: project.id,
              name: input.name,
              title: input.title,
              description: input.description ?? null,
              taskIds,
            },
          },
          trx,
        );
        return id;
      }),
    );
    return reply.code(201).send(await detail(request, controlId));
  });

  route(app, api.getControl, async (request) => detail(request, request.params.controlId));

  route(app, api.updateControl, async (request) => {
    const { project } = policyProject(request);
    const { controlId } = request.params;
    const input = request.body;
    await settleDuplicate(nameTaken, () =>
      db.transaction().execute(async (trx) => {
        await lockWorkOf(trx, project.id);
        const control = await controlOrThrow(trx, project.id, controlId);
        if (input.name !== undefined && (await controlNameTaken(trx, project.id, input.name, control.id)))
          throw nameTaken();
        const { before, after } = changedFields(control, input, ['name', 'title', 'description']);
        if (Object.keys(after).length === 0) return;
        await updateControl(trx, control.id, input);
        await audit(
          request,
          {
            action: 'control.update',
            targetType: 'control',
            targetId: control.id,
            targetLabel: input.name ?? control.name,
            companyId: project.companyId,
            before,
            after,
          },
          trx,
        );
      }),
    );
    return detail(request, controlId);
  });

  route(app, api.deleteControl, async (request, reply) => {
    const { project } = policyProject(request);
    const { controlId } = request.params;
    await db.transaction().execute(async (trx) => {
      await lockWorkOf(trx, project.id);
      const found = await findControlDetail(trx, project.id, controlId);
      if (!found) throw controlNotFound();
      await deleteControl(trx, controlId);
      await audit(
        request,
        {
          action: 'control.delete',
          targetType: 'control',
          targetId: controlId,
          targetLabel: found.control.name,
          companyId: project.companyId,
          before: {
            projectId: project.id,
            name: found.control.name,
            title: found.control.title,
            description: found.control.description,
            taskIds: found.taskIds,
            pointsOfFocus: found.pointsOfFocus.map((p) => p.name),
          },
        },
        trx,
      );
    });
    return reply.code(204).send();
  });

  /** Links or unlinks a task: idempotent, so only an actual change is recorded. */
  async function setLink(request: OperationRequest<typeof api.linkControlTask>, linked: boolean): Promise<void> {
    const { project } = policyProject(request);
    const { controlId, taskId } = request.params;
    await db.transaction().execute(async (trx) => {
      await lockWorkOf(trx, project.id);
      const control = await controlOrThrow(trx, project.id, controlId);
      const task = await findTask(trx, project.id, taskId);
      if (!task) throw new HttpError(404, 'task_not_found');
      const changed = linked
        ? await linkControlTask(trx, control.id, task.id)
        : await unlinkControlTask(trx, control.id, task.id);
      if (!changed) return;
      await audit(
        request,
        {
          action: linked ? 'control.task.link' : 'control.task.unlink',
          targetType: 'control',
          targetId: control.id,
          targetLabel: control.name,
          companyId: project.companyId,
          [linked ? 'after' : 'before']: { taskId: task.id, title: task.title },
        },
        trx,
      );
    });
  }

  route(app, api.linkControlTask, async (request, reply) => {
    await setLink(request, true);
    return reply.code(204).send();
  });

  route(app, api.unlinkControlTask, async (request, reply) => {
    await setLink(request, false);
    return reply.code(204).send();
  });

  // ---- points of focus

  route(app, api.listPointsOfFocus, async (request) => {
    const { project } = policyProject(request);
    const { query } = request;
    const window = pageWindow({ ...query, ignorePagination: false });
    const { results, total } = await listPointsOfFocus(db, project.id, {
      controlId: query.controlId,
      search: query.search,
      limit: query.pageSize,
      offset: window.offset,
    });
    return window.reply(results, total);
  });

  route(app, api.createPointOfFocus, async (request, reply) => {
    const { project } = policyProject(request);
    const { controlId } = request.params;
    const input = request.body;
    const point = await db.transaction().execute(async (trx) => {
      await lockWorkOf(trx, project.id);
      const control = await controlOrThrow(trx, project.id, controlId);
      const id = await insertPointOfFocus(trx, {
        projectId: project.id,
        controlId: control.id,
        name: input.name,
        description: input.description ?? null,
      });
      await audit(
        request,
        {
          action: 'point_of_focus.create',
          targetType: 'point_of_focus',
          targetId: id,
          targetLabel: input.name,
          companyId: project.companyId,
          after: { controlId: control.id, name: input.name, description: input.description ?? null },
        },
        trx,
      );
      return (await findPointOfFocus(trx, project.id, id))!;
    });
    return reply.code(201).send(point);
  });

  async function pointOrThrow(trx: Kysely<Database>, projectId: string, pointId: string): Promise<PointOfFocus> {
    const point = await findPointOfFocus(trx, projectId, pointId);
    if (!point) throw new HttpError(404, 'point_of_focus_not_found');
    return point;
  }

  route(app, api.updatePointOfFocus, async (request) => {
    const { project } = policyProject(request);
    const { pointId } = request.params;
    const input = request.body;
    return db.transaction().execute(async (trx) => {
      await lockWorkOf(trx, project.id);
      const point = await pointOrThrow(trx, project.id, pointId);
      const { before, after } = changedFields(point, input, ['name', 'description']);
      if (Object.keys(after).length === 0) return point;
      await updatePointOfFocus(trx, point.id, input);
      await audit(
        request,
        {
          action: 'point_of_focus.update',
          targetType: 'point_of_focus',
          targetId: point.id,
          targetLabel: input.name ?? point.name,
          companyId: project.companyId,
          before,
          after,
        },
        trx,
      );
      return pointOrThrow(trx, project.id, point.id);
    });
  });

  route(app, api.deletePointOfFocus, async (request, reply) => {
    const { project } = policyProject(request);
    const { pointId } = request.params;
    await db.transaction().execute(async (trx) => {
      await lockWorkOf(trx, project.id);
      const point = await pointOrThrow(trx, project.id, pointId);
      await deletePointOfFocus(trx, point.id);
      await audit(
        request,
        {
          action: 'point_of_focus.delete',
          targetType: 'point_of_focus',
          targetId: point.id,
          targetLabel: point.name,
          companyId: project.companyId,
          before: { controlId: point.controlId, name: point.name, description: point.description },
        },
        trx,
      );
    });
    return reply.code(204).send();
  });
}
