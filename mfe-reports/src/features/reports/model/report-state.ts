/**
 * The reports page's state as it lives in the address (`report`, `project`, `from`, `to`), so a reload
 * or a shared link shows the same report; its translation into the api's query and file paths; the
 * period presets; and the line that says what a report's figures cover.
 */
import { formatDate } from '@portal/shared/core/dates';
import {
  REPORT_KINDS,
  REPORT_USES_PERIOD,
  reportFileName,
  reportQuerySchema,
  type ReportKind,
  type ReportMeta,
  type ReportQuery,
} from '@portal/shared/core/reports';
import { serializeParams } from '@portal/shared/web/api';

/** The page's parameters, in the order the address lists them. */
export const REPORT_PARAMS = ['report', 'project', 'from', 'to'] as const;

export interface ReportsPageState {
  /** The report the address names; null: none or an unknown one (the page shows the caller's first). */
  report: ReportKind | null;
  projectId: string | null;
  /** The period of creation (YYYY-MM-DD, both ends included); null: open-ended. */
  from: string | null;
  to: string | null;
}

const accepted = (query: ReportQuery) => reportQuerySchema.safeParse(query).success;

/**
 * Reads the page's state from the address. What the api would refuse falls back to the default: an
 * unknown report, a project id it cannot take, a day that is not one, a period that ends before it
 * starts or is longer than the api allows (both ends dropped: half of it would be another period).
 */
export function reportsStateFrom(params: URLSearchParams): ReportsPageState {
  const report = params.get('report');
  const project = params.get('project');
  const day = (key: 'from' | 'to') => {
    const value = params.get(key);
    return value && accepted({ [key]: value }) ? value : null;
  };
  let [from, to] = [day('from'), day('to')];
  if (!accepted({ from: from ?? undefined, to: to ?? undefined })) [from, to] = [null, null];
  return {
    report: (REPORT_KINDS as readonly string[]).includes(report ?? '') ? (report as ReportKind) : null,
    projectId: project && accepted({ projectId: project }) ? project : null,
    from,
    to,
  };
}

/** The report shown: the address's when the caller has it, else the first the caller has (null: none). */
export function shownKind(state: ReportsPageState, kinds: readonly ReportKind[]): ReportKind | null {
  return state.report && kinds.includes(state.report) ? state.report : (kinds[0] ?? null);
}

/** The address after `changes`: other parameters are kept, the page's follow in REPORT_PARAMS order, empty ones left out. */
export function withReportsState(prev: URLSearchParams, changes: Partial<ReportsPageState>): URLSearchParams {
  const state = { ...reportsStateFrom(prev), ...changes };
  const next = new URLSearchParams();
  for (const [key, value] of prev) if (!(REPORT_PARAMS as readonly string[]).includes(key)) next.append(key, value);
  const values: [string, string | null][] = [
    ['report', state.report],
    ['project', state.projectId],
    ['from', state.from],
    ['to', state.to],
  ];
  for (const [key, value] of values) if (value) next.append(key, value);
  return next;
}

/** The address for another company: its project goes (it names the old company's); the report and the period hold anywhere. */
export function withoutCompanyFilters(prev: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(prev);
  next.delete('project');
  return next;
}

/** The api's filters for the state, on the caller's day `today` (sent with every call: "overdue" is measured on it). */
export function reportQueryOf(state: ReportsPageState, today: string): ReportQuery {
  return { projectId: state.projectId ?? undefined, from: state.from ?? undefined, to: state.to ?? undefined, today };
}

/**
 * The filters of one report's call: the period only where it applies (REPORT_USES_PERIOD), so a new
 * period does not ask again for an "as of now" report. The files keep it (their heading says it was not
 * applied).
 */
export function reportCallQueryOf(kind: ReportKind, state: ReportsPageState, today: string): ReportQuery {
  const query = reportQueryOf(state, today);
  return REPORT_USES_PERIOD[kind] ? query : { ...query, from: undefined, to: undefined };
}

const companyPath = (companyId: string) => `/companies/${encodeURIComponent(companyId)}/reports`;

/** GET …/reports/:kind/export: the report's tables as a CSV or XLSX file, for the same filters. */
export function exportPath(
  companyId: string,
  kind: ReportKind,
  state: ReportsPageState,
  today: string,
  format: 'csv' | 'xlsx',
): string {
  return `${companyPath(companyId)}/${encodeURIComponent(kind)}/export?${serializeParams({ format, ...reportQueryOf(state, today) })}`;
}

/** GET …/reports/pdf: every report the caller has, for the same filters. */
export function pdfPath(companyId: string, state: ReportsPageState, today: string): string {
  return `${companyPath(companyId)}/pdf?${serializeParams({ ...reportQueryOf(state, today) })}`;
}

/**
 * The file name the api would give, for when its Content-Disposition cannot be read: the names depend
 * only on the company and the day.
 */
export function fallbackFileName(
  kind: ReportKind | 'all',
  company: { id: string; name: string },
  today: string,
  ext: 'csv' | 'xlsx' | 'pdf',
): string {
  const meta: ReportMeta = { company, project: null, from: null, to: null, today, generatedAt: '' };
  return reportFileName(kind, meta, ext);
}

export const PERIOD_PRESETS = [
  { key: 'last30', label: 'Last 30 days' },
  { key: 'last90', label: 'Last 90 days' },
  { key: 'year', label: 'This year' },
  { key: 'all', label: 'All time' },
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number]['key'];

/** `day` moved by `days` (calendar arithmetic on YYYY-MM-DD, no time zone involved). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The period a preset names, ending on `today` (both ends included); "All time" has no ends. */
export function presetPeriod(preset: PeriodPreset, today: string): Pick<ReportsPageState, 'from' | 'to'> {
  switch (preset) {
    case 'last30':
      return { from: addDays(today, -29), to: today };
    case 'last90':
      return { from: addDays(today, -89), to: today };
    case 'year':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    case 'all':
      return { from: null, to: null };
  }
}

/** The preset the state's period is, on `today` (null: a period of the user's own). */
export function activePreset(state: Pick<ReportsPageState, 'from' | 'to'>, today: string): PeriodPreset | null {
  return (
    PERIOD_PRESETS.find(({ key }) => {
      const period = presetPeriod(key, today);
      return period.from === state.from && period.to === state.to;
    })?.key ?? null
  );
}

function periodText(from: string | null, to: string | null): string {
  if (from && to) return `from ${formatDate(from)} to ${formatDate(to)}`;
  if (from) return `since ${formatDate(from)}`;
  if (to) return `up to ${formatDate(to)}`;
  return 'at any time';
}

/**
 * What a report's figures cover, said under its tab: which things, created when, of which projects.
 * `projectTitle`: the chosen project (null: all of them); `requestsIncluded`: the workload counts requests.
 */
export function coverageText(
  kind: ReportKind,
  state: Pick<ReportsPageState, 'from' | 'to'>,
  projectTitle: string | null,
  requestsIncluded: boolean,
): string {
  const projects = projectTitle ?? 'all projects';
  const what: Record<ReportKind, string> = {
    status: 'Tasks',
    requests: 'Requests visible to you',
    controls: 'Controls and their evidence',
    workload: requestsIncluded ? 'Open tasks and active requests by person' : 'Open tasks by person',
  };
  return REPORT_USES_PERIOD[kind]
    ? `${what[kind]} created ${periodText(state.from, state.to)}, ${projects}`
    : `${what[kind]}, ${projects}. As of today; the period does not apply.`;
}
