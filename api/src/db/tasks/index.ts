/**
 * Tasks of a project (issue 5): top-level tasks with one level of subtasks, assignees, comments; the
 * repository. By concern: project-list.ts (a project's task list and its page query), company-list.ts
 * (the company-wide keyset list and its cursors), detail.ts (one task, its checks and comments) and
 * writes.ts; internal.ts holds what they share. This file names what the rest of the api may use.
 */
export {
  decodeTaskCursor,
  encodeTaskCursor,
  listCompanyTasks,
  type CompanyTasksQuery,
  type TaskCursor,
} from './company-list';
export {
  assignableUserIds,
  findTask,
  findTaskDetail,
  insertTaskComment,
  isTopLevelTask,
  listTaskComments,
  projectTaskIds,
  taskReferenceTaken,
  tasksByIds,
  type TaskRecord,
} from './detail';
export {
  closedTaskSum,
  listProjectTasks,
  projectPageQuery,
  taskAssigneesInUse,
  type ProjectPageOptions,
  type TaskFilters,
  type TaskListQuery,
  type TaskSort,
} from './project-list';
export {
  deleteTask,
  insertTask,
  setTaskAssignees,
  setTaskStatus,
  subtaskIds,
  updateTask,
  type NewTask,
  type TaskChanges,
} from './writes';
