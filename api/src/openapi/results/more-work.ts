/** Result schemas (see index.ts) of projects, tasks, controls, files, folders, roster and interviews beyond work.ts. */
import { z } from 'zod';
import { assertSame, count, day, id, page, ref, timestamp, type Same } from './common';
import { controlDetail, fileUser, project, projectFile, projectUser, taskDetail } from './work';
import {
  PROJECT_ROLES,
  type AssignableUser,
  type ControlDetail,
  type PointOfFocus,
  type PointOfFocusList,
  type Project,
  type ProjectMember,
  type ProjectUserRef,
  type RoleAssignment,
  type TaskComment,
  type TaskDetail,
} from '@portal/shared/core/projects';
import type { Folder, ProjectFile, TaskFile } from '@portal/shared/core/files';
import type { ApplicableTracker, ApplyTemplateResult, ProjectImportResult } from '@portal/shared/core/practices';
import type { Interview, InterviewList, InterviewPeople } from '@portal/shared/core/interviews';

// ---------------------------------------------------------------------------------------------
// Roster

const projectMember = projectUser.extend({
  role: z.enum(PROJECT_ROLES),
  isTevora: z.boolean(),
  title: z.string().nullable(),
  status: z.enum(['active', 'suspended']),
});
const projectMembers = z.strictObject({ results: z.array(projectMember) });
const assignableUsers = z.strictObject({
  results: z.array(projectUser.extend({ isTevora: z.boolean(), roles: z.array(z.enum(PROJECT_ROLES)) })),
});
const roleAssignment = z.strictObject({ userId: id, projectId: id, role: z.enum(PROJECT_ROLES).nullable() });
/** The task form's assignee picker and the task list's assignee filter. */
const projectUsers = z.strictObject({ results: z.array(projectUser) });

// ---------------------------------------------------------------------------------------------
// Task trackers: templates applied to a project, files imported into it

const applicableTrackers = z.strictObject({
  results: z.array(
    z.strictObject({
      id,
      name: z.string(),
      description: z.string(),
      practice: ref,
      taskCount: count,
      controlCount: count,
      ofProjectPractice: z.boolean(),
    }),
  ),
});
const importResult = z.strictObject({
  rows: count,
  tasks: count,
  controlsCreated: count,
  controlsLinked: count,
  pointsOfFocus: count,
});
const applyResult = importResult.extend({ practice: ref });

// ---------------------------------------------------------------------------------------------
// Task comments

const taskComment = z.strictObject({
  id,
  taskId: id,
  author: projectUser.nullable(),
  body: z.string(),
  createdAt: timestamp,
});
const taskComments = z.strictObject({ results: z.array(taskComment) });

// ---------------------------------------------------------------------------------------------
// Points of focus

const pointOfFocus = z.strictObject({
  id,
  controlId: id,
  controlName: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: timestamp,
});
const pointOfFocusList = z.strictObject({ results: z.array(pointOfFocus), ...page });

// ---------------------------------------------------------------------------------------------
// Files on tasks and folders

const taskFile = projectFile.extend({ attachedAt: timestamp, attachedBy: fileUser.nullable() });
const taskFiles = z.strictObject({ results: z.array(taskFile) });
const folder = z.strictObject({
  id,
  projectId: id,
  parentId: id.nullable(),
  name: z.string().min(1),
  createdAt: timestamp,
  createdBy: fileUser.nullable(),
});
const folders = z.strictObject({ results: z.array(folder) });

// ---------------------------------------------------------------------------------------------
// Interviews

const interviewPerson = z.strictObject({ id, firstName: z.string(), lastName: z.string(), email: z.string() });
const interview = z.strictObject({
  id,
  projectId: id,
  title: z.string(),
  description: z.string().nullable(),
  location: z.string().nullable(),
  status: z.enum(['scheduled', 'canceled']),
  startsAt: timestamp,
  endsAt: timestamp,
  date: day,
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time HH:mm'),
  timeZone: z.string().min(1),
  durationMinutes: count,
  organizer: interviewPerson.nullable(),
  interviewers: z.array(interviewPerson),
  attendees: z.array(interviewPerson),
  onlineMeetingUrl: z.string().nullable(),
  invitations: z.strictObject({ sent: count, failed: count, pending: count.optional() }).optional(),
  createdAt: timestamp,
  updatedAt: timestamp,
  canceledAt: timestamp.nullable(),
});
const interviewList = z.strictObject({ results: z.array(interview), ...page });
const interviewPeople = z.strictObject({
  organizers: z.array(interviewPerson),
  interviewers: z.array(interviewPerson),
  attendees: z.array(interviewPerson),
});

assertSame<Same<z.output<typeof project>, Project>>();
assertSame<Same<z.output<typeof projectMembers>, { results: ProjectMember[] }>>();
assertSame<Same<z.output<typeof assignableUsers>, { results: AssignableUser[] }>>();
assertSame<Same<z.output<typeof roleAssignment>, RoleAssignment>>();
assertSame<Same<z.output<typeof projectUsers>, { results: ProjectUserRef[] }>>();
assertSame<Same<z.output<typeof applicableTrackers>, { results: ApplicableTracker[] }>>();
assertSame<Same<z.output<typeof importResult>, ProjectImportResult>>();
assertSame<Same<z.output<typeof applyResult>, ApplyTemplateResult>>();
assertSame<Same<z.output<typeof taskDetail>, TaskDetail>>();
assertSame<Same<z.output<typeof taskComment>, TaskComment>>();
assertSame<Same<z.output<typeof taskComments>, { results: TaskComment[] }>>();
assertSame<Same<z.output<typeof controlDetail>, ControlDetail>>();
assertSame<Same<z.output<typeof pointOfFocus>, PointOfFocus>>();
assertSame<Same<z.output<typeof pointOfFocusList>, PointOfFocusList>>();
assertSame<Same<z.output<typeof projectFile>, ProjectFile>>();
assertSame<Same<z.output<typeof taskFile>, TaskFile>>();
assertSame<Same<z.output<typeof taskFiles>, { results: TaskFile[] }>>();
assertSame<Same<z.output<typeof folder>, Folder>>();
assertSame<Same<z.output<typeof folders>, { results: Folder[] }>>();
assertSame<Same<z.output<typeof interview>, Interview>>();
assertSame<Same<z.output<typeof interviewList>, InterviewList>>();
assertSame<Same<z.output<typeof interviewPeople>, InterviewPeople>>();

/**
 * The success bodies of project, roster, task, comment, control, point of focus, file, folder, task
 * tracker and interview operations not in work.ts, by operation. Without one (no JSON body): the 204
 * deletes and link changes, and the interview's calendar.ics.
 */
export const MORE_WORK_RESULTS: Record<string, z.ZodType> = {
  'POST /api/v1/companies/:id/projects': project,
  'PATCH /api/v1/projects/:id': project,
  'POST /api/v1/projects/:id/status': project,
  'GET /api/v1/projects/:id/users': projectMembers,
  'GET /api/v1/projects/:id/assignable-users': assignableUsers,
  'GET /api/v1/projects/roles/:userId/assignments': roleAssignment,
  'PATCH /api/v1/projects/roles/:userId/assignments': roleAssignment,
  'GET /api/v1/projects/:id/task-trackers': applicableTrackers,
  'POST /api/v1/projects/:id/task-trackers/apply': applyResult,
  'GET /api/v1/projects/:id/assignees': projectUsers,
  'GET /api/v1/projects/:id/task-assignees': projectUsers,
  'POST /api/v1/projects/:id/tasks': taskDetail,
  'PATCH /api/v1/projects/:id/tasks/:taskId': taskDetail,
  'POST /api/v1/projects/:id/tasks/:taskId/status': taskDetail,
  'GET /api/v1/projects/:id/tasks/:taskId/comments': taskComments,
  'POST /api/v1/projects/:id/tasks/:taskId/comments': taskComment,
  'POST /api/v1/projects/:id/tasks/import': importResult,
  'POST /api/v1/projects/:id/controls': controlDetail,
  'PATCH /api/v1/projects/:id/controls/:controlId': controlDetail,
  'GET /api/v1/projects/:id/points-of-focus': pointOfFocusList,
  'POST /api/v1/projects/:id/controls/:controlId/points-of-focus': pointOfFocus,
  'PATCH /api/v1/projects/:id/points-of-focus/:pointId': pointOfFocus,
  'POST /api/v1/projects/:id/files': projectFile,
  'PATCH /api/v1/projects/:id/files/:fileId': projectFile,
  'GET /api/v1/projects/:id/tasks/:taskId/files': taskFiles,
  'POST /api/v1/projects/:id/tasks/:taskId/files': taskFile,
  'GET /api/v1/projects/:id/folders': folders,
  'POST /api/v1/projects/:id/folders': folder,
  'PATCH /api/v1/projects/:id/folders/:folderId': folder,
  'GET /api/v1/projects/:id/interviews': interviewList,
  'GET /api/v1/projects/:id/interview-people': interviewPeople,
  'GET /api/v1/projects/:id/interviews/:interviewId': interview,
  'POST /api/v1/projects/:id/interviews': interview,
  'PATCH /api/v1/projects/:id/interviews/:interviewId': interview,
  'POST /api/v1/projects/:id/interviews/:interviewId/cancel': interview,
};
