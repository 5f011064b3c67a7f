/** What the interviews' changes, notices and Graph meetings share: an interview as it now stands and its people. */
import type { Kysely } from 'kysely';
import { contactsByIds, findInterview, type InterviewContact, type InterviewRecord } from '../../db/interviews';
import type { Database } from '../../db/schema';
import { HttpError } from '../../lib/http-error';

/** The project an interview belongs to, as its policy resolved it. */
export interface InterviewProject {
  id: string;
  companyId: string;
  title: string;
  status: string;
}

export const interviewNotFound = () => new HttpError(404, 'interview_not_found');

export const unique = (ids: readonly string[]) => [...new Set(ids)];

export const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();

/** "Tuesday, December 1, 2026, 10:00 AM – 11:00 AM (America/New_York)". */
export function whenText(startsAt: number, endsAt: number, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(startsAt);
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' });
  return `${day}, ${time.format(startsAt)} – ${time.format(endsAt)} (${timeZone})`;
}

export const projectLink = (projectId: string) => `/v2/projects/${encodeURIComponent(projectId)}?view=interviews`;

export const icsName = (record: InterviewRecord) => `interview-${record.id}.ics`;

/** What an invitation, its mail and its Graph meeting are made of: the interview as it now stands and its people. */
export interface InterviewState {
  record: InterviewRecord;
  people: Map<string, InterviewContact>;
}

export const participantIds = (r: Pick<InterviewRecord, 'organizerId' | 'interviewerIds' | 'attendeeIds'>) =>
  unique([...(r.organizerId ? [r.organizerId] : []), ...r.interviewerIds, ...r.attendeeIds]);

export async function loadState(db: Kysely<Database>, record: InterviewRecord): Promise<InterviewState> {
  return { record, people: await contactsByIds(db, participantIds(record)) };
}

export async function interviewOrThrow(
  trx: Kysely<Database>,
  projectId: string,
  interviewId: string,
): Promise<InterviewRecord> {
  const found = await findInterview(trx, projectId, interviewId);
  if (!found) throw interviewNotFound();
  return found;
}
