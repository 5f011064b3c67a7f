/**
 * Interviews of a project (docs/projects.md, "Interviews"; issue 7): schedule, list, reschedule, cancel.
 * The api validates with these schemas and rules and the web form uses the same ones, so the user sees
 * the same message before sending as the server would answer. Framework-free: the api imports it.
 *
 * The calls (base /api/v1) are described in api.ts, their answers in results.ts; `project:*` policies
 * as in ../projects. Scheduling, changing and canceling need a "staff writer": project:write and the
 * caller is staff (else 403 `user_can_not_update_project`). A change may reschedule or change the people,
 * title, description and location; the time rules apply again whenever date, time, time zone or duration
 * are sent.
 *
 * Every participant (organizer, interviewers, attendees) gets an e-mail with an iCalendar invitation
 * (METHOD:REQUEST; a reschedule sends the same UID with a higher SEQUENCE; cancel sends METHOD:CANCEL).
 * With Microsoft Graph configured (GRAPH_* settings) the meeting is also created in the organizer's
 * calendar; a Graph failure refuses the call with its code and stores nothing.
 * A canceled interview cannot be changed (409 `interview_is_canceled`); one whose start has passed cannot
 * be rescheduled or canceled (409 `interview_is_over`). A canceled project's interviews are frozen (409 `project_is_canceled`).
 *
 * Errors (catalogue: errors.ts), in the order they are checked (after the staff writer's 403): first 400
 * `validation_failed` (the schema: a missing date or time, a malformed value, a timeZone that is not a
 * text); then on POST 409 `project_is_canceled`, and on
 * PATCH and cancel 404 `interview_not_found`, 409 `project_is_canceled`, `interview_is_canceled`, `interview_is_over`;
 * then the time rules (on PATCH only when date, time, time zone or duration are sent):
 * 400 `no_timezone` (timeZone missing, null or empty),
 * 400 `invalid_meeting_argument` (an unknown time zone, an impossible date or time; details name the field),
 * 400 `interview_day_is_invalid` (Saturday or Sunday where the interview takes place),
 * 400 `interview_date_time_is_in_the_past`, 400 `max_interval_exceeded` (starts more than 62 days from now),
 * 400 `invalid_meeting_organizer` (the organizer holds no Lead Consultant or Consultant role on the project),
 * 400 `invalid_meeting_argument` with details field `interviewerIds` ("Only staff can be interviewers") or
 * `attendeeIds` (not a member of the project or its company);
 * Graph: 503 `unable_to_start_graph_client`, 400 `graph_user_not_found`, 503 `cant_schedule_meeting`,
 * 503 `fail_to_create_subscription`, 503 `fail_to_schedule_interview`.
 */
import { z } from 'zod';
import { hasNoNul, nulMessage, optionalText, pagingShape, requiredText } from '../settings';
import type { interview, interviewList, interviewPeople, interviewPerson } from './results';

/** An interview starts at most this many days from now. */
export const INTERVIEW_MAX_DAYS_AHEAD = 62;
export const INTERVIEW_MIN_MINUTES = 15;
export const INTERVIEW_MAX_MINUTES = 8 * 60;
export const INTERVIEW_DEFAULT_MINUTES = 60;
export const INTERVIEW_MAX_INTERVIEWERS = 10;
export const INTERVIEW_MAX_ATTENDEES = 50;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const idList = (field: string, max: number) =>
  z
    .array(z.string().min(1, `${field} must hold user ids`).max(100, `${field} must hold user ids`), {
      error: `${field} must be a list of user ids`,
    })
    .max(max, `${field} may name at most ${max} users`);

/** The when of an interview: a local date and time in an IANA time zone, and how long it lasts. */
const whenShape = {
  /** YYYY-MM-DD, in `timeZone`. */
  date: z.string({ error: 'date is required' }).regex(DAY, 'date must be a date (YYYY-MM-DD)'),
  /** HH:mm (24 h), in `timeZone`. */
  time: z.string({ error: 'time is required' }).regex(TIME, 'time must be a time (HH:mm, 24 h)'),
  /**
   * IANA zone, e.g. America/New_York, stored in its canonical spelling (america/new_york -> America/New_York).
   * Missing, null or empty: 400 `no_timezone` (checked by the route with checkInterviewTime, not the schema).
   */
  timeZone: z
    .string({ error: 'timeZone must be a text' })
    .trim()
    .max(64, 'timeZone must be at most 64 characters')
    .refine(hasNoNul, nulMessage('timeZone'))
    .nullable()
    .optional(),
  durationMinutes: z.coerce
    .number({ error: 'durationMinutes must be a whole number' })
    .int('durationMinutes must be a whole number')
    .min(INTERVIEW_MIN_MINUTES, `durationMinutes must be at least ${INTERVIEW_MIN_MINUTES}`)
    .max(INTERVIEW_MAX_MINUTES, `durationMinutes must be at most ${INTERVIEW_MAX_MINUTES}`),
};

export const interviewCreateSchema = z.object({
  title: requiredText('title', 200),
  description: optionalText('description', 5000),
  location: optionalText('location', 200),
  ...whenShape,
  durationMinutes: whenShape.durationMinutes.default(INTERVIEW_DEFAULT_MINUTES),
  organizerId: z
    .string({ error: 'organizerId is required' })
    .min(1, 'organizerId is required')
    .max(100, 'organizerId is too long'),
  interviewerIds: idList('interviewerIds', INTERVIEW_MAX_INTERVIEWERS).min(
    1,
    'interviewerIds must name at least one interviewer',
  ),
  attendeeIds: idList('attendeeIds', INTERVIEW_MAX_ATTENDEES).default([]),
});
export type InterviewCreate = z.input<typeof interviewCreateSchema>;

export const interviewUpdateSchema = z.object({
  title: requiredText('title', 200).optional(),
  description: optionalText('description', 5000),
  location: optionalText('location', 200),
  date: whenShape.date.optional(),
  time: whenShape.time.optional(),
  timeZone: whenShape.timeZone,
  durationMinutes: whenShape.durationMinutes.optional(),
  organizerId: z.string().min(1, 'organizerId is required').max(100, 'organizerId is too long').optional(),
  interviewerIds: idList('interviewerIds', INTERVIEW_MAX_INTERVIEWERS)
    .min(1, 'interviewerIds must name at least one interviewer')
    .optional(),
  attendeeIds: idList('attendeeIds', INTERVIEW_MAX_ATTENDEES).optional(),
});
export type InterviewUpdate = z.input<typeof interviewUpdateSchema>;

export const interviewCancelSchema = z.object({ reason: optionalText('reason', 1000) });
export type InterviewCancel = z.input<typeof interviewCancelSchema>;

export const INTERVIEW_WHEN = ['upcoming', 'past', 'canceled', 'all'] as const;
export type InterviewWhen = (typeof INTERVIEW_WHEN)[number];
export const interviewsQuerySchema = z.object({
  ...pagingShape(10),
  when: z.enum(INTERVIEW_WHEN, { error: `when must be one of ${INTERVIEW_WHEN.join(', ')}` }).default('upcoming'),
});
export type InterviewsQuery = z.input<typeof interviewsQuerySchema>;

export type InterviewPerson = z.output<typeof interviewPerson>;

export type Interview = z.output<typeof interview>;

export type InterviewList = z.output<typeof interviewList>;

export type InterviewPeople = z.output<typeof interviewPeople>;

// ---------------------------------------------------------------------------------------------
// Time rules (shared by the form and the api)

/** The canonical spelling of a known IANA zone (america/new_york -> America/New_York). */
export function canonicalTimeZone(zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isKnownTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function zoneParts(
  instant: number,
  zone: string,
): { year: number; month: number; day: number; hour: number; minute: number; weekday: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    weekday: 'short',
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    weekday: get('weekday'),
  };
}

/**
 * The UTC instant of a local date and time in `zone`, or null when that local time does not exist
 * (the hour skipped when clocks go forward) or the date is impossible.
 */
export function zonedToInstant(date: string, time: string, zone: string): number | null {
  if (!DAY.test(date) || !TIME.test(time) || !isKnownTimeZone(zone)) return null;
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  // Two passes settle the zone's offset at that instant (also across a change of offset).
  let guess = wall;
  for (let i = 0; i < 2; i++) {
    const p = zoneParts(guess, zone);
    const seen = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    guess += wall - seen;
  }
  const p = zoneParts(guess, zone);
  if (Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) !== wall) return null;
  return guess;
}

/** The local date (YYYY-MM-DD) and time (HH:mm) of an instant in `zone`. */
export function instantToZoned(instant: number, zone: string): { date: string; time: string } {
  const p = zoneParts(instant, zone);
  const two = (n: number) => String(n).padStart(2, '0');
  return { date: `${p.year}-${two(p.month)}-${two(p.day)}`, time: `${two(p.hour)}:${two(p.minute)}` };
}

export type InterviewTimeProblem =
  | { code: 'no_timezone'; field: 'timeZone' }
  | { code: 'invalid_meeting_argument'; field: 'timeZone' | 'date' | 'time'; message: string }
  | { code: 'interview_day_is_invalid'; field: 'date' }
  | { code: 'interview_date_time_is_in_the_past'; field: 'time' }
  | { code: 'max_interval_exceeded'; field: 'date' };

/**
 * The first rule a local date, time and zone break, or null with its instant:
 * a zone is given and known, the date and time exist there, the day is Monday to Friday there, the
 * start is not in the past and at most INTERVIEW_MAX_DAYS_AHEAD days from `now`. On success also the zone
 * in its canonical spelling, as it is stored.
 */
export function checkInterviewTime(
  input: { date: string; time: string; timeZone?: string | null },
  now: number = Date.now(),
):
  | { problem: InterviewTimeProblem; instant?: undefined; timeZone?: undefined }
  | { problem: null; instant: number; timeZone: string } {
  const zone = input.timeZone?.trim() ?? '';
  if (!zone) return { problem: { code: 'no_timezone', field: 'timeZone' } };
  if (!isKnownTimeZone(zone))
    return {
      problem: {
        code: 'invalid_meeting_argument',
        field: 'timeZone',
        message: `timeZone "${zone}" is not a known time zone`,
      },
    };
  if (!DAY.test(input.date))
    return {
      problem: { code: 'invalid_meeting_argument', field: 'date', message: 'date must be a date (YYYY-MM-DD)' },
    };
  if (!TIME.test(input.time))
    return {
      problem: { code: 'invalid_meeting_argument', field: 'time', message: 'time must be a time (HH:mm, 24 h)' },
    };
  const instant = zonedToInstant(input.date, input.time, zone);
  if (instant === null)
    return {
      problem: {
        code: 'invalid_meeting_argument',
        field: 'time',
        message: `${input.date} ${input.time} does not exist in ${zone}`,
      },
    };
  const weekday = zoneParts(instant, zone).weekday;
  if (weekday === 'Sat' || weekday === 'Sun') return { problem: { code: 'interview_day_is_invalid', field: 'date' } };
  if (instant < now) return { problem: { code: 'interview_date_time_is_in_the_past', field: 'time' } };
  if (instant - now > INTERVIEW_MAX_DAYS_AHEAD * 24 * 60 * 60 * 1000)
    return { problem: { code: 'max_interval_exceeded', field: 'date' } };
  return { problem: null, instant, timeZone: canonicalTimeZone(zone) };
}
