/**
 * What the practices and task tracker operations answer, as zod schemas (see projects/results.ts;
 * applying a template to a project and importing a file into one answer what projects/results.ts says).
 */
import { z } from 'zod';
import { count, id, timestamp } from '../answers';
import { projectUser } from '../projects/results';
import { PRACTICE_STATUSES, TASK_TRACKER_STATUSES } from './index';

// ---- Practices

export const practiceSummary = z.strictObject({
  id,
  name: z.string(),
  description: z.string(),
  status: z.enum(PRACTICE_STATUSES),
  /** Templates of the practice, by status. */
  templateCount: count,
  publishedTemplateCount: count,
  /** Staff users assigned the practice. */
  staffCount: count,
  /** Projects of the practice. */
  projectCount: count,
  updatedAt: timestamp,
});
export const practiceList = z.strictObject({ results: z.array(practiceSummary) });
export const practiceDetail = practiceSummary.extend({ staff: z.array(projectUser) });

// ---- Task tracker templates

export const taskTrackerSummary = z.strictObject({
  id,
  practiceId: id,
  name: z.string(),
  description: z.string(),
  status: z.enum(TASK_TRACKER_STATUSES),
  /** Top-level tasks and subtasks together. */
  taskCount: count,
  controlCount: count,
  pointOfFocusCount: count,
  createdBy: z.strictObject({ id, firstName: z.string(), lastName: z.string() }).nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const taskTrackerList = z.strictObject({ results: z.array(taskTrackerSummary) });
export const trackerSubtask = z.strictObject({
  id,
  referenceId: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  /** Control IDs (names) the task is linked to. */
  controls: z.array(z.string()),
});
export const trackerTask = trackerSubtask.extend({ subtasks: z.array(trackerSubtask) });
export const trackerControl = z.strictObject({
  id,
  name: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  pointsOfFocus: z.array(z.strictObject({ id, name: z.string(), description: z.string().nullable() })),
});
export const taskTrackerDetail = taskTrackerSummary.extend({
  practice: z.strictObject({ id, name: z.string(), status: z.enum(PRACTICE_STATUSES) }),
  /** Top-level tasks in file order, each with its subtasks. */
  tasks: z.array(trackerTask),
  controls: z.array(trackerControl),
});
export const taskTrackerImportResult = z.strictObject({
  tracker: taskTrackerSummary,
  /** Data rows read (the header not counted). */
  rows: count,
  tasks: count,
  controls: count,
  pointsOfFocus: count,
});
