/**
 * How the report views write a cell, the same in the table view, the printed tables, the summary
 * figures, the chart tooltips and the charts' accessible names: figures with grouped thousands, percent
 * with %, no value as a dash, the progress days short. The files keep the api's own values.
 */
import type { ReportColumn, StatusReport } from '@portal/shared/core/reports';

/** The span of the progress buckets: a week is named by its first day, a month by its name. */
export type DayBucket = StatusReport['progress']['bucket'];

const figures = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
/** Grouped thousands, one decimal at most. */
export const formatFigure = (value: number) => figures.format(value);

// The api's days are calendar days (YYYY-MM-DD): formatted in UTC, so no time zone moves them.
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayFormats: Record<DayBucket, Intl.DateTimeFormat> = {
  week: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
  month: new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }),
};

/** A progress day as people read it: "Nov 2" in a weekly series, "Jan 2026" in a monthly one. */
export function formatDay(day: string, bucket: DayBucket): string {
  return DAY.test(day) ? dayFormats[bucket].format(new Date(`${day}T00:00:00Z`)) : day;
}

/**
 * A cell as the report shows it; '' (no value, e.g. no request reviewed yet) as a dash. `days`: the
 * table's days (the progress series) are shown short for that bucket.
 */
export function cellText(column: ReportColumn, value: string | number, days: DayBucket | null = null): string {
  if (typeof value !== 'number') {
    if (column.type !== 'text') return value || '—';
    return days ? formatDay(value, days) : value;
  }
  return column.type === 'percent' ? `${formatFigure(value)}%` : formatFigure(value);
}

/** Sorting: text alphabetically (the api's days sort as text), numbers by value with no value first. */
export function compareCells(column: ReportColumn, a: string | number, b: string | number): number {
  if (column.type === 'text') return String(a).localeCompare(String(b));
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return Number(typeof a === 'number') - Number(typeof b === 'number');
}
