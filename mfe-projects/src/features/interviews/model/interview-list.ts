/**
 * The Interviews tab's address and how a row reads. The address is the state:
 * `interviewsWhen` (upcoming by default, then left out) and `interviewsPage`. Unknown values are
 * ignored, as if absent. Times show as the portal shows them (h:mmA M/D/YYYY), but in the
 * interview's own zone, named: that is where it takes place.
 */
import {
  instantToZoned,
  INTERVIEW_WHEN,
  type Interview,
  type InterviewPerson,
  type InterviewWhen,
} from '@portal/shared/core/interviews';
import { pageParam } from '@portal/shared/core/projects';

export const INTERVIEWS_PAGE_SIZE = 10;

export const INTERVIEW_PARAMS = { page: 'interviewsPage', when: 'interviewsWhen' } as const;

export const INTERVIEW_WHEN_LABELS: Record<InterviewWhen, string> = {
  upcoming: 'Upcoming',
  past: 'Past',
  canceled: 'Canceled',
  all: 'All',
};

/** What the list says when a filter has no interviews. */
export const NO_INTERVIEWS: Record<InterviewWhen, string> = {
  upcoming: 'No upcoming interviews',
  past: 'No past interviews',
  canceled: 'No canceled interviews',
  all: 'No interviews yet',
};

export const INTERVIEW_STATUS_LABELS: Record<Interview['status'], string> = {
  scheduled: 'Scheduled',
  canceled: 'Canceled',
};

export interface InterviewListState {
  page: number;
  when: InterviewWhen;
}

export function interviewListState(params: URLSearchParams): InterviewListState {
  const when = params.get(INTERVIEW_PARAMS.when);
  return {
    page: pageParam(params, INTERVIEW_PARAMS.page),
    when: (INTERVIEW_WHEN as readonly string[]).includes(when ?? '') ? (when as InterviewWhen) : 'upcoming',
  };
}

/** The address value of a filter: the default is left out. */
export function whenValue(when: InterviewWhen): InterviewWhen | null {
  return when === 'upcoming' ? null : when;
}

/** A local date (YYYY-MM-DD) and time (HH:mm) as h:mmA M/D/YYYY. */
export function formatLocal(date: string, time: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const [h, mi] = time.split(':').map(Number);
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(mi).padStart(2, '0')}${h < 12 ? 'AM' : 'PM'} ${m}/${d}/${y}`;
}

/** When an interview starts, in its own zone, zone named: "10:00AM 11/30/2026 America/New_York". */
export function interviewWhen(interview: Pick<Interview, 'startsAt' | 'timeZone'>): string {
  const { date, time } = instantToZoned(Date.parse(interview.startsAt), interview.timeZone);
  return `${formatLocal(date, time)} ${interview.timeZone}`;
}

/** 45 min, 1 h, 1 h 30 min. */
export function durationText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `${m} min`;
  return m ? `${h} h ${m} min` : `${h} h`;
}

export function interviewPersonName(p: Pick<InterviewPerson, 'firstName' | 'lastName' | 'email'>): string {
  return `${p.firstName} ${p.lastName}`.trim() || p.email;
}

/** Names for a narrow cell: the first `shown`, then "+N". */
export function compactNames(people: InterviewPerson[], shown = 2): string {
  if (!people.length) return '—';
  const names = people.slice(0, shown).map(interviewPersonName);
  return people.length > shown ? `${names.join(', ')} +${people.length - shown}` : names.join(', ');
}

/** Whether an interview may still be rescheduled or canceled: scheduled and not yet started. */
export function isChangeable(interview: Pick<Interview, 'status' | 'startsAt'>, now = Date.now()): boolean {
  return interview.status === 'scheduled' && Date.parse(interview.startsAt) > now;
}

/** An online meeting link safe to open: http(s) only. */
export function meetingLink(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The invitation's file name: the title, made safe for a file system. */
export function invitationFileName(title: string): string {
  const base = title
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${base || 'interview'}.ics`;
}
