/** The rules an interview's schedule and change follow: its time, its people, what may still change, and the audit's view. */
import type { Kysely } from 'kysely';
import type { BodyOf } from '@portal/shared/core/contract';
import { checkInterviewTime, instantToZoned, type InterviewTimeProblem } from '@portal/shared/core/interviews';
import type * as api from '@portal/shared/core/interviews/api';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import {
  attendeeIds as allowedAttendees,
  interviewerIds as allowedInterviewers,
  organizerIds as allowedOrganizers,
  type InterviewRecord,
} from '../../db/interviews';
import type { Database } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { workIsOpen } from '../projects/work';
import { unique, type InterviewProject } from './state';

/** 400 with the rule's code, naming the field the form shows it under. */
export function timeRefusal(problem: InterviewTimeProblem): HttpError {
  const message = problem.code === 'invalid_meeting_argument' ? problem.message : ERROR_MESSAGES[problem.code];
  return new HttpError(400, problem.code, message, [{ field: problem.field, message }]);
}

const organizerRefusal = () =>
  new HttpError(400, 'invalid_meeting_organizer', undefined, [
    { field: 'organizerId', message: 'organizerId must be an active Lead Consultant or Consultant of this project' },
  ]);

export interface People {
  organizerId: string | null;
  interviewerIds: string[];
  /** Without the interviewers: a person takes part once, as an interviewer first. */
  attendeeIds: string[];
}

/** The people rules, in the contract's order: organizer, interviewers, attendees; only for the lists given. */
export async function checkPeople(
  db: Kysely<Database>,
  project: { id: string; companyId: string },
  given: { organizerId?: string; interviewerIds?: string[]; attendeeIds?: string[] },
): Promise<void> {
  if (
    given.organizerId !== undefined &&
    !(await allowedOrganizers(db, project.id, [given.organizerId])).has(given.organizerId)
  )
    throw organizerRefusal();
  if (given.interviewerIds?.length) {
    const allowed = await allowedInterviewers(db, project.id, given.interviewerIds);
    const refused = given.interviewerIds.filter((id) => !allowed.has(id));
    if (refused.length) {
      throw new HttpError(400, 'invalid_meeting_argument', 'Only staff can be interviewers', [
        { field: 'interviewerIds', message: `Only staff can be interviewers: ${refused.join(', ')}` },
      ]);
    }
  }
  if (given.attendeeIds?.length) {
    const allowed = await allowedAttendees(db, project, given.attendeeIds);
    const refused = given.attendeeIds.filter((id) => !allowed.has(id));
    if (refused.length) {
      throw new HttpError(
        400,
        'invalid_meeting_argument',
        'Attendees must be active members of the project or its company',
        [
          {
            field: 'attendeeIds',
            message: `attendeeIds holds users who are not active members of this project or its company: ${refused.join(', ')}`,
          },
        ],
      );
    }
  }
}

/** The rules every change of an existing interview follows, in this order. */
export function checkChangeable(project: InterviewProject, record: InterviewRecord): void {
  if (!workIsOpen(project)) throw new HttpError(409, 'project_is_canceled');
  if (record.status === 'canceled') throw new HttpError(409, 'interview_is_canceled');
  if (record.startsAt <= Date.now()) throw new HttpError(409, 'interview_is_over');
}

export type InterviewUpdateInput = BodyOf<typeof api.updateInterview>;

/** A change of `current`: the interview after it, the audited fields that differ, and the people newly named (the only ones checked). */
export function planChange(current: InterviewRecord, input: InterviewUpdateInput) {
  let { startsAt, endsAt, timeZone } = current;
  if (
    input.date !== undefined ||
    input.time !== undefined ||
    input.timeZone !== undefined ||
    input.durationMinutes !== undefined
  ) {
    const local = instantToZoned(current.startsAt, current.timeZone);
    const time = checkInterviewTime({
      date: input.date ?? local.date,
      time: input.time ?? local.time,
      timeZone: input.timeZone !== undefined ? input.timeZone : current.timeZone,
    });
    if (time.problem) throw timeRefusal(time.problem);
    const minutes = input.durationMinutes ?? Math.round((current.endsAt - current.startsAt) / 60_000);
    startsAt = time.instant;
    endsAt = time.instant + minutes * 60_000;
    timeZone = time.timeZone;
  }
  const interviewerIds = input.interviewerIds !== undefined ? unique(input.interviewerIds) : current.interviewerIds;
  const attendeeIds = (input.attendeeIds !== undefined ? unique(input.attendeeIds) : current.attendeeIds).filter(
    (id) => !interviewerIds.includes(id),
  );
  // Only what is sent is checked: people kept as they were stay, even if one has since left.
  const given = {
    organizerId:
      input.organizerId !== undefined && input.organizerId !== current.organizerId ? input.organizerId : undefined,
    interviewerIds:
      input.interviewerIds !== undefined
        ? interviewerIds.filter((id) => !current.interviewerIds.includes(id))
        : undefined,
    attendeeIds:
      input.attendeeIds !== undefined ? attendeeIds.filter((id) => !current.attendeeIds.includes(id)) : undefined,
  };
  const next: InterviewRecord = {
    ...current,
    title: input.title ?? current.title,
    description: input.description !== undefined ? input.description : current.description,
    location: input.location !== undefined ? input.location : current.location,
    startsAt,
    endsAt,
    timeZone,
    organizerId: input.organizerId ?? current.organizerId,
    interviewerIds: [...interviewerIds].sort(),
    attendeeIds: [...attendeeIds].sort(),
  };
  const was = auditView(current);
  const now = auditView(next);
  const changed = (Object.keys(now) as (keyof typeof now)[]).filter(
    (key) => JSON.stringify(was[key]) !== JSON.stringify(now[key]),
  );
  return {
    next,
    changed,
    before: Object.fromEntries(changed.map((key) => [key, was[key]])),
    after: Object.fromEntries(changed.map((key) => [key, now[key]])),
    given,
  };
}

/** The fields of an interview the audit records. */
export function auditView(r: InterviewRecord) {
  return {
    title: r.title,
    description: r.description,
    location: r.location,
    startsAt: new Date(r.startsAt).toISOString(),
    endsAt: new Date(r.endsAt).toISOString(),
    timeZone: r.timeZone,
    organizerId: r.organizerId,
    interviewerIds: r.interviewerIds,
    attendeeIds: r.attendeeIds,
  };
}
