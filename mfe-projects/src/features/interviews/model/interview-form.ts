/**
 * The schedule and reschedule form's logic, apart from its widgets: the values as plain text (the
 * pickers' dates and times already formatted), what is wrong with them and the request they make.
 * The rules are the api's own (interviewCreateSchema and checkInterviewTime of the shared contract),
 * so the form shows the message the server would answer, under the field, before anything is sent.
 */
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import {
  checkInterviewTime,
  INTERVIEW_DEFAULT_MINUTES,
  INTERVIEW_MAX_DAYS_AHEAD,
  interviewCreateSchema,
  type Interview,
  type InterviewCreate,
  type InterviewPeople,
  type InterviewUpdate,
} from '@portal/shared/core/interviews';
import { formatLocal } from './interview-list';

/**
 * Whether the date picker offers a day: Monday to Friday, from today to INTERVIEW_MAX_DAYS_AHEAD days on
 * (the api's rules, checkInterviewTime, also decide the last day's hours and the time zone's edges).
 * `day` and `today` are calendar days (0 Sunday to 6 Saturday for `weekday`), as YYYY-MM-DD.
 */
export function interviewDayOffered(day: { date: string; weekday: number }, today: string): boolean {
  if (day.weekday === 0 || day.weekday === 6) return false;
  const last = new Date(`${today}T00:00:00Z`);
  last.setUTCDate(last.getUTCDate() + INTERVIEW_MAX_DAYS_AHEAD);
  return day.date >= today && day.date <= last.toISOString().slice(0, 10);
}

export interface InterviewDraft {
  title?: string;
  /** YYYY-MM-DD in `timeZone`; empty when not chosen. */
  date?: string;
  /** HH:mm (24 h) in `timeZone`; empty when not chosen. */
  time?: string;
  timeZone?: string;
  durationMinutes?: number;
  organizerId?: string;
  interviewerIds?: string[];
  attendeeIds?: string[];
  location?: string;
  description?: string;
}

export type InterviewField = keyof InterviewDraft;

export interface FieldProblem {
  field: InterviewField;
  message: string;
}

/** The durations the form offers, in minutes. */
export const INTERVIEW_DURATIONS = [15, 30, 45, 60, 90, 120, 180, 240] as const;

/** A short list for runtimes that cannot enumerate their zones. */
export const FALLBACK_TIME_ZONES = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Toronto',
  'America/Mexico_City',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Paris',
  'Europe/Berlin',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Asia/Tokyo',
  'Australia/Sydney',
];

/** The browser's IANA zone (UTC when it does not say). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every zone the runtime knows (else FALLBACK_TIME_ZONES), with `also` added when missing, sorted. */
export function timeZoneNames(also: (string | undefined)[] = []): string[] {
  let zones: string[];
  try {
    zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  } catch {
    zones = [];
  }
  const all = new Set(zones.length ? zones : FALLBACK_TIME_ZONES);
  for (const zone of also) if (zone) all.add(zone);
  return [...all].sort((a, b) => a.localeCompare(b));
}

/** The durations offered, with `current` added when it is not one of them (set through the api). */
export function durationChoices(current?: number): number[] {
  const all = new Set<number>(INTERVIEW_DURATIONS);
  if (current) all.add(current);
  return [...all].sort((a, b) => a - b);
}

const text = (value: string | undefined) => value?.trim() ?? '';

/** The whole draft as the create schema reads it: empties left out, so they read as missing. */
function candidate(draft: InterviewDraft): Partial<InterviewCreate> {
  const body: Partial<InterviewCreate> = {
    title: text(draft.title),
    durationMinutes: draft.durationMinutes ?? INTERVIEW_DEFAULT_MINUTES,
    interviewerIds: draft.interviewerIds ?? [],
    attendeeIds: draft.attendeeIds ?? [],
  };
  const timeZone = text(draft.timeZone);
  const location = text(draft.location);
  const description = text(draft.description);
  if (draft.date) body.date = draft.date;
  if (draft.time) body.time = draft.time;
  if (timeZone) body.timeZone = timeZone;
  if (draft.organizerId) body.organizerId = draft.organizerId;
  if (location) body.location = location;
  if (description) body.description = description;
  return body;
}

/** How each field is named in a sentence, for the api's messages that start with the field's name. */
const FIELD_NAMES: Record<InterviewField, string> = {
  title: 'The title',
  date: 'The date',
  time: 'The time',
  timeZone: 'The time zone',
  durationMinutes: 'The duration',
  organizerId: 'The organizer',
  interviewerIds: 'The interviewers',
  attendeeIds: 'The attendees',
  location: 'The location',
  description: 'The description',
};

/** The api's messages (its schema's, its time checks') that read better asked for than explained. */
const UI_WORDING: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^title is required$/, () => 'Enter a title'],
  [/^date is required$/, () => 'Choose a date'],
  [/^time is required$/, () => 'Choose a time'],
  [/^organizerId is required$/, () => 'Choose an organizer'],
  [/^interviewerIds must name at least one interviewer$/, () => 'Choose at least one interviewer'],
  [
    /^(interviewerIds|attendeeIds) may name at most (\d+) users$/,
    (m) => `Choose at most ${m[2]} ${m[1] === 'interviewerIds' ? 'interviewers' : 'attendees'}`,
  ],
  [/^date must be a date \(YYYY-MM-DD\)$/, () => 'Enter a date as M/D/YYYY'],
  [/^time must be a time \(HH:mm, 24 h\)$/, () => 'Enter a time as HH:mm (24 h)'],
  [/^timeZone "(.*)" is not a known time zone$/, (m) => `Choose a known time zone: "${m[1]}" is not one`],
  // a local time the clocks skip: "2:30AM 3/14/2027 does not exist in America/New_York (clocks go forward)"
  [
    /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) does not exist in (.+)$/,
    (m) => `${formatLocal(m[1], m[2])} does not exist in ${m[3]} (clocks go forward)`,
  ],
];

/**
 * A message of the api about `field`, in the form's words: "organizerId is required" reads "Choose an
 * organizer"; any other message that starts with the field's api name starts with its name in words.
 * The catalogue's texts (the rule codes') are left as they are.
 */
export function uiMessage(field: string, message: string): string {
  for (const [pattern, wording] of UI_WORDING) {
    const match = message.match(pattern);
    if (match) return wording(match);
  }
  const name = FIELD_NAMES[field as InterviewField];
  return name && message.startsWith(`${field} `) ? `${name}${message.slice(field.length)}` : message;
}

/**
 * The first rule the date, time and zone break, on the field it is about, or null. Waits for both a
 * date and a time (their own "required" says what is missing). The catalogue's text, except for an
 * impossible value, whose own message (in the form's words) says which (a time skipped when the clocks go forward).
 */
export function timeRuleProblem(draft: InterviewDraft, now = Date.now()): FieldProblem | null {
  if (!draft.date || !draft.time) return null;
  const { problem } = checkInterviewTime({ date: draft.date, time: draft.time, timeZone: draft.timeZone }, now);
  if (!problem) return null;
  return {
    field: problem.field,
    message:
      problem.code === 'invalid_meeting_argument'
        ? uiMessage(problem.field, problem.message)
        : ERROR_MESSAGES[problem.code],
  };
}

/** Whether the draft moves the interview: its date, time, zone or duration differ. */
export function movesInterview(draft: InterviewDraft, before: Interview): boolean {
  return (
    draft.date !== before.date ||
    draft.time !== before.time ||
    text(draft.timeZone) !== before.timeZone ||
    (draft.durationMinutes ?? INTERVIEW_DEFAULT_MINUTES) !== before.durationMinutes
  );
}

/**
 * Everything wrong with a draft, at most one message per field: the schema's, then the time rules
 * (for a reschedule, only when the interview moves: the api checks them only then).
 */
export function draftProblems(draft: InterviewDraft, before?: Interview, now = Date.now()): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const parsed = interviewCreateSchema.safeParse(candidate(draft));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '') as InterviewField;
      if (field && !problems.some((p) => p.field === field))
        problems.push({ field, message: uiMessage(field, issue.message) });
    }
  }
  const rule = !before || movesInterview(draft, before) ? timeRuleProblem(draft, now) : null;
  if (rule && !problems.some((p) => p.field === rule.field)) problems.push(rule);
  return problems;
}

export type DraftRequest<T> = { body: T; problems: [] } | { body: null; problems: FieldProblem[] };

/** The body of POST …/interviews, or what must be fixed first. */
export function createRequest(draft: InterviewDraft, now = Date.now()): DraftRequest<InterviewCreate> {
  const problems = draftProblems(draft, undefined, now);
  // checked above: every required field is there
  return problems.length ? { body: null, problems } : { body: candidate(draft) as InterviewCreate, problems: [] };
}

const sameMembers = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/**
 * The body of PATCH …/interviews/:id: only what changed (a move sends date, time, zone and duration
 * together, so the api checks the whole new time), or what must be fixed first. An empty body: nothing changed.
 */
export function updateRequest(
  draft: InterviewDraft,
  before: Interview,
  now = Date.now(),
): DraftRequest<InterviewUpdate> {
  const problems = draftProblems(draft, before, now);
  if (problems.length) return { body: null, problems };
  const next = candidate(draft) as InterviewCreate;
  const body: InterviewUpdate = {};
  if (next.title !== before.title) body.title = next.title;
  if ((next.description ?? null) !== before.description) body.description = next.description ?? null;
  if ((next.location ?? null) !== before.location) body.location = next.location ?? null;
  if (movesInterview(draft, before)) {
    Object.assign(body, {
      date: next.date,
      time: next.time,
      timeZone: next.timeZone,
      durationMinutes: next.durationMinutes,
    });
  }
  if (next.organizerId !== before.organizer?.id) body.organizerId = next.organizerId;
  if (
    !sameMembers(
      next.interviewerIds,
      before.interviewers.map((p) => p.id),
    )
  )
    body.interviewerIds = next.interviewerIds;
  if (
    !sameMembers(
      next.attendeeIds ?? [],
      before.attendees.map((p) => p.id),
    )
  )
    body.attendeeIds = next.attendeeIds;
  return { body, problems: [] };
}

/** A new interview's draft: the browser's zone, an hour, the caller as organizer when they may be one. */
export function newDraft(
  people: InterviewPeople | undefined,
  me: string | undefined,
  zone = browserTimeZone(),
): InterviewDraft {
  const organizer = people?.organizers.find((p) => p.id === me);
  return {
    title: '',
    timeZone: zone,
    durationMinutes: INTERVIEW_DEFAULT_MINUTES,
    organizerId: organizer?.id,
    interviewerIds: [],
    attendeeIds: [],
  };
}

/** An interview's draft for a reschedule: its own date, time and zone, as scheduled. */
export function draftOf(interview: Interview): InterviewDraft {
  return {
    title: interview.title,
    date: interview.date,
    time: interview.time,
    timeZone: interview.timeZone,
    durationMinutes: interview.durationMinutes,
    organizerId: interview.organizer?.id,
    interviewerIds: interview.interviewers.map((p) => p.id),
    attendeeIds: interview.attendees.map((p) => p.id),
    location: interview.location ?? '',
    description: interview.description ?? '',
  };
}

/** A day without a change of the clocks in any zone: the time picker's values sit on it, so a time never moves. */
const PICKER_DAY = '2000-01-03';

/** HH:mm as the time picker's value: on a fixed day, so the browser's own clock changes cannot move it. */
export function pickerTime(time: string | undefined): string | undefined {
  return time && /^([01]\d|2[0-3]):[0-5]\d$/.test(time) ? `${PICKER_DAY}T${time}` : undefined;
}

/**
 * A time as typed (10:00, 9:05, 0930) as HH:mm, or null when it is not a time. The picker's own
 * reading puts the time on today's date in the browser's zone, where 02:30 does not exist on the day
 * the clocks go forward: the text typed is read here instead, as a time of the interview's zone.
 */
export function typedTime(text: string): string | null {
  const match = text.trim().match(/^(\d{1,2}):?(\d{2})$/);
  if (!match) return null;
  const [h, m] = [Number(match[1]), Number(match[2])];
  return h < 24 && m < 60 ? `${String(h).padStart(2, '0')}:${match[2]}` : null;
}
