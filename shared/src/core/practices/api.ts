/**
 * The practices and task tracker operations (base /api/v1), each described once (see
 * ../contract.ts): the api registers its routes from them and the web infers its calls' types from
 * them. The rules behind the policies and the errors are in index.ts.
 */
import { defineOperation } from '../contract';
import {
  practiceCreateSchema,
  practiceUpdateSchema,
  practicesQuerySchema,
  taskTrackerCreateSchema,
  taskTrackerFileQuerySchema,
  taskTrackerUpdateSchema,
} from './index';
import {
  practiceDetail,
  practiceList,
  practiceSummary,
  taskTrackerDetail,
  taskTrackerImportResult,
  taskTrackerList,
  taskTrackerSummary,
} from './results';

const PRACTICE = '/api/v1/practices/:id';
const TRACKER = '/api/v1/task-trackers/:trackerId';

/** Staff holding the settings permission (not auditors). */
const editPractices = { staff: 'users.editPractices' } as const;

const SPREADSHEET = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];
const TRACKER_FILE = 'a task tracker file (.csv or .xlsx), at most 20 MB (TASK_TRACKER_MAX_BYTES)';

// ---- Practices

/** The staff-user settings page reads id, name, description and status from this list too. */
export const listPractices = defineOperation({
  method: 'GET',
  url: '/api/v1/practices',
  summary: 'List the practices',
  tag: 'Practices',
  policy: 'staff',
  query: practicesQuerySchema,
  responses: { 200: 'the practices' },
  result: practiceList,
});

export const createPractice = defineOperation({
  method: 'POST',
  url: '/api/v1/practices',
  summary: 'Create a practice',
  tag: 'Practices',
  policy: editPractices,
  body: practiceCreateSchema,
  responses: { 201: 'the created practice' },
  result: practiceSummary,
});

export const getPractice = defineOperation({
  method: 'GET',
  url: PRACTICE,
  summary: 'Get a practice',
  tag: 'Practices',
  policy: 'staff',
  responses: { 200: 'the practice' },
  result: practiceDetail,
});

/** `status: 'retired'` retires it (hidden from pickers, kept on projects); `active` restores it. */
export const updatePractice = defineOperation({
  method: 'PATCH',
  url: PRACTICE,
  summary: 'Update a practice',
  tag: 'Practices',
  policy: editPractices,
  body: practiceUpdateSchema,
  responses: { 200: 'the updated practice' },
  result: practiceSummary,
});

// ---- Task tracker templates

export const listTaskTrackers = defineOperation({
  method: 'GET',
  url: `${PRACTICE}/task-trackers`,
  summary: "List a practice's task trackers",
  tag: 'Practices',
  policy: 'staff',
  responses: { 200: 'the task trackers' },
  result: taskTrackerList,
});

/** An empty draft, in an active practice (a retired one: 400 `invalid_practice`). */
export const createTaskTracker = defineOperation({
  method: 'POST',
  url: `${PRACTICE}/task-trackers`,
  summary: 'Create an empty task tracker in a practice',
  tag: 'Practices',
  policy: editPractices,
  body: taskTrackerCreateSchema,
  responses: { 201: 'the created task tracker' },
  result: taskTrackerSummary,
});

/** A new draft made from a file, all or nothing: a file with any bad row leaves nothing behind. */
export const importTaskTracker = defineOperation({
  method: 'POST',
  url: `${PRACTICE}/task-trackers/import`,
  summary: 'Create a task tracker in a practice from a file',
  tag: 'Practices',
  policy: editPractices,
  form: { fields: taskTrackerCreateSchema, files: { file: TRACKER_FILE } },
  responses: { 201: 'the created task tracker and the counts of what was imported' },
  result: taskTrackerImportResult,
});

/** For every signed-in user: project writers import files too. */
export const getTaskTrackerFileTemplate = defineOperation({
  method: 'GET',
  url: '/api/v1/task-trackers/file-template',
  summary: 'Download an empty task tracker file',
  tag: 'Practices',
  policy: 'signedIn',
  query: taskTrackerFileQuerySchema,
  responses: { 200: 'the template file' },
  produces: SPREADSHEET,
});

export const getTaskTracker = defineOperation({
  method: 'GET',
  url: TRACKER,
  summary: 'Get a task tracker with its tasks and controls',
  tag: 'Practices',
  policy: 'staff',
  responses: { 200: 'the task tracker' },
  result: taskTrackerDetail,
});

/** Publishing a template without tasks: 409 `task_tracker_in_wrong_status`. */
export const updateTaskTracker = defineOperation({
  method: 'PATCH',
  url: TRACKER,
  summary: 'Update or publish a task tracker',
  tag: 'Practices',
  policy: editPractices,
  body: taskTrackerUpdateSchema,
  responses: { 200: 'the updated task tracker' },
  result: taskTrackerSummary,
});

/** Projects keep what was applied from it: applying copied the work. */
export const deleteTaskTracker = defineOperation({
  method: 'DELETE',
  url: TRACKER,
  summary: 'Delete a task tracker',
  tag: 'Practices',
  policy: editPractices,
  responses: { 204: 'deleted' },
});

/** A draft's only (published or retired: 409 `task_tracker_in_wrong_status`), all or nothing. */
export const replaceTaskTrackerContent = defineOperation({
  method: 'PUT',
  url: `${TRACKER}/import`,
  summary: "Replace a draft task tracker's content from a file",
  tag: 'Practices',
  policy: editPractices,
  form: { files: { file: TRACKER_FILE } },
  responses: { 200: 'the task tracker and the counts of what was imported' },
  result: taskTrackerImportResult,
});

export const exportTaskTracker = defineOperation({
  method: 'GET',
  url: `${TRACKER}/export`,
  summary: 'Download a task tracker as a file',
  tag: 'Practices',
  policy: 'staff',
  query: taskTrackerFileQuerySchema,
  responses: { 200: 'the task tracker file' },
  produces: SPREADSHEET,
});
