import {
  canonicalTimeZone,
  checkInterviewTime,
  INTERVIEW_MAX_DAYS_AHEAD,
  interviewUpdateSchema,
  zonedToInstant,
} from './interviews';

const DAY = 86_400_000;
const MINUTE = 60_000;

describe('checkInterviewTime', () => {
  // Wednesday 2026-09-16 14:00 UTC (10:00 in New York).
  const now = Date.UTC(2026, 8, 16, 14, 0);

  it('accepts a start exactly 62 days ahead and refuses one a minute later', () => {
    const edge = now + INTERVIEW_MAX_DAYS_AHEAD * DAY;
    // 2026-11-17 14:00 UTC is a Tuesday, 14:00 in London (no summer time by then).
    expect(checkInterviewTime({ date: '2026-11-17', time: '14:00', timeZone: 'Europe/London' }, now)).toEqual({
      problem: null,
      instant: edge,
      timeZone: 'Europe/London',
    });
    expect(checkInterviewTime({ date: '2026-11-17', time: '14:01', timeZone: 'Europe/London' }, now).problem).toEqual({
      code: 'max_interval_exceeded',
      field: 'date',
    });
    // 63 days ahead (a Wednesday): refused.
    expect(checkInterviewTime({ date: '2026-11-18', time: '09:00', timeZone: 'Europe/London' }, now).problem).toEqual({
      code: 'max_interval_exceeded',
      field: 'date',
    });
  });

  it('refuses a start a minute in the past, accepts one now', () => {
    expect(
      checkInterviewTime({ date: '2026-09-16', time: '09:59', timeZone: 'America/New_York' }, now).problem,
    ).toEqual({ code: 'interview_date_time_is_in_the_past', field: 'time' });
    expect(checkInterviewTime({ date: '2026-09-16', time: '10:00', timeZone: 'America/New_York' }, now)).toEqual({
      problem: null,
      instant: now,
      timeZone: 'America/New_York',
    });
  });

  it('refuses a time skipped when the clocks go forward (DST gap in America/New_York)', () => {
    // 2027-03-14 (a Sunday) 02:30 does not exist; the Monday after is fine. A fixed `now` close to it.
    const march = Date.UTC(2027, 2, 1, 12);
    expect(zonedToInstant('2027-03-14', '02:30', 'America/New_York')).toBeNull();
    const gap = checkInterviewTime({ date: '2027-03-14', time: '02:30', timeZone: 'America/New_York' }, march);
    expect(gap.problem).toMatchObject({ code: 'invalid_meeting_argument', field: 'time' });
    // After the change New York is UTC-4.
    expect(checkInterviewTime({ date: '2027-03-15', time: '02:30', timeZone: 'America/New_York' }, march)).toEqual({
      problem: null,
      instant: Date.UTC(2027, 2, 15, 6, 30),
      timeZone: 'America/New_York',
    });
  });

  it('takes the weekday in the interview zone, not in UTC', () => {
    // Friday 22:00 in Los Angeles is Saturday 05:00 UTC: accepted.
    const friday = checkInterviewTime({ date: '2026-09-18', time: '22:00', timeZone: 'America/Los_Angeles' }, now);
    expect(friday).toEqual({ problem: null, instant: Date.UTC(2026, 8, 19, 5, 0), timeZone: 'America/Los_Angeles' });
    expect(new Date(friday.instant!).getUTCDay()).toBe(6);
    // Saturday 08:00 in Tokyo is Friday 23:00 UTC: refused.
    const saturday = checkInterviewTime({ date: '2026-09-19', time: '08:00', timeZone: 'Asia/Tokyo' }, now);
    expect(saturday.problem).toEqual({ code: 'interview_day_is_invalid', field: 'date' });
    expect(new Date(zonedToInstant('2026-09-19', '08:00', 'Asia/Tokyo')!).getUTCDay()).toBe(5);
  });

  it.each([undefined, null, '', '   '])('answers no_timezone to the zone %p', (timeZone) => {
    expect(checkInterviewTime({ date: '2026-09-18', time: '10:00', timeZone }, now).problem).toEqual({
      code: 'no_timezone',
      field: 'timeZone',
    });
  });

  it('answers invalid_meeting_argument naming timeZone to an unknown zone', () => {
    expect(
      checkInterviewTime({ date: '2026-09-18', time: '10:00', timeZone: 'Mars/Olympus_Mons' }, now).problem,
    ).toMatchObject({
      code: 'invalid_meeting_argument',
      field: 'timeZone',
      message: expect.stringContaining('Mars/Olympus_Mons'),
    });
  });

  it('answers the zone in its canonical spelling', () => {
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    expect(
      checkInterviewTime({ date: '2026-09-18', time: '10:00', timeZone: ' america/new_york ' }, now),
    ).toMatchObject({ problem: null, timeZone: 'America/New_York' });
  });

  it('checks in the contract order: the zone before the day, the day before the past', () => {
    expect(checkInterviewTime({ date: '2026-09-12', time: '10:00', timeZone: '' }, now).problem?.code).toBe(
      'no_timezone',
    );
    expect(checkInterviewTime({ date: '2026-09-12', time: '10:00', timeZone: 'UTC' }, now).problem?.code).toBe(
      'interview_day_is_invalid',
    );
    expect(checkInterviewTime({ date: '2026-09-11', time: '10:00', timeZone: 'UTC' }, now + MINUTE).problem?.code).toBe(
      'interview_date_time_is_in_the_past',
    );
  });
});

describe('interviewUpdateSchema', () => {
  it('lets a null timeZone through, for the route to answer no_timezone', () => {
    expect(interviewUpdateSchema.safeParse({ timeZone: null })).toMatchObject({
      success: true,
      data: { timeZone: null },
    });
    expect(interviewUpdateSchema.safeParse({ timeZone: 5 }).success).toBe(false);
  });
});
