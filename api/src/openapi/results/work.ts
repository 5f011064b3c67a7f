/** Result schemas (see index.ts) of projects, tasks, controls, files and evidence requests. */
import { z } from 'zod';
import { assertSame, count, day, id, page, ref, timestamp, type Same } from './common';
import {
  PROJECT_ROLES,
  PROJECT_STATUSES,
  PROJECT_TYPES,
  TASK_STATUSES,
  type CompanyTaskPage,
  type ControlDetail,
  type ControlList,
  type Project,
  type ProjectList,
  type ProjectsSummary,
  type TaskDetail,
  type TaskList,
} from '@portal/shared/core/projects';
import type { FileDetail, FileList } from '@portal/shared/core/files';
import {
  REQUEST_ACTIONS,
  REQUEST_PRIORITIES,
  REQUEST_STATUSES,
  type RequestDetail,
  type RequestList,
} from '@portal/shared/core/requests';

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
const companyTaskPage = z.strictObject({
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
const projectList = z.strictObject({ results: z.array(project), ...page });
const byStatus = <const K extends readonly [string, ...string[]]>(keys: K) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, count])) as { [P in K[number]]: typeof count });
const projectsSummary = z.strictObject({
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
const controlList = z.strictObject({ results: z.array(control), ...page });
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

export const fileUser = z.strictObject({ id, name: z.string(), email: z.string() });
export const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');
export const projectFile = z.strictObject({
  id,
  projectId: id,
  folderId: id,
  name: z.string().min(1),
  contentType: z.string().min(1),
  size: count,
  sha256,
  version: z.number().int().min(1),
  versionCount: z.number().int().min(1),
  uploadedBy: fileUser.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  taskCount: count,
});
const fileList = z.strictObject({ results: z.array(projectFile), ...page });
export const fileDetail = projectFile.extend({
  versions: z.array(
    z.strictObject({
      id,
      fileId: id,
      version: z.number().int().min(1),
      size: count,
      sha256,
      contentType: z.string().min(1),
      uploadedBy: fileUser.nullable(),
      createdAt: timestamp,
    }),
  ),
  tasks: z.array(z.strictObject({ id, title: z.string(), referenceId: z.string().nullable() })),
});

export const requestUser = projectUser.extend({ isTevora: z.boolean() });
export const requestSummary = z.strictObject({
  id,
  companyId: id,
  reference: z.string().min(1),
  title: z.string(),
  status: z.enum(REQUEST_STATUSES),
  priority: z.enum(REQUEST_PRIORITIES),
  dueDate: day.nullable(),
  overdue: z.boolean(),
  project: z.strictObject({ id, title: z.string() }).nullable(),
  requester: requestUser.nullable(),
  assignees: z.array(requestUser),
  teams: z.array(ref),
  fileCount: count,
  commentCount: count,
  createdAt: timestamp,
  updatedAt: timestamp,
});
const requestList = z.strictObject({ results: z.array(requestSummary), ...page });
export const requestDetail = requestSummary.extend({
  description: z.string().nullable(),
  internalNote: z.string().nullable(),
  task: z.strictObject({ id, referenceId: z.string().nullable(), title: z.string() }).nullable(),
  control: z.strictObject({ id, name: z.string(), title: z.string() }).nullable(),
  returnReason: z.string().nullable(),
  submittedAt: timestamp.nullable(),
  acceptedAt: timestamp.nullable(),
  canceledAt: timestamp.nullable(),
  files: z.array(
    z.strictObject({
      id,
      requestId: id,
      name: z.string().min(1),
      contentType: z.string().min(1),
      size: count,
      uploadedBy: requestUser.nullable(),
      createdAt: timestamp,
      canDelete: z.boolean(),
    }),
  ),
  permissions: z.strictObject({
    manage: z.boolean(),
    respond: z.boolean(),
    actions: z.array(z.enum(REQUEST_ACTIONS)),
    uploadEvidence: z.boolean(),
    commentInternal: z.boolean(),
  }),
});

assertSame<Same<z.output<typeof taskList>, TaskList>>();
assertSame<Same<z.output<typeof companyTaskPage>, CompanyTaskPage>>();
assertSame<Same<z.output<typeof taskDetail>, TaskDetail>>();
assertSame<Same<z.output<typeof project>, Project>>();
assertSame<Same<z.output<typeof projectList>, ProjectList>>();
assertSame<Same<z.output<typeof projectsSummary>, ProjectsSummary>>();
assertSame<Same<z.output<typeof controlList>, ControlList>>();
assertSame<Same<z.output<typeof controlDetail>, ControlDetail>>();
assertSame<Same<z.output<typeof fileList>, FileList>>();
assertSame<Same<z.output<typeof fileDetail>, FileDetail>>();
assertSame<Same<z.output<typeof requestList>, RequestList>>();
assertSame<Same<z.output<typeof requestDetail>, RequestDetail>>();

/** The success bodies of projects, tasks, controls, files and evidence requests, by operation. */
export const WORK_RESULTS: Record<string, z.ZodType> = {
  'GET /api/v1/projects/:id/tasks': taskList,
  'GET /api/v1/companies/:id/tasks': companyTaskPage,
  'GET /api/v1/projects/:id/tasks/:taskId': taskDetail,
  'GET /api/v1/companies/:id/projects': projectList,
  'GET /api/v1/companies/:id/projects/summary': projectsSummary,
  'GET /api/v1/projects/:id': project,
  'GET /api/v1/projects/:id/controls': controlList,
  'GET /api/v1/projects/:id/controls/:controlId': controlDetail,
  'GET /api/v1/projects/:id/files': fileList,
  'GET /api/v1/projects/:id/files/:fileId': fileDetail,
  'GET /api/v1/companies/:id/requests': requestList,
  'GET /api/v1/requests/:id': requestDetail,
};
