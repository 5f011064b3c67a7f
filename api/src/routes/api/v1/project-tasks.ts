import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { canMoveTask, type TaskDetail } from '@portal/shared/core/projects';
import { projectControlIds } from '../../../db/controls';
import { taskAssigneeCandidates } from '../../../db/roster';
import type { Database } from '../../../db/schema';
import {
  assignableUserIds,
  decodeTaskCursor,
  deleteTask,
  encodeTaskCursor,
  findTask,
  findTaskDetail,
  insertTask,
  insertTaskComment,
  isTopLevelTask,
  listCompanyTasks,
  listProjectTasks,
  listTaskComments,
  setTaskAssignees,
  setTaskStatus,
  subtaskIds,
  taskAssigneesInUse,
  taskReferenceTaken,
  updateTask,
  type TaskChanges,
  type TaskRecord,
} from '../../../db/tasks';
import type { UserRecord } from '../../../db/users';
import { audit } from '../../../lib/audit';
import { HttpError } from '../../../lib/http-error';
import { pageWindow } from '../../../lib/paging';
import { getAuth } from '../../../plugins/app/auth';
import { policyCompany, policyProject } from '../../../plugins/app/policies';
import * as api from '@portal/shared/core/projects/api';
import { invalidField, route } from '../../../lib/contract';
import { lockWorkOf, workIsOpen } from '../../../modules/projects/work';
import { changedFields, settleDuplicate } from '../../../modules/projects/writes';

const taskNotFound = () => new HttpError(404, 'task_not_found');
const referenceTaken = () =>
  new HttpError(409, 'task_reference_id_already_exist_on_project', 'Task IDs must be unique or null', [
    { field: 'referenceId', message: 'referenceId is already used by another task of this project' },
  ]);

async function caller(request: FastifyRequest): Promise<UserRecord> {
  const auth = await getAuth(request);
  if (!auth) throw new HttpError(401, 'unauthorized');
  return auth.user;
}

async function taskOrThrow(db: Kysely<Database>, projectId: string, taskId: string): Promise<TaskRecord> {
  const task = await findTask(db, projectId, taskId);
  if (!task) throw taskNotFound();
  return task;
}

/** Assignees must be active: staff (auditors only with a role on the project) or members of its company whose access stands. */
async function checkAssignees(
  db: Kysely<Database>,
  project: { id: string; companyId: string },
  userIds: string[],
): Promise<void> {
  const allowed = await assignableUserIds(db, project, userIds);
  const outsiders = userIds.filter((id) => !allowed.has(id));
  if (outsiders.length) {
    throw invalidField(
      'assigneeIds',
      `assigneeIds holds users who cannot work on this project: ${outsiders.join(', ')}`,
    );
  }
}

const unique = (ids: string[] | undefined) => [...new Set(ids ?? [])];

/** Which fields of the task these changes alter, as audit before/after. */
function taskChanges(task: TaskRecord, changes: TaskChanges & { assigneeIds?: string[] }) {
  const fields = changedFields(task, changes, ['title', 'description', 'referenceId', 'dueDate']);
  const before: Record<string, unknown> = fields.before;
  const after: Record<string, unknown> = fields.after;
  if (changes.assigneeIds !== undefined) {
    const next = [...changes.assigneeIds].sort();
    if (next.join() !== task.assigneeIds.join()) {
      before.assigneeIds = task.assigneeIds;
      after.assigneeIds = next;
    }
  }
  return { before, after, changed: Object.keys(after).length > 0 };
}

/** Tasks, subtasks and comments of a project, and the company-wide task list. */
export default async function projectTasksRoutes(app: FastifyInstance) {
  const { db } = app;

  async function detail(request: FastifyRequest, taskId: string): Promise<TaskDetail> {
    const access = policyProject(request);
    const task = await findTaskDetail(db, access.project.id, taskId);
    if (!task) throw taskNotFound();
    const { id } = await caller(request);
    const assigned = task.assignees.some((a) => a.id === id);
    const open = workIsOpen(access.project);
    return {
      ...task,
      permissions: { edit: open && access.write, changeStatus: open && (access.write || assigned), comment: open },
    };
  }

  // The task form's picker: whoever a task of this project may be given to (staff off the roster stay unlisted).
  route(app, api.listTaskAssigneeCandidates, async (request) => {
    const { project } = policyProject(request);
    return { results: await taskAssigneeCandidates(db, project.id, project.companyId) };
  });

  // The task list's assignee filter: people already shown in the project's task rows, so readers may see them.
  route(app, api.listTaskAssignees, async (request) => {
    const { project } = policyProject(request);
    return { results: await taskAssigneesInUse(db, project.id) };
  });

  route(app, api.listTasks, async (request) => {
    const { project, topLevelTasks } = policyProject(request);
    const { query } = request;
    const window = pageWindow({ ...query, ignorePagination: false });
    const { results, total } = await listProjectTasks(
      db,
      project.id,
      {
        status: query.status,
        assigneeId: query.assigneeId,
        due: query.due,
        search: query.search,
        sort: query.sort,
        limit: query.pageSize,
        offset: window.offset,
      },
      topLevelTasks,
    );
    return window.reply(results, total);
  });

  route(app, api.listCompanyTasks, async (request) => {
    const company = policyCompany(request);
    const { query } = request;
    const after = query.cursor ? decodeTaskCursor(query.cursor) : null;
    if (query.cursor && !after) {
      throw new HttpError(400, 'validation_failed', 'Invalid query parameter: cursor', [
        { field: 'cursor', message: 'cursor is not valid' },
      ]);
    }
    const user = await caller(request);
    const { results, next } = await listCompanyTasks(db, company.id, {
      status: query.status,
      assigneeId: query.assigneeId === 'me' ? user.id : query.assigneeId,
      memberOf: user.isAuditor ? user.id : undefined,
      after,
      limit: query.limit,
    });
    return { results, nextCursor: next ? encodeTaskCursor(next) : null };
  });

  route(app, api.createTask, async (request, reply) => {
    const { project } = policyProject(request);
    const input = request.body;
    const user = await caller(request);
    const assigneeIds = unique(input.assigneeIds);
    const controlIds = unique(input.controlIds);
    const taskId = await settleDuplicate(referenceTaken, () =>
      db.transaction().execute(async (trx) => {
        await lockWorkOf(trx, project.id);
        if (input.parentId && !(await isTopLevelTask(trx, project.id, input.parentId))) {
          // Subtasks are one level deep: a subtask cannot take subtasks of its own.
          throw invalidField('parentId', 'parentId must be a top-level task of this project');
        }
        await checkAssignees(trx, project, assigneeIds);
        const controls = await projectControlIds(trx, project.id, controlIds);
        const strangers = controlIds.filter((id) => !controls.has(id));
        if (strangers.length)
          throw invalidField(
            'controlIds',
            `controlIds holds controls that are not of this project: ${strangers.join(', ')}`,
          );
        const referenceId = input.referenceId ?? null;
        if (referenceId && (await taskReferenceTaken(trx, project.id, referenceId))) throw referenceTaken();
        const id = await insertTask(trx, {
          projectId: project.id,
          companyId: project.companyId,
          parentId: input.parentId ?? null,
          referenceId,
          title: input.title,
          description: input.description ?? null,
          status: input.status,
          dueDate: input.dueDate ?? null,
          createdBy: user.id,
          assigneeIds,
          controlIds,
        });
        await audit(
          request,
          {
            action: 'task.create',
            targetType: 'task',
            targetId: id,
            targetLabel: input.title,
            companyId: project.companyId,
            after: {
              projectId: project.id,
              parentId: input.parentId ?? null,
              referenceId,
              title: input.title,
              status: input.status,
              dueDate: input.dueDate ?? null,
              assigneeIds,
              controlIds,
            },
          },
          trx,
        );
        return id;
      }),
    );
    return reply.code(201).send(await detail(request, taskId));
  });

  route(app, api.getTask, async (request) => detail(request, request.params.taskId));

  route(app, api.updateTask, async (request) => {
    const { project } = policyProject(request);
    const { taskId } = request.params;
    const input = request.body;
    await settleDuplicate(referenceTaken, () =>
      db.transaction().execute(async (trx) => {
        await lockWorkOf(trx, project.id);
        const task = await taskOrThrow(trx, project.id, taskId);
        const assigneeIds = input.assigneeIds === undefined ? undefined : unique(input.assigneeIds);
        if (assigneeIds) {
          // Only newcomers are checked: someone whose access lapsed may stay on work they already hold.
          await checkAssignees(
            trx,
            project,
            assigneeIds.filter((id) => !task.assigneeIds.includes(id)),
          );
        }
        if (input.referenceId && (await taskReferenceTaken(trx, project.id, input.referenceId, task.id)))
          throw referenceTaken();
        const { before, after, changed } = taskChanges(task, { ...input, assigneeIds });
        if (!changed) return;
        await updateTask(trx, task.id, input);
        if (assigneeIds) await setTaskAssignees(trx, task.id, assigneeIds, task.assigneeIds);
        await audit(
          request,
          {
            action: 'task.update',
            targetType: 'task',
            targetId: task.id,
            targetLabel: input.title ?? task.title,
            companyId: project.companyId,
            before,
            after,
          },
          trx,
        );
      }),
    );
    return detail(request, taskId);
  });

  route(app, api.deleteTask, async (request, reply) => {
    const { project } = policyProject(request);
    const { taskId } = request.params;
    await db.transaction().execute(async (trx) => {
      await lockWorkOf(trx, project.id);
      const task = await taskOrThrow(trx, project.id, taskId);
      const subtasks = await subtaskIds(trx, task.id);
      await deleteTask(trx, task.id);
      await audit(
        request,
        {
          action: 'task.delete',
          targetType: 'task',
          targetId: task.id,
          targetLabel: task.title,
          companyId: project.companyId,
          before: {
            projectId: project.id,
            parentId: task.parentId,
            referenceId: task.referenceId,
            title: task.title,
            status: task.status,
            subtaskIds: subtasks,
          },
        },
        trx,
      );
    });
    return reply.code(204).send();
  });

  // Readers reach this route: the assignees of a task move its status without write access.
  route(app, api.changeTaskStatus, async (request) => {
    const access = policyProject(request);
    const { project } = access;
    const { taskId } = request.params;
    const { status } = request.body;
    const user = await caller(request);
    await db.transaction().execute(async (trx) => {
      const task = await taskOrThrow(trx, project.id, taskId);
      if (!access.write && !task.assigneeIds.includes(user.id)) throw new HttpError(403, 'user_can_not_update_project');
      await lockWorkOf(trx, project.id);
      if (status === task.status) return;
      if (!canMoveTask(task.status, status)) throw new HttpError(409, 'invalid_status_transition');
      await setTaskStatus(trx, task.id, status);
      await audit(
        request,
        {
          action: 'task.status',
          targetType: 'task',
          targetId: task.id,
          targetLabel: task.title,
          companyId: project.companyId,
          before: { status: task.status },
          after: { status },
        },
        trx,
      );
    });
    return detail(request, taskId);
  });

  route(app, api.listTaskComments, async (request) => {
    const { project } = policyProject(request);
    const { taskId } = request.params;
    await taskOrThrow(db, project.id, taskId);
    return { results: await listTaskComments(db, taskId) };
  });

  // Anyone who can see the project may comment on its tasks (not while it is canceled).
  route(app, api.createTaskComment, async (request, reply) => {
    const { project } = policyProject(request);
    const { taskId } = request.params;
    const { body } = request.body;
    const user = await caller(request);
    const comment = await db.transaction().execute(async (trx) => {
      await lockWorkOf(trx, project.id);
      const task = await taskOrThrow(trx, project.id, taskId);
      const created = await insertTaskComment(trx, { taskId: task.id, authorId: user.id, body });
      await audit(
        request,
        {
          action: 'task.comment.create',
          targetType: 'task',
          targetId: task.id,
          targetLabel: task.title,
          companyId: project.companyId,
          after: { commentId: created.id, body },
        },
        trx,
      );
      return created;
    });
    return reply.code(201).send(comment);
  });
}
