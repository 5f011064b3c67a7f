/** What the report operations answer, as zod schemas (see projects/results.ts). */
import { z } from 'zod';
import { count, day, id, timestamp } from '../answers';
import { PROJECT_STATUSES, TASK_STATUSES } from '../projects';
import { REQUEST_STATUSES } from '../requests';
import { ACCEPT_TIME_BUCKETS, REPORT_KINDS, REQUEST_AGE_BUCKETS } from './index';

/** A 0–100 percentage with one decimal. */
const percent = z.number().min(0).max(100);
const projectRef = z.strictObject({ id, title: z.string() });

/** What every report carries: what it covers, for the page, the files and the PDF. */
export const reportMeta = z.strictObject({
  company: z.strictObject({ id, name: z.string() }),
  /** null: all the projects the caller sees. */
  project: projectRef.nullable(),
  /** The period (null: open-ended). */
  from: day.nullable(),
  to: day.nullable(),
  /** The day "overdue" was measured against. */
  today: day,
  generatedAt: timestamp,
});

/** GET …/reports/options: the reports the caller has and the projects to filter by (title order). */
export const reportOptions = z.strictObject({
  kinds: z.array(z.enum(REPORT_KINDS)),
  projects: z.array(projectRef.extend({ status: z.enum(PROJECT_STATUSES) })),
});

const taskCounts = { tasks: count, open: count, closed: count, overdue: count, percentClosed: percent };

export const statusReport = z.strictObject({
  kind: z.literal('status'),
  meta: reportMeta,
  /** Tasks (subtasks included) of the projects in scope created in the period. */
  totals: z.strictObject(taskCounts),
  /** Every status, in TASK_STATUSES order, zeros included. */
  byStatus: z.array(z.strictObject({ status: z.enum(TASK_STATUSES), count })),
  /** Every project in scope (title order), zeros included. */
  byProject: z.array(
    z.strictObject({ projectId: id, title: z.string(), status: z.enum(PROJECT_STATUSES), ...taskCounts }),
  ),
  /**
   * Progress so far: from the later of `from` and the first task's day to the earlier of `to` and today
   * (no bucket before the first task nor in the future; `today` is stretched to the last task's day when
   * the caller's day lags one made since). Per week (Monday to Sunday, the first and last clipped to the
   * series) when the series spans at most REPORT_WEEKLY_MAX_DAYS days, else per calendar month; at most
   * REPORT_MAX_PROGRESS_POINTS points (the latest). `created` in the bucket; `closed`: tasks whose
   * closing (their move to a closed status, CLOSED_TASK_STATUSES; reopening clears it) falls in the
   * bucket; `open` at its end (created so far minus closed so far, among the tasks of the report). Empty
   * when there are no tasks.
   */
  progress: z.strictObject({
    bucket: z.enum(['week', 'month']),
    points: z.array(z.strictObject({ start: day, end: day, created: count, closed: count, open: count })),
  }),
});

const keysOf = <const T extends readonly { key: string }[]>(buckets: T) =>
  buckets.map((b) => b.key) as unknown as [T[number]['key'], ...T[number]['key'][]];

export const requestsReport = z.strictObject({
  kind: z.literal('requests'),
  meta: reportMeta,
  /**
   * Over the requests in scope created in the period. active: open, submitted or returned; overdue:
   * active with a due day before `today`; reviewed: accepted or returned at least once; returnedRate:
   * returned at least once / reviewed (null when none was reviewed); averageDaysToAccept over the
   * accepted ones (one decimal; null when none).
   */
  totals: z.strictObject({
    requests: count,
    active: count,
    overdue: count,
    accepted: count,
    reviewed: count,
    returned: count,
    returnedRate: z.number().min(0).max(1).nullable(),
    averageDaysToAccept: z.number().min(0).nullable(),
  }),
  /** Every status, in REQUEST_STATUSES order, zeros included. */
  byStatus: z.array(z.strictObject({ status: z.enum(REQUEST_STATUSES), count })),
  /** Active requests by age, every bucket, zeros included. */
  openByAge: z.array(z.strictObject({ bucket: z.enum(keysOf(REQUEST_AGE_BUCKETS)), count })),
  /** Accepted requests by time to accept, every bucket, zeros included. */
  timeToAccept: z.array(z.strictObject({ bucket: z.enum(keysOf(ACCEPT_TIME_BUCKETS)), count })),
  /**
   * Per direct assignee (`userId`; a request with two assignees counts for both; name order), then per
   * assigned team (`teamId`, named "<team> (team)"; a request counts for each of its teams and its
   * people), then one row with both null ("Unassigned": no assignee and no team) when there are such
   * requests. returned: returned at least once.
   */
  byAssignee: z.array(
    z.strictObject({
      userId: id.nullable(),
      teamId: id.nullable(),
      name: z.string(),
      active: count,
      overdue: count,
      submitted: count,
      accepted: count,
      returned: count,
    }),
  ),
});

const coverage = {
  controls: count,
  withTasks: count,
  withEvidence: count,
  pointsOfFocus: count,
  pointsOfFocusCovered: count,
  percentCovered: percent,
};

export const controlsReport = z.strictObject({
  kind: z.literal('controls'),
  meta: reportMeta,
  /**
   * As of now, over the controls of the projects in scope. withTasks: at least one linked task;
   * withEvidence: a linked task has a file, or an accepted request names the control or one of its linked
   * tasks; a point of focus is covered when its control has evidence. percentCovered: withEvidence /
   * controls (0 when none).
   */
  totals: z.strictObject(coverage),
  /** Every project in scope that has controls (title order). */
  byProject: z.array(z.strictObject({ projectId: id, title: z.string(), ...coverage })),
});

export const workloadReport = z.strictObject({
  kind: z.literal('workload'),
  meta: reportMeta,
  /** False when the requests module is off for the caller: request figures are 0 and not shown. */
  requestsIncluded: z.boolean(),
  /**
   * As of now. Open tasks (not closed) of the projects in scope by direct assignee; active requests in
   * scope by direct assignee. One row per person with any (most total work first, then name).
   */
  people: z.array(
    z.strictObject({
      userId: id,
      name: z.string(),
      email: z.string(),
      staff: z.boolean(),
      openTasks: count,
      overdueTasks: count,
      activeRequests: count,
      overdueRequests: count,
      total: count,
    }),
  ),
  totals: z.strictObject({
    openTasks: count,
    overdueTasks: count,
    unassignedTasks: count,
    activeRequests: count,
    overdueRequests: count,
    unassignedRequests: count,
  }),
});

export const report = z.discriminatedUnion('kind', [statusReport, requestsReport, controlsReport, workloadReport]);
