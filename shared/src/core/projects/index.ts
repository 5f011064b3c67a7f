/**
 * Projects (docs/projects.md; issue 5): projects and their lifecycle, tasks with subtasks,
 * comments, controls, points of focus and the project roster. The api validates with these schemas
 * and the web forms use the same ones. Framework-free: the api imports it.
 *
 * The calls (base /api/v1) are described in api.ts, their answers in results.ts. Policies
 * (api/src/plugins/app/policies.ts): `member+projects` is a member of the company of `:id` with the
 * projects module on; `project:read|write|manage` resolves the project of
 * `:id` (404 `project_not_found` unless its company is visible to the caller and, for auditors, they
 * hold a role on it; 403 `module_access_denied` with the module off; write: staff who are not auditors
 * or any holder of a role on the project, else 403 `user_can_not_update_project`; manage: staff who
 * are not auditors, else 403 `user_can_not_update_project`).
 *
 * A canceled project's work is frozen: creating, editing, deleting or moving its tasks, controls and points
 * of focus, linking them, and commenting answer 409 `project_is_canceled` until it is restored to pending.
 * Task assignees are active users: staff who are not auditors, auditors holding a role on the project, or
 * members of the project's company whose access stands (400 naming assigneeIds otherwise). Lead Consultant
 * never goes to an auditor, and a Client Lead never takes a unique role from staff (403
 * `forbidden_role_assignment`). Activation counts a suspended Client Lead or Lead Consultant as missing.
 * Text never holds a NUL character (400 `validation_failed` naming the field or parameter).
 *
 * Errors (catalogue: errors.ts): 409 `project_already_exist` (field title), `client_lead_missing_in_project`,
 * `lead_consultant_missing_in_project`, `project_with_tasks_cannot_be_canceled`,
 * `project_with_files_cannot_be_canceled`, `project_type_cannot_be_switched`,
 * `practices_can_not_be_changed_when_project_has_tasks`, `invalid_status_transition`,
 * `task_reference_id_already_exist_on_project` (field referenceId), `control_name_must_be_unique` (field name),
 * `same_project_lead_and_manager`, `forbidden_role_assignment_for_lead`, `lead_user_can_not_be_revoked`,
 * `project_is_canceled`, `project_role_taken` (two requests gave one unique role at once);
 * 403 `client_cannot_add_user_to_project`, `forbidden_role_assignment`, `user_can_not_update_project`;
 * 404 `project_not_found`, `task_not_found`, `control_not_found`, `point_of_focus_not_found`,
 * `user_not_found`, `user_not_in_project`; 400 `user_is_inactive`, `validation_failed` with `details`.
 */
import { z } from 'zod';
import { hasNoNul, nulMessage, optionalText, pagingShape, requiredText } from '../settings';
import type {
  assignableUser,
  companyTask,
  companyTaskPage,
  control,
  controlDetail,
  controlList,
  pointOfFocus,
  pointOfFocusList,
  project,
  projectList,
  projectMember,
  projectUser,
  projectsSummary,
  roleAssignment,
  task,
  taskComment,
  taskDetail,
  taskList,
  userProject,
} from './results';

// ---------------------------------------------------------------------------------------------
// Project statuses and their machine (README "Project lifecycle")

export const PROJECT_STATUSES = ['pending', 'active', 'on_hold', 'completed', 'canceled'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export const PROJECT_STATUS_LABELS: Record<ProjectStatus, string> = {
  pending: 'Pending',
  active: 'Active',
  on_hold: 'On hold',
  completed: 'Completed',
  canceled: 'Canceled',
};

/**
 * Allowed moves. Entering `active` (from pending or on hold, or reopening a completed project) needs a
 * Client Lead and a Lead Consultant on the roster; entering `canceled` needs a project without tasks and
 * without files. A canceled project can be restored to pending.
 */
export const PROJECT_TRANSITIONS: Record<ProjectStatus, readonly ProjectStatus[]> = {
  pending: ['active', 'canceled'],
  active: ['on_hold', 'completed', 'canceled'],
  on_hold: ['active', 'canceled'],
  completed: ['active'],
  canceled: ['pending'],
};

export function canMoveProject(from: ProjectStatus, to: ProjectStatus): boolean {
  return PROJECT_TRANSITIONS[from].includes(to);
}

/** The kind of engagement. Switching it is allowed only while every task is OPEN or INCOMPLETE. */
export const PROJECT_TYPES = ['Assessment', 'Readiness', 'Audit', 'Penetration Test', 'Advisory'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// Task statuses and their machine

export const TASK_STATUSES = ['OPEN', 'IN_PROGRESS', 'INCOMPLETE', 'IN_REVIEW', 'COMPLETED', 'NOT_APPLICABLE'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_STATUS_LABELS: Record<TaskStatus, string> = {
  OPEN: 'Open',
  IN_PROGRESS: 'In progress',
  INCOMPLETE: 'Incomplete',
  IN_REVIEW: 'In review',
  COMPLETED: 'Completed',
  NOT_APPLICABLE: 'Not applicable',
};

/**
 * Web: the colours of the task statuses (hex: the charts draw them too), so a status reads the same in
 * the task tags, Home's charts and the reports. Dark enough for a tag's text on its own light tint
 * (WCAG AA, 4.5:1).
 */
export const TASK_STATUS_COLORS: Record<TaskStatus, string> = {
  OPEN: '#006d75',
  IN_PROGRESS: '#0958d9',
  INCOMPLETE: '#ad2102',
  IN_REVIEW: '#531dab',
  COMPLETED: '#237804',
  NOT_APPLICABLE: '#595959',
};

/** Statuses in which a project's type may still be switched. */
export const TYPE_SWITCHABLE_TASK_STATUSES: readonly TaskStatus[] = ['OPEN', 'INCOMPLETE'];

/** Done work: not counted as open or overdue. */
export const CLOSED_TASK_STATUSES: readonly TaskStatus[] = ['COMPLETED', 'NOT_APPLICABLE'];

/** Review returns work as INCOMPLETE; closed work can be reopened. */
export const TASK_TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  OPEN: ['IN_PROGRESS', 'IN_REVIEW', 'COMPLETED', 'NOT_APPLICABLE'],
  IN_PROGRESS: ['OPEN', 'IN_REVIEW', 'COMPLETED', 'NOT_APPLICABLE'],
  INCOMPLETE: ['IN_PROGRESS', 'IN_REVIEW', 'NOT_APPLICABLE'],
  IN_REVIEW: ['COMPLETED', 'INCOMPLETE'],
  COMPLETED: ['IN_PROGRESS'],
  NOT_APPLICABLE: ['OPEN'],
};

export function canMoveTask(from: TaskStatus, to: TaskStatus): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}

// ---------------------------------------------------------------------------------------------
// Project roles (docs/projects.md, "Team roster")

export const PROJECT_ROLES = ['Lead Consultant', 'Consultant', 'Project Manager', 'Client Lead'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];
/** Held by one user per project; they move only by being given to someone else. */
export const LEAD_ROLES: readonly ProjectRole[] = ['Lead Consultant', 'Client Lead'];
/** Only staff hold these. */
export const STAFF_ROLES: readonly ProjectRole[] = ['Lead Consultant', 'Consultant'];
/** Only client users hold this. */
export const CLIENT_ROLES: readonly ProjectRole[] = ['Client Lead'];
/** Project Manager goes to staff or clients; one per project. */
export const UNIQUE_ROLES: readonly ProjectRole[] = ['Lead Consultant', 'Client Lead', 'Project Manager'];

// ---------------------------------------------------------------------------------------------
// Shared field schemas

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A date-only value (YYYY-MM-DD) that exists in the calendar; shown as the end of that day. */
export function dayText(field: string) {
  return z
    .string({ error: `${field} must be a date (YYYY-MM-DD)` })
    .regex(ISO_DAY, `${field} must be a date (YYYY-MM-DD)`)
    .refine((v) => {
      const [y, m, d] = v.split('-').map(Number);
      const date = new Date(Date.UTC(y, m - 1, d));
      return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
    }, `${field} is not a day of the calendar`);
}

/** A date-only value, or null to clear it; absent stays undefined (unchanged). */
export function optionalDay(field: string) {
  return dayText(field).nullable().optional();
}

const longText = (field: string, max = 5000) => optionalText(field, max);
const idText = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(100, `${field} is too long`)
    .refine(hasNoNul, nulMessage(field));
/** A free query parameter (an id or a search text): bounded, without NUL characters. */
const queryText = (field: string, max = 100, tooLong = `${field} is too long`) =>
  z.string().max(max, tooLong).refine(hasNoNul, nulMessage(field));
const searchText = () =>
  z.string().trim().max(200, 'search must be at most 200 characters').refine(hasNoNul, nulMessage('search'));

/** `key[]=a&key[]=b`, `key=a&key=b` or one value, as the query parser hands them over. */
export function queryList<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : Array.isArray(v) ? v : [v]),
    z.array(item).max(20).optional(),
  );
}

// ---------------------------------------------------------------------------------------------
// Projects

export const projectCreateSchema = z
  .object({
    title: requiredText('title', 150),
    description: longText('description'),
    type: z.enum(PROJECT_TYPES, { error: `type must be one of ${PROJECT_TYPES.join(', ')}` }).default('Assessment'),
    practiceId: idText('practiceId').nullable().optional(),
    startDate: optionalDay('startDate'),
    dueDate: optionalDay('dueDate'),
    /** A staff user to hold Lead Consultant; defaults to the creator. */
    leadConsultantId: idText('leadConsultantId').optional(),
  })
  .refine((v) => !v.startDate || !v.dueDate || v.startDate <= v.dueDate, {
    message: 'dueDate must not be before startDate',
    path: ['dueDate'],
  });
export type ProjectCreate = z.input<typeof projectCreateSchema>;

export const projectUpdateSchema = z
  .object({
    title: requiredText('title', 150).optional(),
    description: longText('description'),
    type: z.enum(PROJECT_TYPES, { error: `type must be one of ${PROJECT_TYPES.join(', ')}` }).optional(),
    practiceId: idText('practiceId').nullable().optional(),
    startDate: optionalDay('startDate'),
    dueDate: optionalDay('dueDate'),
  })
  .refine((v) => !v.startDate || !v.dueDate || v.startDate <= v.dueDate, {
    message: 'dueDate must not be before startDate',
    path: ['dueDate'],
  });
export type ProjectUpdate = z.input<typeof projectUpdateSchema>;

export const projectStatusSchema = z.object({
  status: z.enum(PROJECT_STATUSES, { error: `status must be one of ${PROJECT_STATUSES.join(', ')}` }),
});

export const projectsQuerySchema = z.object({
  ...pagingShape(10),
  status: queryList(z.enum(PROJECT_STATUSES, { error: `status must be one of ${PROJECT_STATUSES.join(', ')}` })),
  practiceId: queryText('practiceId').optional(),
  search: searchText().optional(),
  sort: z
    .enum([
      'title',
      '-title',
      'status',
      '-status',
      'dueDate',
      '-dueDate',
      'createdAt',
      '-createdAt',
      'progress',
      '-progress',
    ])
    .default('title'),
});
export type ProjectsQuery = z.input<typeof projectsQuerySchema>;

export interface ProjectRef {
  id: string;
  title: string;
}

export type Project = z.output<typeof project>;

export type ProjectList = z.output<typeof projectList>;

export type ProjectsSummary = z.output<typeof projectsSummary>;

// ---------------------------------------------------------------------------------------------
// Roster

export type ProjectUserRef = z.output<typeof projectUser>;

export type ProjectMember = z.output<typeof projectMember>;

export type AssignableUser = z.output<typeof assignableUser>;

export type UserProject = z.output<typeof userProject>;

export type RoleAssignment = z.output<typeof roleAssignment>;

/** PATCH /projects/roles/:userId/assignments: give `role` (null removes the user from the roster). */
export const roleAssignmentSchema = z.object({
  projectId: idText('projectId'),
  role: z.enum(PROJECT_ROLES, { error: `role must be one of ${PROJECT_ROLES.join(', ')} or null` }).nullable(),
});
export type RoleAssignmentInput = z.input<typeof roleAssignmentSchema>;

export const roleAssignmentQuerySchema = z.object({ projectId: idText('projectId') });

// ---------------------------------------------------------------------------------------------
// Tasks

/** A task's own ID within its project (e.g. "CC6.1-01"): unique in the project, or null. */
export const taskReferenceSchema = z
  .string({ error: 'referenceId must be a text' })
  .trim()
  .max(50, 'referenceId must be at most 50 characters')
  .refine(hasNoNul, nulMessage('referenceId'))
  .nullable()
  .optional()
  .transform((v) => (v === undefined ? undefined : v || null));

export const taskCreateSchema = z.object({
  title: requiredText('title', 200),
  description: longText('description'),
  referenceId: taskReferenceSchema,
  /** A top-level task of the same project: the new task is its subtask (one level deep). */
  parentId: idText('parentId').nullable().optional(),
  status: z.enum(TASK_STATUSES, { error: `status must be one of ${TASK_STATUSES.join(', ')}` }).default('OPEN'),
  dueDate: optionalDay('dueDate'),
  assigneeIds: z
    .array(idText('assigneeIds'), { error: 'assigneeIds must be a list of user ids' })
    .max(20, 'assigneeIds may name at most 20 users')
    .optional(),
  controlIds: z
    .array(idText('controlIds'), { error: 'controlIds must be a list of control ids' })
    .max(50, 'controlIds may name at most 50 controls')
    .optional(),
});
export type TaskCreate = z.input<typeof taskCreateSchema>;

/** Status moves go through POST …/status (the machine above); this edits the rest. */
export const taskUpdateSchema = z.object({
  title: requiredText('title', 200).optional(),
  description: longText('description'),
  referenceId: taskReferenceSchema,
  dueDate: optionalDay('dueDate'),
  assigneeIds: z
    .array(idText('assigneeIds'), { error: 'assigneeIds must be a list of user ids' })
    .max(20, 'assigneeIds may name at most 20 users')
    .optional(),
});
export type TaskUpdate = z.input<typeof taskUpdateSchema>;

export const taskStatusSchema = z.object({
  status: z.enum(TASK_STATUSES, { error: `status must be one of ${TASK_STATUSES.join(', ')}` }),
});

export const TASK_DUE_FILTERS = ['overdue', 'week', 'none'] as const;
export type TaskDueFilter = (typeof TASK_DUE_FILTERS)[number];

/**
 * "Due this week", one definition for the `due=week` filter and the dashboard's dueThisWeek: open work
 * due from `today` to six days later, both included (7 days). Date-only values, compared as text.
 */
export function dueWeekRange(today: string): { first: string; last: string } {
  const [y, m, d] = today.split('-').map(Number);
  return { first: today, last: new Date(Date.UTC(y, m - 1, d + 6)).toISOString().slice(0, 10) };
}

export const tasksQuerySchema = z.object({
  ...pagingShape(25),
  status: queryList(z.enum(TASK_STATUSES, { error: `status must be one of ${TASK_STATUSES.join(', ')}` })),
  /** A user id, or `none` for unassigned tasks. */
  assigneeId: queryText('assigneeId').optional(),
  due: z.enum(TASK_DUE_FILTERS, { error: `due must be one of ${TASK_DUE_FILTERS.join(', ')}` }).optional(),
  search: searchText().optional(),
  sort: z
    .enum([
      'referenceId',
      '-referenceId',
      'title',
      '-title',
      'status',
      '-status',
      'dueDate',
      '-dueDate',
      'createdAt',
      '-createdAt',
    ])
    .default('createdAt'),
});
export type TasksQuery = z.input<typeof tasksQuerySchema>;

/** GET /companies/:id/tasks: every task of the company's visible projects, newest first, by keyset. */
export const companyTasksQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(200, 'limit must be at most 200')
    .default(25),
  /** The `nextCursor` of the previous page (opaque). */
  cursor: queryText('cursor', 200, 'cursor is not valid').optional(),
  status: queryList(z.enum(TASK_STATUSES, { error: `status must be one of ${TASK_STATUSES.join(', ')}` })),
  /** A user id, or `me`. */
  assigneeId: queryText('assigneeId').optional(),
});
export type CompanyTasksQuery = z.input<typeof companyTasksQuerySchema>;

export type Task = z.output<typeof task>;

export type TaskList = z.output<typeof taskList>;

export type CompanyTask = z.output<typeof companyTask>;

export type CompanyTaskPage = z.output<typeof companyTaskPage>;

export type TaskDetail = z.output<typeof taskDetail>;

export const commentCreateSchema = z.object({ body: requiredText('body', 5000) });

export type TaskComment = z.output<typeof taskComment>;

// ---------------------------------------------------------------------------------------------
// Controls and points of focus

export const controlCreateSchema = z.object({
  /** The control's ID (e.g. "CC6.1"): unique in the project, ignoring case. */
  name: requiredText('name', 50),
  title: requiredText('title', 200),
  description: longText('description'),
  taskIds: z
    .array(idText('taskIds'), { error: 'taskIds must be a list of task ids' })
    .max(200, 'taskIds may name at most 200 tasks')
    .optional(),
});
export type ControlCreate = z.input<typeof controlCreateSchema>;

export const controlUpdateSchema = z.object({
  name: requiredText('name', 50).optional(),
  title: requiredText('title', 200).optional(),
  description: longText('description'),
});
export type ControlUpdate = z.input<typeof controlUpdateSchema>;

export const controlsQuerySchema = z.object({
  ...pagingShape(25),
  search: searchText().optional(),
  sort: z.enum(['name', '-name', 'title', '-title']).default('name'),
});

export type Control = z.output<typeof control>;

export type ControlList = z.output<typeof controlList>;

export type ControlDetail = z.output<typeof controlDetail>;

export const pointOfFocusSchema = z.object({
  name: requiredText('name', 200),
  description: longText('description'),
});
export type PointOfFocusInput = z.input<typeof pointOfFocusSchema>;

export const pointOfFocusUpdateSchema = z.object({
  name: requiredText('name', 200).optional(),
  description: longText('description'),
});

export const pointsOfFocusQuerySchema = z.object({
  ...pagingShape(25),
  controlId: queryText('controlId').optional(),
  search: searchText().optional(),
});

export type PointOfFocus = z.output<typeof pointOfFocus>;

export type PointOfFocusList = z.output<typeof pointOfFocusList>;

// ---------------------------------------------------------------------------------------------
// The project detail's address: the query is the state.

export const PROJECT_VIEWS = ['tasks', 'files', 'controls', 'pointsOfFocus', 'interviews'] as const;
export type ProjectView = (typeof PROJECT_VIEWS)[number];
export const PROJECT_PAGE_PARAMS = [
  'tasksPage',
  'filesPage',
  'controlsPage',
  'pointsOfFocusPage',
  'interviewsPage',
] as const;

/** Page-number query parameters default to 1. */
export function pageParam(params: URLSearchParams, name: string): number {
  const raw = params.get(name);
  const n = Number(raw);
  return raw !== null && Number.isInteger(n) && n >= 1 ? n : 1;
}

export function projectView(params: URLSearchParams): ProjectView {
  const v = params.get('view');
  return (PROJECT_VIEWS as readonly string[]).includes(v ?? '') ? (v as ProjectView) : 'tasks';
}

/** Whether a date-only due date has passed (it lasts to the end of its day, in the viewer's zone). */
export function isOverdue(dueDate: string | null, status: TaskStatus, now = new Date()): boolean {
  if (!dueDate || CLOSED_TASK_STATUSES.includes(status)) return false;
  const [y, m, d] = dueDate.split('-').map(Number);
  return new Date(y, m - 1, d, 23, 59, 59, 999).getTime() < now.getTime();
}
