import { makeInterview, pickDay, isSaturday, isWeekday, sam, dan, ann, bo, ZONE } from '../testing/fixtures';
import { dayjs } from '@portal/shared/ui/extra';
import {
  createRequest,
  draftProblems,
  interviewDayOffered,
  newDraft,
  pickerTime,
  timeZoneNames,
  typedTime,
  uiMessage,
  updateRequest,
  type InterviewDraft,
} from './interview-form';

const nextWeek = pickDay(7, isWeekday);
const valid: InterviewDraft = {
  title: '  Access review walkthrough ',
  date: nextWeek.date,
  time: '10:00',
  timeZone: ZONE,
  durationMinutes: 45,
  organizerId: 'u1',
  interviewerIds: ['u5'],
  attendeeIds: [],
  location: '  ',
  description: '',
};

describe('interviewDayOffered', () => {
  it('offers Monday to Friday from today to 62 days on', () => {
    const today = '2026-11-30'; // a Monday
    expect(interviewDayOffered({ date: '2026-11-30', weekday: 1 }, today)).toBe(true);
    expect(interviewDayOffered({ date: '2026-11-29', weekday: 0 }, today)).toBe(false);
    expect(interviewDayOffered({ date: '2026-11-27', weekday: 5 }, today)).toBe(false);
    expect(interviewDayOffered({ date: '2026-12-05', weekday: 6 }, today)).toBe(false);
    expect(interviewDayOffered({ date: '2027-01-29', weekday: 5 }, today)).toBe(true);
    expect(interviewDayOffered({ date: '2027-01-31', weekday: 0 }, today)).toBe(false);
    expect(interviewDayOffered({ date: '2027-02-01', weekday: 1 }, today)).toBe(false);
  });
});

describe('createRequest', () => {
  it('makes the body of a valid draft: trimmed, empty optional fields left out', () => {
    expect(createRequest(valid)).toEqual({
      body: {
        title: 'Access review walkthrough',
        date: nextWeek.date,
        time: '10:00',
        timeZone: ZONE,
        durationMinutes: 45,
        organizerId: 'u1',
        interviewerIds: ['u5'],
        attendeeIds: [],
      },
      problems: [],
    });
    expect(createRequest({ ...valid, location: ' Room 4 ', description: 'Bring the badge list' }).body).toMatchObject({
      location: 'Room 4',
      description: 'Bring the badge list',
    });
  });

  it.each([
    [
      'a Saturday',
      { date: pickDay(1, isSaturday).date },
      { field: 'date', message: 'Interview day must be Monday to Friday.' },
    ],
    [
      'a weekday already gone',
      { date: pickDay(-1, isWeekday, -1).date },
      { field: 'time', message: 'Interview time must not be in the past.' },
    ],
    [
      'a weekday 63 days out',
      { date: pickDay(63, isWeekday).date },
      { field: 'date', message: 'The interview interval is at most 62 days.' },
    ],
    ['no time zone', { timeZone: ' ' }, { field: 'timeZone', message: 'No time zone is set.' }],
    [
      'an unknown time zone',
      { timeZone: 'Mars/Olympus' },
      { field: 'timeZone', message: 'Choose a known time zone: "Mars/Olympus" is not one' },
    ],
    // clocks go forward at 2:00 that day in New York: 2:30 never happens
    [
      'a time the clocks skip',
      { date: '2027-03-14', time: '02:30' },
      { field: 'time', message: '2:30AM 3/14/2027 does not exist in America/New_York (clocks go forward)' },
    ],
  ])('refuses %s with the rule’s message on its field, and makes no body', (_name, change, problem) => {
    expect(createRequest({ ...valid, ...change })).toEqual({ body: null, problems: [problem] });
  });

  it('checks the rules where the interview takes place, not in the browser’s zone', () => {
    // Monday 00:30 in Tokyo is still Sunday in New York (and in UTC, where the tests run)
    const monday = pickDay(8, (w) => w === 1, 1, 'Asia/Tokyo');
    expect(createRequest({ ...valid, date: monday.date, time: '00:30', timeZone: 'Asia/Tokyo' }).problems).toEqual([]);
    const saturday = pickDay(8, isSaturday, 1, 'Asia/Tokyo');
    expect(createRequest({ ...valid, date: saturday.date, time: '23:30', timeZone: 'Asia/Tokyo' }).problems).toEqual([
      { field: 'date', message: 'Interview day must be Monday to Friday.' },
    ]);
  });

  it('names every missing field in the form’s words (not the api’s field names), and waits for a date and time before the time rules', () => {
    const problems = draftProblems({ title: ' ', timeZone: '', interviewerIds: [] });
    expect(problems).toEqual([
      { field: 'title', message: 'Enter a title' },
      { field: 'date', message: 'Choose a date' },
      { field: 'time', message: 'Choose a time' },
      { field: 'organizerId', message: 'Choose an organizer' },
      { field: 'interviewerIds', message: 'Choose at least one interviewer' },
    ]);
    expect(
      draftProblems({
        ...valid,
        title: 'x'.repeat(201),
        interviewerIds: Array.from({ length: 11 }, (_, i) => `u${i}`),
      }),
    ).toEqual([
      { field: 'title', message: 'The title must be at most 200 characters' },
      { field: 'interviewerIds', message: 'Choose at most 10 interviewers' },
    ]);
  });

  it('puts the api’s field messages in the form’s words and leaves the catalogue’s texts as they are', () => {
    expect(uiMessage('organizerId', 'organizerId is required')).toBe('Choose an organizer');
    expect(uiMessage('attendeeIds', 'attendeeIds may name at most 50 users')).toBe('Choose at most 50 attendees');
    expect(uiMessage('time', '2026-11-01 01:30 does not exist in Europe/Paris')).toBe(
      '1:30AM 11/1/2026 does not exist in Europe/Paris (clocks go forward)',
    );
    expect(uiMessage('attendeeIds', 'Zoe Client is not a member of the project or its company')).toBe(
      'Zoe Client is not a member of the project or its company',
    );
    expect(uiMessage('date', 'Interview day must be Monday to Friday.')).toBe(
      'Interview day must be Monday to Friday.',
    );
  });

  it('judges "now" by the clock it is given', () => {
    const at = Date.parse(`${nextWeek.date}T18:00:00Z`); // 1 or 2 PM in New York that day
    expect(draftProblems(valid, undefined, at)).toEqual([
      { field: 'time', message: 'Interview time must not be in the past.' },
    ]);
  });
});

describe('updateRequest', () => {
  const before = makeInterview(1, {
    date: nextWeek.date,
    time: '10:00',
    timeZone: ZONE,
    durationMinutes: 60,
    organizer: sam,
    interviewers: [dan],
    attendees: [ann],
    description: 'Agenda',
  });
  const same: InterviewDraft = {
    title: 'Interview 1',
    date: nextWeek.date,
    time: '10:00',
    timeZone: ZONE,
    durationMinutes: 60,
    organizerId: 'u1',
    interviewerIds: ['u5'],
    attendeeIds: ['u2'],
    location: '',
    description: 'Agenda',
  };

  it('sends only what changed', () => {
    expect(updateRequest(same, before)).toEqual({ body: {}, problems: [] });
    expect(
      updateRequest({ ...same, title: 'Renamed', description: '', attendeeIds: ['u2', 'u3'] }, before).body,
    ).toEqual({
      title: 'Renamed',
      description: null,
      attendeeIds: ['u2', 'u3'],
    });
  });

  it('sends the whole new time when the interview moves, after checking it', () => {
    const later = pickDay(9, isWeekday);
    expect(updateRequest({ ...same, date: later.date, time: '14:30' }, before).body).toEqual({
      date: later.date,
      time: '14:30',
      timeZone: ZONE,
      durationMinutes: 60,
    });
    expect(updateRequest({ ...same, durationMinutes: 90 }, before).body).toEqual({
      date: nextWeek.date,
      time: '10:00',
      timeZone: ZONE,
      durationMinutes: 90,
    });
    expect(updateRequest({ ...same, date: pickDay(1, isSaturday).date }, before)).toEqual({
      body: null,
      problems: [{ field: 'date', message: 'Interview day must be Monday to Friday.' }],
    });
  });

  it('does not hold a change of people against a time it does not move (the api checks it only when sent)', () => {
    const startsSoon = { ...before, date: pickDay(-1, isWeekday, -1).date };
    expect(updateRequest({ ...same, date: startsSoon.date, interviewerIds: ['u5', 'u1'] }, startsSoon)).toEqual({
      body: { interviewerIds: ['u5', 'u1'] },
      problems: [],
    });
  });
});

describe('newDraft', () => {
  const people = { organizers: [sam], interviewers: [sam, dan], attendees: [ann, bo] };
  it('defaults to the zone given, an hour, and the caller as organizer when they may be one', () => {
    expect(newDraft(people, 'u1', ZONE)).toEqual({
      title: '',
      timeZone: ZONE,
      durationMinutes: 60,
      organizerId: 'u1',
      interviewerIds: [],
      attendeeIds: [],
    });
    expect(newDraft(people, 'u5', ZONE).organizerId).toBeUndefined();
    expect(newDraft(undefined, 'u1', ZONE).organizerId).toBeUndefined();
  });
});

describe('timeZoneNames', () => {
  it('lists the runtime’s zones with the ones asked for, sorted', () => {
    const zones = timeZoneNames(['Etc/GMT+5']);
    expect(zones).toContain(ZONE);
    expect(zones).toContain('Etc/GMT+5');
    expect(zones).toEqual([...zones].sort((a, b) => a.localeCompare(b)));
  });

  it('falls back to a short list when the runtime cannot enumerate its zones', () => {
    const spy = jest.spyOn(Intl, 'supportedValuesOf').mockImplementation(() => {
      throw new RangeError('not supported');
    });
    try {
      const zones = timeZoneNames(['Europe/Madrid']);
      expect(zones).toContain('America/Chicago');
      expect(zones).toContain('Europe/Madrid');
      expect(zones.length).toBeLessThan(30);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the time as typed', () => {
  it('reads a typed time as HH:mm, or nothing', () => {
    expect(['10:00', '9:05', '0930', ' 23:59 '].map(typedTime)).toEqual(['10:00', '09:05', '09:30', '23:59']);
    expect(['24:00', '10:60', '10', 'ten', ''].map(typedTime)).toEqual([null, null, null, null, null]);
  });

  it('puts the picker’s value on a fixed day, so the time is the one typed whatever the browser’s clocks do today', () => {
    // (the jest workers cannot change their zone: the browser's spring-forward day is not reproduced here)
    expect(pickerTime('02:30')).toBe('2000-01-03T02:30');
    expect(dayjs(pickerTime('02:30')).format('HH:mm')).toBe('02:30');
    expect(pickerTime('')).toBeUndefined();
    expect(pickerTime('2:30')).toBeUndefined();
  });
});
