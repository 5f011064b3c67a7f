import { toIso } from './values';

describe('toIso', () => {
  it('gives the ISO text of a Date (PostgreSQL)', () => {
    expect(toIso(new Date(Date.UTC(2026, 10, 23, 8, 5, 1, 7)))).toBe('2026-11-23T08:05:01.007Z');
  });

  it('keeps text already in that form (what the api stores in SQLite)', () => {
    expect(toIso('2026-11-23T08:05:01.007Z')).toBe('2026-11-23T08:05:01.007Z');
  });

  it('normalises any other time text to UTC with milliseconds', () => {
    expect(toIso('2026-11-23T10:05:01+02:00')).toBe('2026-11-23T08:05:01.000Z');
    expect(toIso('2026-11-23T08:05:01.5Z')).toBe('2026-11-23T08:05:01.500Z');
  });
});
