/**
 * Reports (issue 9): the selected company's project status, requests, controls and team workload, with
 * charts, a table view of the same numbers, CSV and XLSX of each report and a PDF of the whole. The
 * layout is ours (docs/reports.md). Framework-free: the api imports it.
 *
 * Scope. A report covers the company's projects the caller sees (staff and clients: all of them;
 * auditors: the projects they hold a role on), or the one project of `projectId` (404
 * `project_not_found` when it is not one of those). Requests figures count the requests the caller sees
 * (the requests module's own rule, db/request-access.ts), of that project when one is chosen.
 *
 * Period. `from`/`to` (YYYY-MM-DD, both optional: absent means all time) select tasks and requests by the
 * day they were CREATED (UTC): the status and requests reports count what was created in the period.
 * Either end lies from REPORT_EARLIEST_DAY (the schema says so) to REPORT_MAX_DAYS_AHEAD days after
 * `today` (the server checks), else 400 naming the field; both together span at most REPORT_MAX_DAYS.
 * Coverage (controls) and workload are "as of now" and ignore the period (REPORT_USES_PERIOD), which the
 * page and the files say. `today` (optional, YYYY-MM-DD, at most one day from the server's UTC day, else
 * 400) is the caller's day for "overdue"; it defaults to the server's UTC day.
 *
 * Access. Every route needs the reports module on for the caller in the company (policy
 * `{ company: 'member', module: 'reports' }`: 403 `module_access_denied`). The status, controls and
 * workload reports also need the projects module, the requests report the requests module (403
 * `module_access_denied`); the workload report without the requests module leaves the request columns out
 * (`requestsIncluded: false`). GET …/reports/options says which reports the caller has.
 *
 * The calls (base /api/v1, all GET, all under the reports module's policy) are described in api.ts,
 * their answers in results.ts.
 * - A report's file (…/reports/:kind/export, format=csv|xlsx): the report's tables.
 *     CSV: UTF-8 with BOM; the heading block (REPORT_FILE_HEADINGS), then each table of reportTables():
 *     a row with its title, a row with its column titles, its rows, an empty row.
 *     XLSX: a sheet "Report" with the heading block, then one sheet per table (its title, at most 31
 *     characters), numbers as numbers. Text cells are formula-safe in both (a leading apostrophe).
 *     File name: `<kind>-report-<company slug>-<today>.csv|xlsx`.
 * - The PDF (…/reports/pdf): the whole report: the company, the filters, the generation time, then
 *     every report the caller has, each as its tables (and a bar chart of its first table). A table
 *     shows at most REPORT_PDF_MAX_ROWS rows, then a line "… N more rows: see the XLSX". File name
 *     `report-<company slug>-<today>.pdf`.
 * Unknown `:kind` -> 404 `not_found`. Bad filters -> 400 `validation_failed` naming the field.
 *
 * Aggregation happens in the database: one grouped query per section (a section is one table of
 * reportTables or one summary), never loading the rows.
 */
import { z } from 'zod';
import { PROJECT_STATUS_LABELS, TASK_STATUSES, TASK_STATUS_LABELS, dayText } from '../projects';
import { REQUEST_STATUSES, REQUEST_STATUS_LABELS } from '../requests';
import type {
  controlsReport,
  reportMeta,
  reportOptions,
  requestsReport,
  statusReport,
  workloadReport,
} from './results';

export const REPORT_KINDS = ['status', 'requests', 'controls', 'workload'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_LABELS: Record<ReportKind, string> = {
  status: 'Project status',
  requests: 'Requests',
  controls: 'Controls',
  workload: 'Team workload',
};

/** Whether the period filter applies to the report (the others are "as of now"). */
export const REPORT_USES_PERIOD: Record<ReportKind, boolean> = {
  status: true,
  requests: true,
  controls: false,
  workload: false,
};

/** The longest period, in days (both ends included). */
export const REPORT_MAX_DAYS = 3660;

/** A progress series longer than this many days: months instead of weeks. */
export const REPORT_WEEKLY_MAX_DAYS = 120;

/** The earliest day `from` or `to` may name. */
export const REPORT_EARLIEST_DAY = '2000-01-01';

/** `from` or `to` may name a day at most this many days after `today`. */
export const REPORT_MAX_DAYS_AHEAD = 365;

/** The most points of a progress series (the latest ones; a guard: the period's bounds keep it far lower). */
export const REPORT_MAX_PROGRESS_POINTS = 400;

/** The most rows of one table in the PDF: the rest are in the report's XLSX. */
export const REPORT_PDF_MAX_ROWS = 2000;

const hasNoNul = (v: string) => !v.includes('\u0000');

const dayCount = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** A period's end: a calendar day, not before REPORT_EARLIEST_DAY. */
const periodDay = (field: 'from' | 'to') =>
  dayText(field).refine((v) => v >= REPORT_EARLIEST_DAY, `${field} must be on or after ${REPORT_EARLIEST_DAY}`);

const reportFilters = z.object({
  projectId: z
    .string()
    .max(100, 'projectId is too long')
    .refine(hasNoNul, 'projectId must not contain NUL characters')
    .optional(),
  from: periodDay('from').optional(),
  to: periodDay('to').optional(),
  today: dayText('today').optional(),
});

/** An empty projectId: all the projects. */
const emptyProjectIsNone = <Q extends { projectId?: string }>(q: Q): Q => ({
  ...q,
  projectId: q.projectId === '' ? undefined : q.projectId,
});

function checkPeriod(q: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  if (q.from && q.to && q.from > q.to)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be on or after from' });
  else if (q.from && q.to && dayCount(q.from, q.to) > REPORT_MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: `the period must be at most ${REPORT_MAX_DAYS} days` });
}

/** The filters of every report call (query string). */
export const reportQuerySchema = reportFilters.transform(emptyProjectIsNone).superRefine(checkPeriod);
export type ReportQuery = z.input<typeof reportQuerySchema>;
export type ReportFilters = z.output<typeof reportQuerySchema>;

export const reportExportQuerySchema = z
  .object({ format: z.enum(['csv', 'xlsx'], { error: 'format must be csv or xlsx' }) })
  .passthrough();

/** The query of a report's file (…/reports/:kind/export): the filters and the format. */
export const reportFileQuerySchema = reportFilters
  .extend(reportExportQuerySchema.shape)
  .transform(emptyProjectIsNone)
  .superRefine(checkPeriod);

/** The server checks `today` against its own UTC day: at most this many days apart (time zones). */
export const REPORT_TODAY_TOLERANCE_DAYS = 1;

// ---------------------------------------------------------------------------------------------
// Answers (the schemas: results.ts)

export type ReportMeta = z.output<typeof reportMeta>;
export type ReportOptions = z.output<typeof reportOptions>;
export type StatusReport = z.output<typeof statusReport>;

/** Age of an active request: days since it was created (today minus its UTC creation day). */
export const REQUEST_AGE_BUCKETS = [
  { key: 'week', label: '0–7 days', min: 0, max: 7 },
  { key: 'month', label: '8–30 days', min: 8, max: 30 },
  { key: 'quarter', label: '31–90 days', min: 31, max: 90 },
  { key: 'older', label: 'Over 90 days', min: 91, max: null },
] as const;
export type RequestAgeBucket = (typeof REQUEST_AGE_BUCKETS)[number]['key'];

/** Time to accept: days from creation to acceptance (fractional; bucket by `<= max`). */
export const ACCEPT_TIME_BUCKETS = [
  { key: 'day', label: 'Within a day', max: 1 },
  { key: 'week', label: '1–7 days', max: 7 },
  { key: 'month', label: '7–30 days', max: 30 },
  { key: 'longer', label: 'Over 30 days', max: null },
] as const;
export type AcceptTimeBucket = (typeof ACCEPT_TIME_BUCKETS)[number]['key'];

export type RequestsReport = z.output<typeof requestsReport>;
export type ControlsReport = z.output<typeof controlsReport>;
export type WorkloadReport = z.output<typeof workloadReport>;

export type Report = StatusReport | RequestsReport | ControlsReport | WorkloadReport;
export type ReportOf<K extends ReportKind> = Extract<Report, { kind: K }>;

// ---------------------------------------------------------------------------------------------
// Tables: the one rendering of a report's numbers, for the page's table view, the CSV, the XLSX and
// the PDF, so they never disagree.

export interface ReportColumn {
  key: string;
  title: string;
  /** Numbers right-aligned; percent: a 0–100 number shown with %. */
  type: 'text' | 'number' | 'percent';
}

export interface ReportTable {
  /** Stable: `status.byStatus`, … (the web keys its charts by it). */
  key: string;
  title: string;
  columns: ReportColumn[];
  rows: (string | number)[][];
}

const text = (key: string, title: string): ReportColumn => ({ key, title, type: 'text' });
const num = (key: string, title: string): ReportColumn => ({ key, title, type: 'number' });
const pct = (key: string, title: string): ReportColumn => ({ key, title, type: 'percent' });

/** Rounded to one decimal. */
export const oneDecimal = (n: number) => Math.round(n * 10) / 10;
/** part / whole as a 0–100 percentage with one decimal (0 when whole is 0). */
export const percentOf = (part: number, whole: number) => (whole ? oneDecimal((part / whole) * 100) : 0);

export function reportTables(report: Report): ReportTable[] {
  switch (report.kind) {
    case 'status':
      return [
        {
          key: 'status.totals',
          title: 'Summary',
          columns: [
            num('tasks', 'Tasks'),
            num('open', 'Open'),
            num('closed', 'Closed'),
            num('overdue', 'Overdue'),
            pct('percentClosed', 'Closed %'),
          ],
          rows: [
            [
              report.totals.tasks,
              report.totals.open,
              report.totals.closed,
              report.totals.overdue,
              report.totals.percentClosed,
            ],
          ],
        },
        {
          key: 'status.byStatus',
          title: 'Tasks by status',
          columns: [text('status', 'Status'), num('count', 'Tasks')],
          rows: report.byStatus.map((r) => [TASK_STATUS_LABELS[r.status], r.count]),
        },
        {
          key: 'status.progress',
          title: report.progress.bucket === 'week' ? 'Progress by week' : 'Progress by month',
          columns: [
            text('start', 'From'),
            text('end', 'To'),
            num('created', 'Created'),
            num('closed', 'Closed'),
            num('open', 'Open at end'),
          ],
          rows: report.progress.points.map((p) => [p.start, p.end, p.created, p.closed, p.open]),
        },
        {
          key: 'status.byProject',
          title: 'Projects',
          columns: [
            text('title', 'Project'),
            text('status', 'Status'),
            num('tasks', 'Tasks'),
            num('open', 'Open'),
            num('closed', 'Closed'),
            num('overdue', 'Overdue'),
            pct('percentClosed', 'Closed %'),
          ],
          rows: report.byProject.map((p) => [
            p.title,
            PROJECT_STATUS_LABELS[p.status] ?? p.status,
            p.tasks,
            p.open,
            p.closed,
            p.overdue,
            p.percentClosed,
          ]),
        },
      ];
    case 'requests':
      return [
        {
          key: 'requests.totals',
          title: 'Summary',
          columns: [
            num('requests', 'Requests'),
            num('active', 'Active'),
            num('overdue', 'Overdue'),
            num('accepted', 'Accepted'),
            num('reviewed', 'Reviewed'),
            num('returned', 'Returned'),
            pct('returnedRate', 'Returned %'),
            num('averageDaysToAccept', 'Average days to accept'),
          ],
          rows: [
            [
              report.totals.requests,
              report.totals.active,
              report.totals.overdue,
              report.totals.accepted,
              report.totals.reviewed,
              report.totals.returned,
              report.totals.returnedRate === null ? '' : oneDecimal(report.totals.returnedRate * 100),
              report.totals.averageDaysToAccept ?? '',
            ],
          ],
        },
        {
          key: 'requests.byStatus',
          title: 'Requests by status',
          columns: [text('status', 'Status'), num('count', 'Requests')],
          rows: report.byStatus.map((r) => [REQUEST_STATUS_LABELS[r.status], r.count]),
        },
        {
          key: 'requests.openByAge',
          title: 'Active requests by age',
          columns: [text('bucket', 'Age'), num('count', 'Requests')],
          rows: report.openByAge.map((r) => [
            REQUEST_AGE_BUCKETS.find((b) => b.key === r.bucket)?.label ?? r.bucket,
            r.count,
          ]),
        },
        {
          key: 'requests.timeToAccept',
          title: 'Time to accept',
          columns: [text('bucket', 'Accepted'), num('count', 'Requests')],
          rows: report.timeToAccept.map((r) => [
            ACCEPT_TIME_BUCKETS.find((b) => b.key === r.bucket)?.label ?? r.bucket,
            r.count,
          ]),
        },
        {
          key: 'requests.byAssignee',
          title: 'By assignee',
          columns: [
            text('name', 'Assignee'),
            num('active', 'Active'),
            num('overdue', 'Overdue'),
            num('submitted', 'Awaiting review'),
            num('accepted', 'Accepted'),
            num('returned', 'Returned'),
          ],
          rows: report.byAssignee.map((r) => [r.name, r.active, r.overdue, r.submitted, r.accepted, r.returned]),
        },
      ];
    case 'controls':
      return [
        {
          key: 'controls.totals',
          title: 'Coverage',
          columns: [
            num('controls', 'Controls'),
            num('withTasks', 'With tasks'),
            num('withEvidence', 'With evidence'),
            pct('percentCovered', 'Covered %'),
            num('pointsOfFocus', 'Points of focus'),
            num('pointsOfFocusCovered', 'Points of focus covered'),
          ],
          rows: [
            [
              report.totals.controls,
              report.totals.withTasks,
              report.totals.withEvidence,
              report.totals.percentCovered,
              report.totals.pointsOfFocus,
              report.totals.pointsOfFocusCovered,
            ],
          ],
        },
        {
          key: 'controls.byProject',
          title: 'Coverage by project',
          columns: [
            text('title', 'Project'),
            num('controls', 'Controls'),
            num('withTasks', 'With tasks'),
            num('withEvidence', 'With evidence'),
            pct('percentCovered', 'Covered %'),
            num('pointsOfFocus', 'Points of focus'),
            num('pointsOfFocusCovered', 'Points of focus covered'),
          ],
          rows: report.byProject.map((p) => [
            p.title,
            p.controls,
            p.withTasks,
            p.withEvidence,
            p.percentCovered,
            p.pointsOfFocus,
            p.pointsOfFocusCovered,
          ]),
        },
      ];
    case 'workload': {
      const withRequests = report.requestsIncluded;
      const t = report.totals;
      return [
        {
          key: 'workload.totals',
          title: 'Summary',
          columns: [
            num('openTasks', 'Open tasks'),
            num('overdueTasks', 'Overdue tasks'),
            num('unassignedTasks', 'Unassigned tasks'),
            ...(withRequests
              ? [
                  num('activeRequests', 'Active requests'),
                  num('overdueRequests', 'Overdue requests'),
                  num('unassignedRequests', 'Unassigned requests'),
                ]
              : []),
          ],
          rows: [
            [
              t.openTasks,
              t.overdueTasks,
              t.unassignedTasks,
              ...(withRequests ? [t.activeRequests, t.overdueRequests, t.unassignedRequests] : []),
            ],
          ],
        },
        {
          key: 'workload.people',
          title: 'Workload by person',
          columns: [
            text('name', 'Person'),
            text('email', 'Email'),
            num('openTasks', 'Open tasks'),
            num('overdueTasks', 'Overdue tasks'),
            ...(withRequests
              ? [num('activeRequests', 'Active requests'), num('overdueRequests', 'Overdue requests')]
              : []),
            num('total', 'Total'),
          ],
          rows: report.people.map((p) => [
            p.name,
            p.email,
            p.openTasks,
            p.overdueTasks,
            ...(withRequests ? [p.activeRequests, p.overdueRequests] : []),
            p.total,
          ]),
        },
      ];
    }
  }
}

/** The heading block of the files and the PDF: label and value rows. */
export function reportHeadings(kind: ReportKind | 'all', meta: ReportMeta): [string, string][] {
  const period = meta.from || meta.to ? `${meta.from ?? 'the start'} to ${meta.to ?? meta.today}` : 'All time';
  return [
    ['Report', kind === 'all' ? 'Compliance report' : REPORT_LABELS[kind]],
    ['Company', meta.company.name],
    ['Project', meta.project ? meta.project.title : 'All projects'],
    [
      'Created in',
      kind !== 'all' && !REPORT_USES_PERIOD[kind] ? `${period} (not applied: as of ${meta.today})` : period,
    ],
    ['Today', meta.today],
    ['Generated', meta.generatedAt],
  ];
}

/** `Acme Corp` -> `acme-corp`: for file names. */
export function slugOf(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'company'
  );
}

export function reportFileName(kind: ReportKind | 'all', meta: ReportMeta, ext: 'csv' | 'xlsx' | 'pdf'): string {
  return kind === 'all'
    ? `report-${slugOf(meta.company.name)}-${meta.today}.${ext}`
    : `${kind}-report-${slugOf(meta.company.name)}-${meta.today}.${ext}`;
}

export { REQUEST_STATUSES, TASK_STATUSES };
