import pg from 'pg';
import { pgTimestampToIso, toIso } from './values';

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

describe('pgTimestampToIso', () => {
  const dateParser = pg.types.getTypeParser(1184, 'text') as (text: string) => unknown;
  const read = (text: string) => pgTimestampToIso(text, dateParser);

  it("writes PostgreSQL's UTC text as toISOString does, the fraction cut to milliseconds", () => {
    expect(read('2026-11-23 08:05:01.007123+00')).toBe('2026-11-23T08:05:01.007Z');
    expect(read('2026-11-23 08:05:01.999999+00')).toBe('2026-11-23T08:05:01.999Z');
    expect(read('2026-11-23 08:05:01.5+00')).toBe('2026-11-23T08:05:01.500Z');
    expect(read('2026-11-23 08:05:01.04+00')).toBe('2026-11-23T08:05:01.040Z');
    expect(read('2026-11-23 08:05:01+00')).toBe('2026-11-23T08:05:01.000Z');
  });

  it("gives what pg's own parser and toISOString give, for every length of fraction", () => {
    for (const text of [
      '2001-02-03 04:05:06+00',
      '2001-02-03 04:05:06.7+00',
      '2099-12-31 23:59:59.123+00',
      '1970-01-01 00:00:00.000001+00',
      '2026-06-30 12:00:00.654321+00',
    ]) {
      expect(read(text)).toBe((dateParser(text) as Date).toISOString());
    }
  });

  it('hands any other form to the fallback: another zone as ISO text, what is not a date as the fallback gives it', () => {
    expect(read('2026-11-23 10:05:01.25+02')).toBe('2026-11-23T08:05:01.250Z');
    expect(read('2026-11-23 03:35:01-04:30')).toBe('2026-11-23T08:05:01.000Z');
    expect(read('infinity')).toBe(Infinity);
    expect(read('0044-03-15 12:00:00+00 BC')).toBe((dateParser('0044-03-15 12:00:00+00 BC') as Date).toISOString());
  });
});
