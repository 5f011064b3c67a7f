/**
 * What the projects operations answer (projects, tasks, controls), as zod schemas: the api
 * serializes its answers with them, the OpenAPI document shows them and the web's types are
 * inferred from them (index.ts).
 */
import { z } from 'zod';
import { count, day, id, page, ref, timestamp } from '../answers';
import { PROJECT_ROLES, PROJECT_STATUSES, PROJECT_TYPES, TASK_STATUSES } from './index';

export const projectUser = z.strictObject({ id, firstName: z.string(), lastName: z.string(), email: z.string() });

export const task = z.strictObject({
  id,
  projectId: id,
  parentId: id.nullable(),
  referenceId: z.string().nullable(),
  title: z.string(),
  status: z.enum(TASK_STATUSES),
  dueDate: day.nullable(),
  overdue: z.boolean(),
  assignees: z.array(projectUser),
  subtaskCount: count,
  subtasksDone: count,
  commentCount: count,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const taskList = z.strictObject({ results: z.array(task), ...page });

export const companyTaskPage = z.strictObject({
  results: z.array(task.extend({ projectTitle: z.string() })),
  nextCursor: z.string().min(1).nullable(),
});

export const taskDetail = task.extend({
  description: z.string().nullable(),
  parent: z.strictObject({ id, title: z.string(), referenceId: z.string().nullable() }).nullable(),
  subtasks: z.array(task),
  controls: z.array(z.strictObject({ id, name: z.string(), title: z.string() })),
  createdBy: projectUser.nullable(),
  completedAt: timestamp.nullable(),
  permissions: z.strictObject({ edit: z.boolean(), changeStatus: z.boolean(), comment: z.boolean() }),
});

export const project = z.strictObject({
  id,
  companyId: id,
  title: z.string(),
  description: z.string().nullable(),
  type: z.enum(PROJECT_TYPES),
  status: z.enum(PROJECT_STATUSES),
  practice: ref.nullable(),
  startDate: day.nullable(),
  dueDate: day.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  tasksTotal: count,
  tasksDone: count,
  tasksOverdue: count,
  leadConsultant: projectUser.nullable(),
  clientLead: projectUser.nullable(),
  permissions: z.strictObject({ manage: z.boolean(), write: z.boolean(), manageRoster: z.boolean() }),
  myRole: z.enum(PROJECT_ROLES).nullable(),
});

export const projectList = z.strictObject({ results: z.array(project), ...page });

export const byStatus = <const K extends readonly [string, ...string[]]>(keys: K) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, count])) as { [P in K[number]]: typeof count });

export const projectsSummary = z.strictObject({
  projectsByStatus: byStatus(PROJECT_STATUSES),
  tasksByStatus: byStatus(TASK_STATUSES),
  overdueByProject: z.array(z.strictObject({ projectId: id, title: z.string(), overdue: count })).max(10),
  overdueTotal: count,
  dueThisWeek: count,
  practices: z.array(ref),
  canCreate: z.boolean(),
});

export const control = z.strictObject({
  id,
  projectId: id,
  name: z.string(),
  title: z.string(),
  taskCount: count,
  tasksDone: count,
  pointOfFocusCount: count,
});

export const controlList = z.strictObject({ results: z.array(control), ...page });

export const controlDetail = control.extend({
  description: z.string().nullable(),
  tasks: z.array(task),
  pointsOfFocus: z.array(
    z.strictObject({
      id,
      controlId: id,
      controlName: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      createdAt: timestamp,
    }),
  ),
  permissions: z.strictObject({ edit: z.boolean() }),
});

/** The task form's assignee picker and the task list's assignee filter. */
export const projectUsers = z.strictObject({ results: z.array(projectUser) });

export const taskComment = z.strictObject({
  id,
  taskId: id,
  author: projectUser.nullable(),
  body: z.string(),
  createdAt: timestamp,
});
export const taskComments = z.strictObject({ results: z.array(taskComment) });
