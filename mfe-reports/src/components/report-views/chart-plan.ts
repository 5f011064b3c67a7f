/**
 * How each table of reportTables() is drawn, keyed by the table's stable key. Every chart is built from
 * the table's own rows, so the chart and the table view can never show different numbers.
 */
import { TASK_STATUSES, TASK_STATUS_COLORS, TASK_STATUS_LABELS } from '@portal/shared/core/projects';
import { REQUEST_STATUSES, REQUEST_STATUS_LABELS } from '@portal/shared/core/requests';
import type { ReportColumn, ReportTable } from '@portal/shared/core/reports';
import { DEFAULT_COLOR, FIGURE_COLORS, REQUEST_STATUS_CHART_COLORS } from './chart-colors';
import { formatDay, formatFigure, type DayBucket } from './report-cells';

/** One row of a table as an object keyed by the column keys (what recharts reads). */
export type Datum = Record<string, string | number>;

export interface Series {
  key: string;
  title: string;
  color: string;
}

export type ChartSpec =
  | { type: 'donut'; slices: { name: string; value: number; fill: string }[] }
  | {
      type: 'bars';
      horizontal: boolean;
      stacked: boolean;
      category: string;
      series: Series[];
      data: Datum[];
      /** Each bar in its category's colour (by the category's text), the legend naming the categories. */
      categoryColors?: Record<string, string>;
    }
  | { type: 'progress'; category: string; days: DayBucket | null; lines: Series[]; area: Series; data: Datum[] };

export interface ChartPlan {
  spec: ChartSpec;
  /** The chart's accessible name: what it shows and, when short enough, its numbers. */
  label: string;
  /** Shown under the chart when it leaves rows out. */
  note?: string;
  /** Nothing to draw: every figure is 0. */
  blank: boolean;
}

/** The charts of people and projects show the largest few; the table lists them all. */
export const CHART_MAX_ROWS = 15;

/** Beyond this many categories the accessible name says what the chart covers instead of every number. */
const LABEL_MAX_ITEMS = 12;

export function recordsOf(table: ReportTable): Datum[] {
  return table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c.key, row[i]])));
}

/** Whether a table is the report's summary (shown as figures above the charts, not charted). */
export const isSummary = (table: ReportTable) => table.key.endsWith('.totals');

const numberOf = (value: string | number | undefined) => (typeof value === 'number' ? value : 0);

/** The series of the given figures that the table has (workload leaves the request columns out). */
function seriesOf(table: ReportTable, keys: string[]): Series[] {
  return keys.flatMap((key) => {
    const column = table.columns.find((c) => c.key === key);
    return column ? [{ key, title: column.title, color: FIGURE_COLORS[key] ?? DEFAULT_COLOR }] : [];
  });
}

const firstOf = (table: ReportTable, type: ReportColumn['type']) => table.columns.find((c) => c.type === type);

function accessibleName(
  kind: string,
  table: ReportTable,
  data: Datum[],
  categoryOf: (d: Datum) => string,
  series: Series[],
): string {
  const head = `${kind}: ${table.title}`;
  if (data.length > LABEL_MAX_ITEMS) return `${head}, ${data.length} rows (the table view lists the numbers)`;
  const items = data.map((d) =>
    series.length === 1
      ? `${categoryOf(d)} ${formatFigure(numberOf(d[series[0].key]))}`
      : `${categoryOf(d)}: ${series.map((s) => `${s.title} ${formatFigure(numberOf(d[s.key]))}`).join(', ')}`,
  );
  return `${head}. ${items.join('; ')}`;
}

const isBlank = (data: Datum[], series: Series[]) => data.every((d) => series.every((s) => numberOf(d[s.key]) === 0));

function donutOfStatuses(table: ReportTable): ChartPlan {
  const data = recordsOf(table);
  const colorOf = (label: string | number) => {
    const status = TASK_STATUSES.find((s) => TASK_STATUS_LABELS[s] === label);
    return status ? TASK_STATUS_COLORS[status] : DEFAULT_COLOR;
  };
  const [value] = seriesOf(table, ['count']);
  return {
    spec: {
      type: 'donut',
      slices: data.map((d) => ({ name: String(d.status), value: numberOf(d.count), fill: colorOf(d.status) })),
    },
    label: accessibleName('Donut chart', table, data, (d) => String(d.status), [value]),
    blank: isBlank(data, [value]),
  };
}

function progressLines(table: ReportTable, days: DayBucket | null): ChartPlan {
  const data = recordsOf(table);
  const lines = seriesOf(table, ['created', 'closed']);
  const [area] = seriesOf(table, ['open']);
  return {
    spec: { type: 'progress', category: 'start', days, lines, area, data },
    label: accessibleName(
      'Line chart',
      table,
      data,
      (d) => (days ? formatDay(String(d.start), days) : String(d.start)),
      [...lines, area],
    ),
    blank: isBlank(data, [...lines, area]),
  };
}

interface BarsOptions {
  category: string;
  figures: string[];
  stacked: boolean;
  /** Bars run left to right, for long names (projects, people). */
  horizontal?: boolean;
  /**
   * At most CHART_MAX_ROWS bars: the rows with the largest sum of `rankBy` (default: the figures). The
   * note says "the 15 <what> of 20; the table lists <all>".
   */
  top?: { what: string; all: string; rankBy?: string[] };
  categoryColors?: Record<string, string>;
}

function bars(
  table: ReportTable,
  { category, figures, stacked, horizontal = false, top, categoryColors }: BarsOptions,
): ChartPlan {
  const all = recordsOf(table);
  const series = seriesOf(table, figures);
  const rankBy = top?.rankBy ?? figures;
  const size = (d: Datum) => rankBy.reduce((n, key) => n + numberOf(d[key]), 0);
  const shown =
    top && all.length > CHART_MAX_ROWS ? [...all].sort((a, b) => size(b) - size(a)).slice(0, CHART_MAX_ROWS) : all;
  // one figure left (workload without requests) is a plain bar chart
  const stacks = stacked && series.length > 1;
  const kind = stacks ? 'Stacked bar chart' : series.length > 1 ? 'Grouped bar chart' : 'Bar chart';
  return {
    spec: {
      type: 'bars',
      horizontal,
      stacked: stacks,
      category,
      series,
      data: shown,
      ...(categoryColors ? { categoryColors } : {}),
    },
    label: accessibleName(kind, table, shown, (d) => String(d[category]), series),
    note:
      top && shown.length < all.length
        ? `The chart shows the ${shown.length} ${top.what} of ${all.length}; the table lists ${top.all}.`
        : undefined,
    blank: isBlank(shown, series),
  };
}

/** Counts by one category (statuses, ages, times): bars of the first number column. */
function simpleBars(table: ReportTable, categoryColors?: Record<string, string>): ChartPlan | null {
  const category = firstOf(table, 'text');
  const value = firstOf(table, 'number');
  return category && value
    ? bars(table, { category: category.key, figures: [value.key], stacked: false, categoryColors })
    : null;
}

/** The request statuses' colours by their labels (the table's category text). */
const REQUEST_STATUS_COLORS_BY_LABEL = Object.fromEntries(
  REQUEST_STATUSES.map((s) => [REQUEST_STATUS_LABELS[s], REQUEST_STATUS_CHART_COLORS[s]]),
);

const PEOPLE = { what: 'busiest', all: 'everyone' };

/**
 * The chart of a table, or null for a table that has none (the summaries are figures, not charts).
 * `days`: the bucket of the report's progress series, which names its days (null: as the api writes them).
 */
export function chartPlanOf(table: ReportTable, days: DayBucket | null = null): ChartPlan | null {
  switch (table.key) {
    case 'status.byStatus':
      return donutOfStatuses(table);
    case 'status.progress':
      return progressLines(table, days);
    // open + closed = the project's tasks: one bar per project, split by state
    case 'status.byProject':
      return bars(table, {
        category: 'title',
        figures: ['open', 'closed'],
        stacked: true,
        horizontal: true,
        top: { what: 'projects with the most tasks', all: 'every project' },
      });
    // with tasks and with evidence overlap without nesting: side by side against the controls
    case 'controls.byProject':
      return bars(table, {
        category: 'title',
        figures: ['controls', 'withTasks', 'withEvidence'],
        stacked: false,
        horizontal: true,
        top: { what: 'projects with the most controls', all: 'every project', rankBy: ['controls'] },
      });
    case 'requests.byStatus':
      return simpleBars(table, REQUEST_STATUS_COLORS_BY_LABEL);
    // active and accepted are distinct statuses: their sum is the person's live and finished work
    case 'requests.byAssignee':
      return bars(table, {
        category: 'name',
        figures: ['active', 'accepted'],
        stacked: true,
        horizontal: true,
        top: PEOPLE,
      });
    // open tasks + active requests = the person's total
    case 'workload.people':
      return bars(table, {
        category: 'name',
        figures: ['openTasks', 'activeRequests'],
        stacked: true,
        horizontal: true,
        top: PEOPLE,
      });
    default:
      return isSummary(table) ? null : simpleBars(table);
  }
}
