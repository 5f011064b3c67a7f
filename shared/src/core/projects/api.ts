/**
 * The projects operations (base /api/v1), each described once (see ../contract.ts): the api
 * registers its routes from them and the web infers its calls' types from them. The rules behind
 * the policies and the errors are in index.ts.
 */
import { defineOperation } from '../contract';
import { documentsQuerySchema } from '../files';
import { applyTemplateSchema } from '../practices';
import {
  commentCreateSchema,
  companyTasksQuerySchema,
  controlCreateSchema,
  controlUpdateSchema,
  controlsQuerySchema,
  pointOfFocusSchema,
  pointOfFocusUpdateSchema,
  pointsOfFocusQuerySchema,
  projectCreateSchema,
  projectStatusSchema,
  projectUpdateSchema,
  projectsQuerySchema,
  roleAssignmentQuerySchema,
  roleAssignmentSchema,
  taskCreateSchema,
  taskStatusSchema,
  taskUpdateSchema,
  tasksQuerySchema,
} from './index';
import {
  applicableTrackers,
  applyTemplateResult,
  assignableUsers,
  companyTaskPage,
  controlDetail,
  controlList,
  documentList,
  pointOfFocus,
  pointOfFocusList,
  project,
  projectImportResult,
  projectList,
  projectMembers,
  projectUsers,
  projectsSummary,
  roleAssignment,
  taskComment,
  taskComments,
  taskDetail,
  taskList,
  userProjects,
} from './results';

const PROJECTS = '/api/v1/companies/:id/projects';
const PROJECT = '/api/v1/projects/:id';
const ASSIGNMENTS = '/api/v1/projects/roles/:userId/assignments';
const TASKS = '/api/v1/projects/:id/tasks';
const TASK = '/api/v1/projects/:id/tasks/:taskId';
const CONTROLS = '/api/v1/projects/:id/controls';
const CONTROL = '/api/v1/projects/:id/controls/:controlId';
const POINTS = '/api/v1/projects/:id/points-of-focus';
const POINT = '/api/v1/projects/:id/points-of-focus/:pointId';

const TRACKER_FILE = 'a task tracker file (.csv or .xlsx), at most 20 MB (TASK_TRACKER_MAX_BYTES)';

// ---- Tasks

export const listTaskAssigneeCandidates = defineOperation({
  method: 'GET',
  url: '/api/v1/projects/:id/assignees',
  summary: 'List the users a task of the project may be assigned to',
  tag: 'Tasks',
  policy: { project: 'write' },
  responses: { 200: 'the assignable users' },
  result: projectUsers,
});

export const listTaskAssignees = defineOperation({
  method: 'GET',
  url: '/api/v1/projects/:id/task-assignees',
  summary: "List the users assigned to a project's tasks",
  tag: 'Tasks',
  policy: { project: 'read' },
  responses: { 200: 'the assignees in use' },
  result: projectUsers,
});

export const listTasks = defineOperation({
  method: 'GET',
  url: TASKS,
  summary: "List a project's tasks",
  tag: 'Tasks',
  policy: { project: 'read' },
  query: tasksQuerySchema,
  responses: { 200: 'the page of tasks' },
  result: taskList,
});

export const listCompanyTasks = defineOperation({
  method: 'GET',
  url: '/api/v1/companies/:id/tasks',
  summary: "List the tasks of a company's projects",
  tag: 'Tasks',
  policy: { company: 'member', module: 'projects' },
  query: companyTasksQuerySchema,
  responses: { 200: 'the page of tasks' },
  result: companyTaskPage,
});

export const createTask = defineOperation({
  method: 'POST',
  url: TASKS,
  summary: 'Create a task',
  tag: 'Tasks',
  policy: { project: 'write' },
  body: taskCreateSchema,
  responses: { 201: 'the created task' },
  result: taskDetail,
});

export const getTask = defineOperation({
  method: 'GET',
  url: TASK,
  summary: 'Get a task',
  tag: 'Tasks',
  policy: { project: 'read' },
  responses: { 200: "the task with the caller's permissions on it" },
  result: taskDetail,
});

export const updateTask = defineOperation({
  method: 'PATCH',
  url: TASK,
  summary: 'Update a task',
  tag: 'Tasks',
  policy: { project: 'write' },
  body: taskUpdateSchema,
  responses: { 200: 'the updated task' },
  result: taskDetail,
});

export const deleteTask = defineOperation({
  method: 'DELETE',
  url: TASK,
  summary: 'Delete a task',
  tag: 'Tasks',
  policy: { project: 'write' },
  responses: { 204: 'deleted' },
});

/** Readers reach it: the assignees of a task move its status without write access (else 403). */
export const changeTaskStatus = defineOperation({
  method: 'POST',
  url: `${TASK}/status`,
  summary: "Change a task's status",
  tag: 'Tasks',
  policy: { project: 'read' },
  body: taskStatusSchema,
  responses: { 200: 'the updated task' },
  result: taskDetail,
});

export const listTaskComments = defineOperation({
  method: 'GET',
  url: `${TASK}/comments`,
  summary: "List a task's comments",
  tag: 'Tasks',
  policy: { project: 'read' },
  responses: { 200: 'the comments' },
  result: taskComments,
});

/** Anyone who sees the project may comment on its tasks (not while it is canceled). */
export const createTaskComment = defineOperation({
  method: 'POST',
  url: `${TASK}/comments`,
  summary: 'Comment on a task',
  tag: 'Tasks',
  policy: { project: 'read' },
  body: commentCreateSchema,
  responses: { 201: 'the created comment' },
  result: taskComment,
});

/** All or nothing: a file's problems answer 400 naming its rows, Task IDs the project already has 409. */
export const importTasks = defineOperation({
  method: 'POST',
  url: `${TASKS}/import`,
  summary: 'Import tasks and controls into a project from a task tracker file',
  tag: 'Tasks',
  policy: { project: 'write' },
  form: { files: { file: TRACKER_FILE } },
  responses: { 201: 'the counts of what was imported' },
  result: projectImportResult,
});

// ---- Projects

export const listProjects = defineOperation({
  method: 'GET',
  url: PROJECTS,
  summary: "List a company's projects",
  tag: 'Projects',
  policy: { company: 'member', module: 'projects' },
  query: projectsQuerySchema,
  responses: { 200: 'the page of projects' },
  result: projectList,
});

export const getProjectsSummary = defineOperation({
  method: 'GET',
  url: `${PROJECTS}/summary`,
  summary: "Count a company's projects by status",
  tag: 'Projects',
  policy: { company: 'member', module: 'projects' },
  responses: { 200: 'the projects summary' },
  result: projectsSummary,
});

/** Only staff who manage projects (not auditors) create them (else 403 `user_can_not_update_project`, before the body is read). */
export const createProject = defineOperation({
  method: 'POST',
  url: PROJECTS,
  summary: 'Create a project',
  tag: 'Projects',
  policy: { company: 'member', module: 'projects' },
  body: projectCreateSchema,
  responses: { 201: 'the created project' },
  result: project,
});

export const getProject = defineOperation({
  method: 'GET',
  url: PROJECT,
  summary: 'Get a project',
  tag: 'Projects',
  policy: { project: 'read' },
  responses: { 200: 'the project' },
  result: project,
});

export const updateProject = defineOperation({
  method: 'PATCH',
  url: PROJECT,
  summary: 'Update a project',
  tag: 'Projects',
  policy: { project: 'manage' },
  body: projectUpdateSchema,
  responses: { 200: 'the updated project' },
  result: project,
});

export const changeProjectStatus = defineOperation({
  method: 'POST',
  url: `${PROJECT}/status`,
  summary: "Change a project's status",
  tag: 'Projects',
  policy: { project: 'manage' },
  body: projectStatusSchema,
  responses: { 200: 'the updated project' },
  result: project,
});

// ---- Roster

export const listProjectMembers = defineOperation({
  method: 'GET',
  url: `${PROJECT}/users`,
  summary: "List a project's roster",
  tag: 'Projects',
  policy: { project: 'read' },
  responses: { 200: 'the project members and their roles' },
  result: projectMembers,
});

/**
 * The roster's pickers, for those who may change the roster (staff managing projects, or the
 * project's Client Lead, who is offered the company's users only; else 403).
 */
export const listAssignableUsers = defineOperation({
  method: 'GET',
  url: `${PROJECT}/assignable-users`,
  summary: 'List the users the caller may put on the roster, with the roles they may be given',
  tag: 'Projects',
  policy: { project: 'read' },
  responses: { 200: 'the candidates and their givable roles' },
  result: assignableUsers,
});

/** Self, staff managing projects, or a user sharing a company (others 404); only projects the caller sees. */
export const listUserProjects = defineOperation({
  method: 'GET',
  url: '/api/v1/users/:id/get-projects',
  summary: 'List the projects of a user the caller may see',
  tag: 'Users',
  policy: 'signedIn',
  responses: { 200: "the user's projects" },
  result: userProjects,
});

/** The project of `projectId` must be visible to the caller (else 404 `project_not_found`). */
export const getRoleAssignment = defineOperation({
  method: 'GET',
  url: ASSIGNMENTS,
  summary: "Get a user's role on a project",
  tag: 'Projects',
  policy: 'signedIn',
  query: roleAssignmentQuerySchema,
  responses: { 200: 'the role assignment' },
  result: roleAssignment,
  errors: { 403: "module_access_denied: the projects module is off for the caller in the project's company" },
});

/** The roster rules are in index.ts; the project of `projectId` must be visible to the caller (else 404). */
export const updateRoleAssignment = defineOperation({
  method: 'PATCH',
  url: ASSIGNMENTS,
  summary: "Set or remove a user's role on a project",
  tag: 'Projects',
  policy: 'signedIn',
  body: roleAssignmentSchema,
  responses: { 200: 'the role assignment now' },
  result: roleAssignment,
});

// ---- Task trackers

export const listApplicableTaskTrackers = defineOperation({
  method: 'GET',
  url: `${PROJECT}/task-trackers`,
  summary: "List the task trackers that may be applied to a project (its practice's)",
  tag: 'Projects',
  policy: { project: 'manage' },
  responses: { 200: 'the applicable task trackers' },
  result: applicableTrackers,
});

export const applyTaskTrackers = defineOperation({
  method: 'POST',
  url: `${PROJECT}/task-trackers/apply`,
  summary: "Copy task trackers' tasks and controls into a project",
  tag: 'Projects',
  policy: { project: 'manage' },
  body: applyTemplateSchema,
  responses: { 200: 'the counts of what was copied' },
  result: applyTemplateResult,
});

// ---- Controls

export const listControls = defineOperation({
  method: 'GET',
  url: CONTROLS,
  summary: "List a project's controls",
  tag: 'Controls',
  policy: { project: 'read' },
  query: controlsQuerySchema,
  responses: { 200: 'the page of controls' },
  result: controlList,
});

export const createControl = defineOperation({
  method: 'POST',
  url: CONTROLS,
  summary: 'Create a control',
  tag: 'Controls',
  policy: { project: 'write' },
  body: controlCreateSchema,
  responses: { 201: 'the created control' },
  result: controlDetail,
});

export const getControl = defineOperation({
  method: 'GET',
  url: CONTROL,
  summary: 'Get a control',
  tag: 'Controls',
  policy: { project: 'read' },
  responses: { 200: 'the control' },
  result: controlDetail,
});

export const updateControl = defineOperation({
  method: 'PATCH',
  url: CONTROL,
  summary: 'Update a control',
  tag: 'Controls',
  policy: { project: 'write' },
  body: controlUpdateSchema,
  responses: { 200: 'the updated control' },
  result: controlDetail,
});

export const deleteControl = defineOperation({
  method: 'DELETE',
  url: CONTROL,
  summary: 'Delete a control',
  tag: 'Controls',
  policy: { project: 'write' },
  responses: { 204: 'deleted' },
});

/** Idempotent: only an actual change is recorded. */
export const linkControlTask = defineOperation({
  method: 'PUT',
  url: `${CONTROL}/tasks/:taskId`,
  summary: 'Link a task to a control',
  tag: 'Controls',
  policy: { project: 'write' },
  responses: { 204: 'linked' },
});

/** Idempotent: only an actual change is recorded. */
export const unlinkControlTask = defineOperation({
  method: 'DELETE',
  url: `${CONTROL}/tasks/:taskId`,
  summary: 'Unlink a task from a control',
  tag: 'Controls',
  policy: { project: 'write' },
  responses: { 204: 'unlinked' },
});

// ---- Points of focus

export const listPointsOfFocus = defineOperation({
  method: 'GET',
  url: POINTS,
  summary: "List a project's points of focus",
  tag: 'Controls',
  policy: { project: 'read' },
  query: pointsOfFocusQuerySchema,
  responses: { 200: 'the page of points of focus' },
  result: pointOfFocusList,
});

export const createPointOfFocus = defineOperation({
  method: 'POST',
  url: `${CONTROL}/points-of-focus`,
  summary: 'Add a point of focus to a control',
  tag: 'Controls',
  policy: { project: 'write' },
  body: pointOfFocusSchema,
  responses: { 201: 'the created point of focus' },
  result: pointOfFocus,
});

export const updatePointOfFocus = defineOperation({
  method: 'PATCH',
  url: POINT,
  summary: 'Update a point of focus',
  tag: 'Controls',
  policy: { project: 'write' },
  body: pointOfFocusUpdateSchema,
  responses: { 200: 'the updated point of focus' },
  result: pointOfFocus,
});

export const deletePointOfFocus = defineOperation({
  method: 'DELETE',
  url: POINT,
  summary: 'Delete a point of focus',
  tag: 'Controls',
  policy: { project: 'write' },
  responses: { 204: 'deleted' },
});

// ---- Documents

/** Every file of the company's projects the caller sees (auditors: only their projects'). */
export const listDocuments = defineOperation({
  method: 'GET',
  url: '/api/v1/companies/:id/files',
  summary: "List the files of a company's projects",
  tag: 'Files',
  policy: { company: 'member', module: 'projects' },
  query: documentsQuerySchema,
  responses: { 200: 'the page of documents' },
  result: documentList,
});
