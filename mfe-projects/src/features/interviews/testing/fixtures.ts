/** What the interviews tests share: people, interviews and days counted from today where the interview takes place. */
import type { Interview, InterviewPerson } from '@portal/shared/core/interviews';

export const ZONE = 'America/New_York';

export const iPerson = (id: string, firstName: string, lastName = 'Lee'): InterviewPerson => ({
  id,
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}@acme.test`,
});

export const sam = iPerson('u1', 'Sam', 'Staff');
export const dan = iPerson('u5', 'Daniel', 'Reyes');
export const ann = iPerson('u2', 'Ann');
export const bo = iPerson('u3', 'Bo');

/** Today in `zone`, plus `days`: its date (YYYY-MM-DD), M/D/YYYY text and weekday (0 Sunday). */
export function zonedDay(days: number, zone = ZONE): { date: string; typed: string; weekday: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date());
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const d = new Date(Date.UTC(get('year'), get('month') - 1, get('day') + days));
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
  return {
    date: `${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    typed: `${m}/${day}/${y}`,
    weekday: d.getUTCDay(),
  };
}

/** The first day `from` days away or further (`step` -1: or earlier) whose weekday `want` accepts. */
export function pickDay(from: number, want: (weekday: number) => boolean, step = 1, zone = ZONE) {
  for (let i = from; Math.abs(i - from) < 14; i += step) {
    const day = zonedDay(i, zone);
    if (want(day.weekday)) return day;
  }
  throw new Error('no such day');
}

export const isWeekday = (w: number) => w >= 1 && w <= 5;
export const isSaturday = (w: number) => w === 6;

export function makeInterview(n: number, extra: Partial<Interview> = {}): Interview {
  return {
    id: `i${n}`,
    projectId: 'p1',
    title: `Interview ${n}`,
    description: null,
    location: null,
    status: 'scheduled',
    startsAt: '2099-11-30T15:00:00.000Z',
    endsAt: '2099-11-30T16:00:00.000Z',
    date: '2099-11-30',
    time: '10:00',
    timeZone: ZONE,
    durationMinutes: 60,
    organizer: sam,
    interviewers: [dan],
    attendees: [ann],
    onlineMeetingUrl: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    canceledAt: null,
    ...extra,
  };
}
