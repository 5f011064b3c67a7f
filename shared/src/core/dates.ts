/** How the portal shows dates: M/D/YYYY, h:mmA M/D/YYYY, date-only values as end of day. */

function toDate(value: string | number | Date): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [y, m, d] = value.split('-').map(Number);
    // A date without a time means the whole day: show it as its end, in the browser's zone.
    const endOfDay = new Date(y, m - 1, d, 23, 59, 59, 999);
    // No such day (2026-02-31): Date would roll it over into the next month.
    return endOfDay.getMonth() === m - 1 && endOfDay.getDate() === d ? endOfDay : null;
  }
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  const d = toDate(value);
  if (!d) return '';
  return `${d.getMonth() + 1}/${d.getDate()}/${d.getFullYear()}`;
}

export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  const d = toDate(value);
  if (!d) return '';
  const h = d.getHours();
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  const minutes = String(d.getMinutes()).padStart(2, '0');
  return `${hour12}:${minutes}${h < 12 ? 'AM' : 'PM'} ${formatDate(d)}`;
}
