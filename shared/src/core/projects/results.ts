/**
 * What the projects operations answer (projects, roster, tasks, controls, points of focus, task
 * trackers applied or imported, the company's documents), as zod schemas: the api
 * serializes its answers with them, the OpenAPI document shows them and the web's types are
 * inferred from them (index.ts).
 */
import { z } from 'zod';
import { count, day, id, page, ref, timestamp } from '../answers';
import { projectFile } from '../files/results';
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

export const companyTask = task.extend({ projectTitle: z.string() });

export const companyTaskPage = z.strictObject({
  results: z.array(companyTask),
  /** null on the last page. */
  nextCursor: z.string().min(1).nullable(),
});

export const taskDetail = task.extend({
  description: z.string().nullable(),
  parent: z.strictObject({ id, title: z.string(), referenceId: z.string().nullable() }).nullable(),
  subtasks: z.array(task),
  controls: z.array(z.strictObject({ id, name: z.string(), title: z.string() })),
  createdBy: projectUser.nullable(),
  completedAt: timestamp.nullable(),
  /** What the caller may do here (nothing while the project is canceled). */
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
  /** Counts over all tasks (subtasks included). */
  tasksTotal: count,
  tasksDone: count,
  tasksOverdue: count,
  leadConsultant: projectUser.nullable(),
  clientLead: projectUser.nullable(),
  /** What the caller may do (the server enforces it the same way); `write` is false while the project is canceled. */
  permissions: z.strictObject({ manage: z.boolean(), write: z.boolean(), manageRoster: z.boolean() }),
  /** The caller's role on the project, if any. */
  myRole: z.enum(PROJECT_ROLES).nullable(),
});

export const projectList = z.strictObject({ results: z.array(project), ...page });

export const byStatus = <const K extends readonly [string, ...string[]]>(keys: K) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, count])) as { [P in K[number]]: typeof count });

export const projectsSummary = z.strictObject({
  projectsByStatus: byStatus(PROJECT_STATUSES),
  tasksByStatus: byStatus(TASK_STATUSES),
  /** Open tasks past their due date, per project (most first, at most 10). */
  overdueByProject: z.array(z.strictObject({ projectId: id, title: z.string(), overdue: count })).max(10),
  overdueTotal: count,
  /** Open tasks due this week (dueWeekRange: today and the 6 days after). */
  dueThisWeek: count,
  /** The practices of the company's projects (the dashboard's practice filter; /practices is staff-only). */
  practices: z.array(ref),
  /** Whether the caller may create projects here. */
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

export const pointOfFocus = z.strictObject({
  id,
  controlId: id,
  controlName: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: timestamp,
});

export const pointOfFocusList = z.strictObject({ results: z.array(pointOfFocus), ...page });

export const controlDetail = control.extend({
  description: z.string().nullable(),
  tasks: z.array(task),
  pointsOfFocus: z.array(pointOfFocus),
  /** False while the project is canceled. */
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

// ---- Roster

export const projectMember = projectUser.extend({
  role: z.enum(PROJECT_ROLES),
  isTevora: z.boolean(),
  title: z.string().nullable(),
  status: z.enum(['active', 'suspended']),
});
export const projectMembers = z.strictObject({ results: z.array(projectMember) });

export const assignableUser = projectUser.extend({
  isTevora: z.boolean(),
  /** Roles the caller could give this user (the server checks again). */
  roles: z.array(z.enum(PROJECT_ROLES)),
});
export const assignableUsers = z.strictObject({ results: z.array(assignableUser) });

export const roleAssignment = z.strictObject({ userId: id, projectId: id, role: z.enum(PROJECT_ROLES).nullable() });

export const userProject = z.strictObject({
  projectId: id,
  title: z.string(),
  companyId: id,
  companyName: z.string(),
  status: z.enum(PROJECT_STATUSES),
  role: z.enum(PROJECT_ROLES),
});
export const userProjects = z.strictObject({ results: z.array(userProject) });

// ---- Task trackers: templates applied to a project, files imported into it

export const applicableTrackers = z.strictObject({
  results: z.array(
    z.strictObject({
      id,
      name: z.string(),
      description: z.string(),
      practice: ref,
      taskCount: count,
      controlCount: count,
      /** The template is of the project's practice. */
      ofProjectPractice: z.boolean(),
    }),
  ),
});

export const projectImportResult = z.strictObject({
  /** Data rows read (the header not counted). */
  rows: count,
  /** Tasks and subtasks created. */
  tasks: count,
  /** Controls created, and existing controls the tasks were linked to. */
  controlsCreated: count,
  controlsLinked: count,
  pointsOfFocus: count,
});

export const applyTemplateResult = projectImportResult.extend({ practice: ref });

// ---- Documents: every file of the company's projects

export const documentList = z.strictObject({
  results: z.array(
    projectFile.extend({
      project: z.strictObject({ id, title: z.string() }),
      /** Folder names from the root's child down, joined by ' / ' ('' for the root). */
      folderPath: z.string(),
    }),
  ),
  ...page,
});
