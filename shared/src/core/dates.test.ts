import { formatDate, formatDateTime } from './dates';

describe('dates', () => {
  it('formats M/D/YYYY and h:mmA M/D/YYYY in local time', () => {
    expect(formatDate(new Date(2026, 0, 5, 9, 7))).toBe('1/5/2026');
    expect(formatDateTime(new Date(2026, 0, 5, 9, 7))).toBe('9:07AM 1/5/2026');
    expect(formatDateTime(new Date(2026, 11, 31, 0, 30))).toBe('12:30AM 12/31/2026');
    expect(formatDateTime(new Date(2026, 11, 31, 13, 5))).toBe('1:05PM 12/31/2026');
  });
  it('shows a date-only value as the end of that day', () => {
    expect(formatDateTime('2026-03-04')).toBe('11:59PM 3/4/2026');
    expect(formatDate('2026-03-04')).toBe('3/4/2026');
  });
  it('renders nothing for missing or invalid values', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate('2026-02-31')).toBe('');
    expect(formatDateTime('2026-13-01')).toBe('');
  });
});
