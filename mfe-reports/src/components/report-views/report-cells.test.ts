import type { ReportColumn } from '@portal/shared/core/reports';
import { cellText, compareCells, formatDay } from './report-cells';

const text: ReportColumn = { key: 'name', title: 'Name', type: 'text' };
const number: ReportColumn = { key: 'count', title: 'Count', type: 'number' };
const percent: ReportColumn = { key: 'rate', title: 'Rate', type: 'percent' };

describe('report cells', () => {
  it('write figures with grouped thousands, percent with %, no value as a dash', () => {
    expect(cellText(number, 1234567)).toBe('1,234,567');
    expect(cellText(number, 4.25)).toBe('4.3');
    expect(cellText(percent, 37.5)).toBe('37.5%');
    expect(cellText(percent, '')).toBe('—');
    expect(cellText(text, 'Ada')).toBe('Ada');
  });

  it('name the progress days by week or month, and leave other text alone', () => {
    expect(formatDay('2026-11-02', 'week')).toBe('Nov 2');
    expect(formatDay('2026-01-01', 'month')).toBe('Jan 2026');
    expect(formatDay('2025-12-31', 'month')).toBe('Dec 2025');
    expect(cellText(text, '2026-11-02', 'week')).toBe('Nov 2');
    expect(cellText(text, '2026-11-02')).toBe('2026-11-02');
    expect(cellText(text, 'Ada', 'month')).toBe('Ada');
  });

  it('sort numbers by value with no value first, and two cells without a value as equal', () => {
    expect([3, '', 1, '', 2].sort((a, b) => compareCells(number, a, b))).toEqual(['', '', 1, 2, 3]);
    expect(compareCells(number, '', '')).toBe(0);
    expect(compareCells(number, '', 0)).toBeLessThan(0);
    expect(compareCells(number, 0, '')).toBeGreaterThan(0);
    expect(compareCells(text, '2026-11-09', '2026-11-16')).toBeLessThan(0);
  });
});
