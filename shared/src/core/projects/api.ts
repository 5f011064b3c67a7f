/**
 * The projects operations (base /api/v1), each described once (see ../contract.ts): the api
 * registers its routes from them and the web infers its calls' types from them. The rules behind
 * the policies and the errors are in index.ts.
 */
import { defineOperation } from '../contract';
import {
  commentCreateSchema,
  companyTasksQuerySchema,
  taskCreateSchema,
  taskStatusSchema,
  taskUpdateSchema,
  tasksQuerySchema,
} from './index';
import { companyTaskPage, projectUsers, taskComment, taskComments, taskDetail, taskList } from './results';

const TASKS = '/api/v1/projects/:id/tasks';
const TASK = '/api/v1/projects/:id/tasks/:taskId';

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
