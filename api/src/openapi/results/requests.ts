/** Result schemas (see index.ts) of requests, practices and task trackers. */
import { z } from 'zod';
import { assertSame, count, id, ref, timestamp, type Same } from './common';
import { projectUser, requestDetail, requestUser } from './work';
import {
  PRACTICE_STATUSES,
  TASK_TRACKER_STATUSES,
  type PracticeDetail,
  type PracticeSummary,
  type TaskTrackerDetail,
  type TaskTrackerImportResult,
  type TaskTrackerSummary,
  type TrackerControl,
  type TrackerTask,
} from '@portal/shared/core/practices';
import {
  REQUEST_ACTIONS,
  REQUEST_EVENT_TYPES,
  REQUEST_STATUSES,
  type RequestAssigneeOptions,
  type RequestBulkResult,
  type RequestComment,
  type RequestEvent,
  type RequestFile,
  type RequestImportResult,
} from '@portal/shared/core/requests';

// ---------------------------------------------------------------------------------------------
// Practices and their task tracker templates

export const practiceSummary = z.strictObject({
  id,
  name: z.string(),
  description: z.string(),
  status: z.enum(PRACTICE_STATUSES),
  templateCount: count,
  publishedTemplateCount: count,
  staffCount: count,
  projectCount: count,
  updatedAt: timestamp,
});
const practiceList = z.strictObject({ results: z.array(practiceSummary) });
export const practiceDetail = practiceSummary.extend({ staff: z.array(projectUser) });

export const taskTrackerSummary = z.strictObject({
  id,
  practiceId: id,
  name: z.string(),
  description: z.string(),
  status: z.enum(TASK_TRACKER_STATUSES),
  taskCount: count,
  controlCount: count,
  pointOfFocusCount: count,
  createdBy: z.strictObject({ id, firstName: z.string(), lastName: z.string() }).nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
const taskTrackerList = z.strictObject({ results: z.array(taskTrackerSummary) });
const trackerSubtask = z.strictObject({
  id,
  referenceId: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  controls: z.array(z.string()),
});
const trackerTask = trackerSubtask.extend({ subtasks: z.array(trackerSubtask) });
const trackerControl = z.strictObject({
  id,
  name: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  pointsOfFocus: z.array(z.strictObject({ id, name: z.string(), description: z.string().nullable() })),
});
export const taskTrackerDetail = taskTrackerSummary.extend({
  practice: z.strictObject({ id, name: z.string(), status: z.enum(PRACTICE_STATUSES) }),
  tasks: z.array(trackerTask),
  controls: z.array(trackerControl),
});
const taskTrackerImportResult = z.strictObject({
  tracker: taskTrackerSummary,
  rows: count,
  tasks: count,
  controls: count,
  pointsOfFocus: count,
});

// ---------------------------------------------------------------------------------------------
// Evidence requests: pickers, bulk and import, history, comments and files

const requestAssigneeOptions = z.strictObject({
  users: z.array(requestUser),
  teams: z.array(ref),
  requesters: z.array(requestUser),
  projects: z.array(z.strictObject({ id, title: z.string() })),
});
const requestBulkResult = z.strictObject({ updated: count });
const requestImportResult = z.strictObject({
  rows: count,
  created: count,
  /** At most the first 100, in file order. */
  references: z.array(z.string().min(1)).max(100),
});

export const requestEvent = z.strictObject({
  id,
  requestId: id,
  type: z.enum(REQUEST_EVENT_TYPES),
  actor: requestUser.nullable(),
  detail: z.strictObject({
    fields: z.array(z.string()).optional(),
    users: z.array(z.string()).optional(),
    teams: z.array(z.string()).optional(),
    from: z.enum(REQUEST_STATUSES).optional(),
    to: z.enum(REQUEST_STATUSES).optional(),
    action: z.enum(REQUEST_ACTIONS).optional(),
    reason: z.string().nullable().optional(),
    name: z.string().optional(),
    internal: z.boolean().optional(),
  }),
  createdAt: timestamp,
});
const requestHistory = z.strictObject({ results: z.array(requestEvent) });

export const requestComment = z.strictObject({
  id,
  requestId: id,
  author: requestUser.nullable(),
  body: z.string(),
  internal: z.boolean(),
  createdAt: timestamp,
});
const requestCommentList = z.strictObject({ results: z.array(requestComment) });

/** An evidence file, as the request's detail lists it. */
export const requestFile = requestDetail.shape.files.element;
const requestFileList = z.strictObject({ results: z.array(requestFile) });

assertSame<Same<z.output<typeof practiceSummary>, PracticeSummary>>();
assertSame<Same<z.output<typeof practiceList>, { results: PracticeSummary[] }>>();
assertSame<Same<z.output<typeof practiceDetail>, PracticeDetail>>();
assertSame<Same<z.output<typeof taskTrackerSummary>, TaskTrackerSummary>>();
assertSame<Same<z.output<typeof taskTrackerList>, { results: TaskTrackerSummary[] }>>();
assertSame<Same<z.output<typeof trackerTask>, TrackerTask>>();
assertSame<Same<z.output<typeof trackerControl>, TrackerControl>>();
assertSame<Same<z.output<typeof taskTrackerDetail>, TaskTrackerDetail>>();
assertSame<Same<z.output<typeof taskTrackerImportResult>, TaskTrackerImportResult>>();
assertSame<Same<z.output<typeof requestAssigneeOptions>, RequestAssigneeOptions>>();
assertSame<Same<z.output<typeof requestBulkResult>, RequestBulkResult>>();
assertSame<Same<z.output<typeof requestImportResult>, RequestImportResult>>();
assertSame<Same<z.output<typeof requestEvent>, RequestEvent>>();
assertSame<Same<z.output<typeof requestHistory>, { results: RequestEvent[] }>>();
assertSame<Same<z.output<typeof requestComment>, RequestComment>>();
assertSame<Same<z.output<typeof requestCommentList>, { results: RequestComment[] }>>();
assertSame<Same<z.output<typeof requestFile>, RequestFile>>();
assertSame<Same<z.output<typeof requestFileList>, { results: RequestFile[] }>>();

/**
 * The success bodies of practices, task trackers and evidence request writes, by operation. Left out
 * (no JSON body): DELETE /task-trackers/:trackerId and DELETE /requests/:id/files/:fileId (204), the
 * file downloads GET /task-trackers/file-template, GET /task-trackers/:trackerId/export,
 * GET /companies/:id/requests/export and GET /companies/:id/requests/file-template.
 */
export const REQUESTS_RESULTS: Record<string, z.ZodType> = {
  'GET /api/v1/practices': practiceList,
  'POST /api/v1/practices': practiceSummary,
  'GET /api/v1/practices/:id': practiceDetail,
  'PATCH /api/v1/practices/:id': practiceSummary,
  'GET /api/v1/practices/:id/task-trackers': taskTrackerList,
  'POST /api/v1/practices/:id/task-trackers': taskTrackerSummary,
  'POST /api/v1/practices/:id/task-trackers/import': taskTrackerImportResult,
  'GET /api/v1/task-trackers/:trackerId': taskTrackerDetail,
  'PATCH /api/v1/task-trackers/:trackerId': taskTrackerSummary,
  'PUT /api/v1/task-trackers/:trackerId/import': taskTrackerImportResult,
  'POST /api/v1/companies/:id/requests': requestDetail,
  'GET /api/v1/companies/:id/requests/assignees': requestAssigneeOptions,
  'POST /api/v1/companies/:id/requests/bulk': requestBulkResult,
  'POST /api/v1/companies/:id/requests/import': requestImportResult,
  'PATCH /api/v1/requests/:id': requestDetail,
  'POST /api/v1/requests/:id/transitions': requestDetail,
  'GET /api/v1/requests/:id/history': requestHistory,
  'GET /api/v1/requests/:id/comments': requestCommentList,
  'POST /api/v1/requests/:id/comments': requestComment,
  'POST /api/v1/requests/:id/files': requestFileList,
};
