/**
 * Projects (issue 5; the routes are routes/api/v1/projects.ts): the repository. By concern: list.ts
 * (lists, counts and the dashboard summary), lifecycle.ts (a project's own columns, its creation and
 * status) and roles.ts (project roles and members). This file names what the rest of the api may use.
 */
export {
  activePracticeExists,
  createProject,
  findProjectFields,
  insertProject,
  lockProjectStatus,
  projectHasFiles,
  projectHasTasks,
  projectTitleTaken,
  setProjectStatus,
  updateProjectFields,
  type ProjectFields,
} from './lifecycle';
export {
  listProjects,
  projectsByIds,
  projectsSummary,
  todayUtc,
  type ProjectListQuery,
  type ProjectRecord,
  type ProjectViewer,
} from './list';
export {
  PROJECT_ROLES,
  addProjectMember,
  hasActiveRoleHolder,
  isLead,
  projectRolesOf,
  roleHolder,
  type ProjectRoleRecord,
} from './roles';
