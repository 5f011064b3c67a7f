/**
 * The status report (issue 9; contract shared/src/core/reports), aggregated in the database: one grouped
 * query for the summary, statuses and projects, one per day series for the progress.
 */
import { sql, type Kysely } from 'kysely';
import { CLOSED_TASK_STATUSES, TASK_STATUSES, type ProjectStatus, type TaskStatus } from '@portal/shared/core/projects';
import {
  REPORT_MAX_PROGRESS_POINTS,
  REPORT_WEEKLY_MAX_DAYS,
  percentOf,
  type StatusReport,
} from '@portal/shared/core/reports';
import type { Database } from '../schema';
import { toCount } from '../values';
import { addDays, countWhere, createdInPeriod, nextDay, scopeProjects, sqlDay, type ReportScope } from './scope';
import { scopeTasks, taskClosed, taskOverdue } from './tasks';

type StatusSections = Omit<StatusReport, 'kind' | 'meta'>;
type Progress = StatusReport['progress'];
type Point = Progress['points'][number];

/** How many tasks of the report fall on a UTC day (YYYY-MM-DD). */
interface DayCount {
  day: string;
  count: number;
}

export async function statusReport(db: Kysely<Database>, scope: ReportScope): Promise<StatusSections> {
  const [projects, counts, created, closed] = await Promise.all([
    scopeProjects(db, scope).execute(),
    countsByProjectAndStatus(db, scope),
    createdPerDay(db, scope),
    closedPerDay(db, scope),
  ]);
  const ofProject = new Map<string, StatusCount[]>();
  for (const c of counts) ofProject.set(c.projectId, [...(ofProject.get(c.projectId) ?? []), c]);
  return {
    totals: figuresOf(counts),
    byStatus: TASK_STATUSES.map((status) => ({
      status,
      count: sum(counts.filter((c) => c.status === status).map((c) => c.count)),
    })),
    byProject: projects.map((p) => ({
      projectId: p.id,
      title: p.title,
      status: p.status as ProjectStatus,
      ...figuresOf(ofProject.get(p.id) ?? []),
    })),
    progress: progressOf(created, closed, scope),
  };
}

/** A (project, status) group of the period's tasks. */
interface StatusCount {
  projectId: string;
  status: string;
  count: number;
  overdue: number;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function figuresOf(counts: StatusCount[]): StatusReport['totals'] {
  const tasks = sum(counts.map((c) => c.count));
  const closed = sum(counts.filter((c) => CLOSED_TASK_STATUSES.includes(c.status as TaskStatus)).map((c) => c.count));
  return {
    tasks,
    open: tasks - closed,
    closed,
    overdue: sum(counts.map((c) => c.overdue)),
    percentClosed: percentOf(closed, tasks),
  };
}

/**
 * The period's tasks per project and status, with their overdue ones: one pass over the tasks gives the
 * summary, the by-status and the by-project tables (at most six small rows per project).
 */
async function countsByProjectAndStatus(db: Kysely<Database>, scope: ReportScope): Promise<StatusCount[]> {
  const rows = await scopeTasks(db, scope)
    .where((eb) => createdInPeriod(eb, 't.created_at', scope))
    .select([
      't.project_id',
      't.status',
      sql<number | string>`count(*)`.as('count'),
      countWhere(taskOverdue(scope.today)).as('overdue'),
    ])
    .groupBy(['t.project_id', 't.status'])
    .execute();
  return rows.map((r) => ({
    projectId: r.project_id,
    status: r.status,
    count: toCount(r.count),
    overdue: toCount(r.overdue),
  }));
}

/** The period's tasks per creation day. */
async function createdPerDay(db: Kysely<Database>, scope: ReportScope): Promise<DayCount[]> {
  const day = sqlDay(scope.dialect, sql.ref('t.created_at'));
  const rows = await scopeTasks(db, scope)
    .where((eb) => createdInPeriod(eb, 't.created_at', scope))
    .select([day.as('day'), sql<number | string>`count(*)`.as('count')])
    .groupBy(day)
    .execute();
  return rows.map((r) => ({ day: r.day, count: toCount(r.count) }));
}

/**
 * The period's closed tasks per closing day: closed_at, stamped by every move to a closed status and
 * cleared by reopening (db/tasks/writes.ts), so later edits of a closed task do not move it.
 */
async function closedPerDay(db: Kysely<Database>, scope: ReportScope): Promise<DayCount[]> {
  const day = sqlDay(scope.dialect, sql.ref('t.closed_at'));
  const rows = await scopeTasks(db, scope)
    .where((eb) => createdInPeriod(eb, 't.created_at', scope))
    .where(taskClosed())
    .where('t.closed_at', 'is not', null)
    .select([day.as('day'), sql<number | string>`count(*)`.as('count')])
    .groupBy(day)
    .execute();
  return rows.map((r) => ({ day: r.day, count: toCount(r.count) }));
}

// ---------------------------------------------------------------------------------------------
// The progress series, bucketed from the per-day counts

const DAY_MS = 86_400_000;

/** Days from `start` to `end`, both included. */
function span(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;
}

const earlier = (a: string, b: string) => (a < b ? a : b);
const later = (a: string, b: string) => (a > b ? a : b);

/** The Sunday ending the Monday-to-Sunday week of `day`. */
function weekEnd(day: string): string {
  return addDays(day, (7 - new Date(`${day}T00:00:00Z`).getUTCDay()) % 7);
}

/** The last day of the calendar month of `day`. */
function monthEnd(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
}

/** The first day (a Monday, a 1st) of the week or month `count - 1` weeks or months before the one of `day`. */
function bucketsBack(bucket: Progress['bucket'], day: string, count: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (bucket === 'week') return addDays(day, -((d.getUTCDay() + 6) % 7) - 7 * (count - 1));
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - (count - 1), 1)).toISOString().slice(0, 10);
}

/**
 * The weeks or months from `start` to `end`, the first and last clipped to them: at most
 * REPORT_MAX_PROGRESS_POINTS, the latest (a start that long ago moves up).
 */
function bucketsOf(bucket: Progress['bucket'], start: string, end: string): { start: string; end: string }[] {
  const lastDayOf = bucket === 'week' ? weekEnd : monthEnd;
  const ranges: { start: string; end: string }[] = [];
  const first = later(start, bucketsBack(bucket, end, REPORT_MAX_PROGRESS_POINTS));
  for (let from = first; from <= end; from = nextDay(ranges[ranges.length - 1].end)) {
    ranges.push({ start: from, end: earlier(lastDayOf(from), end) });
  }
  return ranges;
}

/** Walks day counts in day order: each call takes the days up to `end`, giving those from `start` and the running total. */
function tally(rows: DayCount[]) {
  const sorted = [...rows].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  let next = 0;
  let total = 0;
  return (start: string, end: string) => {
    let inRange = 0;
    for (; next < sorted.length && sorted[next].day <= end; next += 1) {
      total += sorted[next].count;
      if (sorted[next].day >= start) inRange += sorted[next].count;
    }
    return { inRange, total };
  };
}

/**
 * Progress so far: from the first task's day in the period to the earlier of `to` and today (or the
 * last task's day when a caller's today lags the server's UTC day behind a task made since). The days
 * counted are the period's, so the first is never before `from`. Tasks closed after its end are still
 * open at its end.
 */
function progressOf(created: DayCount[], closed: DayCount[], scope: ReportScope): Progress {
  const days = created.map((r) => r.day).sort();
  if (days.length === 0) return { bucket: 'week', points: [] };
  const start = days[0];
  const soFar = later(scope.today, days[days.length - 1]);
  const end = scope.to ? earlier(scope.to, soFar) : soFar;
  const bucket = span(start, end) <= REPORT_WEEKLY_MAX_DAYS ? 'week' : 'month';
  const createdUpTo = tally(created);
  const closedUpTo = tally(closed);
  const points: Point[] = bucketsOf(bucket, start, end).map((range) => {
    const made = createdUpTo(range.start, range.end);
    const done = closedUpTo(range.start, range.end);
    return { ...range, created: made.inRange, closed: done.inRange, open: made.total - done.total };
  });
  return { bucket, points };
}
