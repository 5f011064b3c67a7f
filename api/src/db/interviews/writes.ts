/**
 * Writing interviews: inserting one with its participants, writing its new state (every field and
 * its participants), and canceling it.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import { nowIso } from '../values';

export interface NewInterview {
  projectId: string;
  companyId: string;
  title: string;
  description: string | null;
  location: string | null;
  startsAt: number;
  endsAt: number;
  timeZone: string;
  organizerId: string;
  interviewerIds: string[];
  attendeeIds: string[];
  onlineMeetingUrl: string | null;
  graphEventId: string | null;
  graphSubscriptionId: string | null;
  createdBy: string;
  /** Given when Graph was told first (its transaction id); a new one otherwise. */
  id?: string;
}

async function insertParticipants(
  db: Kysely<Database>,
  interviewId: string,
  interviewerIds: string[],
  attendeeIds: string[],
): Promise<void> {
  const rows = [
    ...interviewerIds.map((user_id) => ({ interview_id: interviewId, user_id, role: 'interviewer' as const })),
    ...attendeeIds.map((user_id) => ({ interview_id: interviewId, user_id, role: 'attendee' as const })),
  ];
  if (rows.length) await db.insertInto('interview_participants').values(rows).execute();
}

export async function insertInterview(db: Kysely<Database>, input: NewInterview): Promise<string> {
  const id = input.id ?? randomUUID();
  const now = nowIso();
  await db
    .insertInto('interviews')
    .values({
      id,
      project_id: input.projectId,
      company_id: input.companyId,
      title: input.title,
      description: input.description,
      location: input.location,
      starts_at: new Date(input.startsAt).toISOString(),
      ends_at: new Date(input.endsAt).toISOString(),
      time_zone: input.timeZone,
      organizer_id: input.organizerId,
      status: 'scheduled',
      sequence: 0,
      online_meeting_url: input.onlineMeetingUrl,
      graph_event_id: input.graphEventId,
      graph_subscription_id: input.graphSubscriptionId,
      created_by: input.createdBy,
      created_at: now,
      updated_at: now,
      canceled_at: null,
    })
    .execute();
  await insertParticipants(db, id, input.interviewerIds, input.attendeeIds);
  return id;
}

export interface InterviewChanges {
  title: string;
  description: string | null;
  location: string | null;
  startsAt: number;
  endsAt: number;
  timeZone: string;
  organizerId: string | null;
  interviewerIds: string[];
  attendeeIds: string[];
  onlineMeetingUrl: string | null;
  graphEventId: string | null;
  graphSubscriptionId: string | null;
  sequence: number;
}

/** Writes the interview's new state (every field) and its participants. */
export async function updateInterview(
  db: Kysely<Database>,
  interviewId: string,
  next: InterviewChanges,
): Promise<void> {
  await db
    .updateTable('interviews')
    .set({
      title: next.title,
      description: next.description,
      location: next.location,
      starts_at: new Date(next.startsAt).toISOString(),
      ends_at: new Date(next.endsAt).toISOString(),
      time_zone: next.timeZone,
      organizer_id: next.organizerId,
      online_meeting_url: next.onlineMeetingUrl,
      graph_event_id: next.graphEventId,
      graph_subscription_id: next.graphSubscriptionId,
      sequence: next.sequence,
      updated_at: nowIso(),
    })
    .where('id', '=', interviewId)
    .execute();
  await db.deleteFrom('interview_participants').where('interview_id', '=', interviewId).execute();
  await insertParticipants(db, interviewId, next.interviewerIds, next.attendeeIds);
}

export async function cancelInterview(db: Kysely<Database>, interviewId: string, sequence: number): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('interviews')
    .set({ status: 'canceled', sequence, canceled_at: now, updated_at: now })
    .where('id', '=', interviewId)
    .execute();
}
