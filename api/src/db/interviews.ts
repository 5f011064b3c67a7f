/** Interviews of a project and their participants (issue 7). */
import { randomUUID } from 'node:crypto';
import { PostgresAdapter, type Kysely, type Selectable } from 'kysely';
import {
  instantToZoned,
  type Interview,
  type InterviewPeople,
  type InterviewPerson,
  type InterviewWhen,
} from '@portal/shared/core/interviews';
import { orderByName } from './roster';
import type { Database, InterviewsTable } from './schema';
import { nowIso, toCount, toIso } from './values';

/** The roles that may organize a project's interviews. */
export const ORGANIZER_ROLES = ['Lead Consultant', 'Consultant'] as const;

export interface InterviewRecord {
  id: string;
  projectId: string;
  companyId: string;
  title: string;
  description: string | null;
  location: string | null;
  /** ms since the epoch. */
  startsAt: number;
  endsAt: number;
  timeZone: string;
  organizerId: string | null;
  status: 'scheduled' | 'canceled';
  sequence: number;
  onlineMeetingUrl: string | null;
  graphEventId: string | null;
  graphSubscriptionId: string | null;
  createdAt: string;
  updatedAt: string;
  canceledAt: string | null;
  interviewerIds: string[];
  attendeeIds: string[];
}

/** A participant as the invitations need them. */
export interface InterviewContact extends InterviewPerson {
  status: 'active' | 'suspended';
}

function toRecord(
  row: Selectable<InterviewsTable>,
  participants: { user_id: string; role: string }[],
): InterviewRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    companyId: row.company_id,
    title: row.title,
    description: row.description,
    location: row.location,
    startsAt: Date.parse(toIso(row.starts_at)),
    endsAt: Date.parse(toIso(row.ends_at)),
    timeZone: row.time_zone,
    organizerId: row.organizer_id,
    status: row.status,
    sequence: Number(row.sequence),
    onlineMeetingUrl: row.online_meeting_url,
    graphEventId: row.graph_event_id,
    graphSubscriptionId: row.graph_subscription_id,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    canceledAt: row.canceled_at === null ? null : toIso(row.canceled_at),
    interviewerIds: participants
      .filter((p) => p.role === 'interviewer')
      .map((p) => p.user_id)
      .sort(),
    attendeeIds: participants
      .filter((p) => p.role === 'attendee')
      .map((p) => p.user_id)
      .sort(),
  };
}

async function participantsOf(
  db: Kysely<Database>,
  ids: string[],
): Promise<Map<string, { user_id: string; role: string }[]>> {
  const map = new Map<string, { user_id: string; role: string }[]>();
  if (ids.length === 0) return map;
  const rows = await db
    .selectFrom('interview_participants')
    .select(['interview_id', 'user_id', 'role'])
    .where('interview_id', 'in', ids)
    .execute();
  for (const row of rows) map.set(row.interview_id, [...(map.get(row.interview_id) ?? []), row]);
  return map;
}

/**
 * The interview if it belongs to the project; null otherwise (another project's interview is not revealed).
 * `lock` (inside a transaction): on PostgreSQL the row stays locked (FOR UPDATE) until the transaction
 * ends, so two changes of one interview run one after the other; SQLite runs one write transaction at a time already.
 */
export async function findInterview(
  db: Kysely<Database>,
  projectId: string,
  interviewId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<InterviewRecord | null> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const row = await db
    .selectFrom('interviews')
    .selectAll()
    .where('id', '=', interviewId)
    .where('project_id', '=', projectId)
    .$call((q) => (lock && postgres ? q.forUpdate() : q))
    .executeTakeFirst();
  if (!row) return null;
  return toRecord(row, (await participantsOf(db, [row.id])).get(row.id) ?? []);
}

/** The people these ids name (missing ids left out), by id. */
export async function contactsByIds(db: Kysely<Database>, ids: string[]): Promise<Map<string, InterviewContact>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email', 'status'])
    .where('id', 'in', unique)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, firstName: r.first_name, lastName: r.last_name, email: r.email, status: r.status },
    ]),
  );
}

const person = ({ id, firstName, lastName, email }: InterviewPerson): InterviewPerson => ({
  id,
  firstName,
  lastName,
  email,
});

const byName = (a: InterviewPerson, b: InterviewPerson) =>
  a.firstName.toLowerCase().localeCompare(b.firstName.toLowerCase()) ||
  a.lastName.toLowerCase().localeCompare(b.lastName.toLowerCase()) ||
  a.id.localeCompare(b.id);

/** Records as the api answers them, people by name. */
export async function toInterviews(db: Kysely<Database>, records: InterviewRecord[]): Promise<Interview[]> {
  const people = await contactsByIds(
    db,
    records.flatMap((r) => [...(r.organizerId ? [r.organizerId] : []), ...r.interviewerIds, ...r.attendeeIds]),
  );
  const list = (ids: string[]) => ids.flatMap((id) => (people.has(id) ? [person(people.get(id)!)] : [])).sort(byName);
  return records.map((r) => {
    const local = instantToZoned(r.startsAt, r.timeZone);
    const organizer = r.organizerId ? people.get(r.organizerId) : undefined;
    return {
      id: r.id,
      projectId: r.projectId,
      title: r.title,
      description: r.description,
      location: r.location,
      status: r.status,
      startsAt: new Date(r.startsAt).toISOString(),
      endsAt: new Date(r.endsAt).toISOString(),
      date: local.date,
      time: local.time,
      timeZone: r.timeZone,
      durationMinutes: Math.round((r.endsAt - r.startsAt) / 60_000),
      organizer: organizer ? person(organizer) : null,
      interviewers: list(r.interviewerIds),
      attendees: list(r.attendeeIds),
      onlineMeetingUrl: r.onlineMeetingUrl,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      canceledAt: r.canceledAt,
    };
  });
}

/**
 * A page of the project's interviews: `upcoming` (scheduled, not ended by `now`; soonest first), `past`
 * (scheduled and ended; newest first), `canceled` (newest first) or `all` (newest first).
 */
export async function listInterviews(
  db: Kysely<Database>,
  projectId: string,
  query: { when: InterviewWhen; limit: number; offset: number; now: number },
): Promise<{ results: Interview[]; total: number }> {
  const now = new Date(query.now).toISOString();
  let base = db.selectFrom('interviews').where('project_id', '=', projectId);
  if (query.when === 'upcoming') base = base.where('status', '=', 'scheduled').where('ends_at', '>', now);
  if (query.when === 'past') base = base.where('status', '=', 'scheduled').where('ends_at', '<=', now);
  if (query.when === 'canceled') base = base.where('status', '=', 'canceled');
  const direction = query.when === 'upcoming' ? 'asc' : 'desc';
  const [totalRow, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('starts_at', direction)
      .orderBy('id', direction)
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
  ]);
  const participants = await participantsOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    results: await toInterviews(
      db,
      rows.map((r) => toRecord(r, participants.get(r.id) ?? [])),
    ),
    total: toCount(totalRow.n as string | number),
  };
}

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

// ---------------------------------------------------------------------------------------------
// Who may take part (the rules of shared/src/core/interviews)

/** Which of these users may organize: active, holding Lead Consultant or Consultant on the project. */
export async function organizerIds(db: Kysely<Database>, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('project_members as pm')
    .innerJoin('users as u', 'u.id', 'pm.user_id')
    .select('u.id')
    .where('pm.project_id', '=', projectId)
    .where('pm.role', 'in', ORGANIZER_ROLES)
    .where('u.status', '=', 'active')
    .where('u.id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Which of these users may interview: active staff, auditors only with a role on the project. */
export async function interviewerIds(db: Kysely<Database>, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.id', 'in', ids)
    .where('u.status', '=', 'active')
    .where('u.is_tevora', '=', true)
    .where((eb) =>
      eb.or([
        eb('u.is_auditor', '=', false),
        eb.exists(
          eb
            .selectFrom('project_members as pm')
            .select('pm.user_id')
            .whereRef('pm.user_id', '=', 'u.id')
            .where('pm.project_id', '=', projectId),
        ),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Which of these users may attend: active, on the project's roster or members of its company whose access stands. */
export async function attendeeIds(
  db: Kysely<Database>,
  project: { id: string; companyId: string },
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.id', 'in', ids)
    .where('u.status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('project_members as pm')
            .select('pm.user_id')
            .whereRef('pm.user_id', '=', 'u.id')
            .where('pm.project_id', '=', project.id),
        ),
        eb.exists(
          eb
            .selectFrom('company_memberships as m')
            .select('m.user_id')
            .whereRef('m.user_id', '=', 'u.id')
            .where('m.company_id', '=', project.companyId)
            .where('m.access_revoked_at', 'is', null),
        ),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The form's pickers, by name. `staffDirectory` false (a client caller) lists as interviewers only the
 * staff of the project's roster, whom the caller sees there anyway, rather than every staff member.
 */
export async function interviewPeople(
  db: Kysely<Database>,
  project: { id: string; companyId: string },
  { staffDirectory }: { staffDirectory: boolean },
): Promise<InterviewPeople> {
  const onRoster = (roles?: readonly string[]) =>
    db
      .selectFrom('project_members as pm')
      .select('pm.user_id')
      .where('pm.project_id', '=', project.id)
      .$call((q) => (roles ? q.where('pm.role', 'in', roles as typeof ORGANIZER_ROLES) : q));
  const users = () =>
    db
      .selectFrom('users as u')
      .select(['u.id', 'u.first_name', 'u.last_name', 'u.email'])
      .where('u.status', '=', 'active');
  const [organizers, interviewers, attendees] = await Promise.all([
    users().where('u.id', 'in', onRoster(ORGANIZER_ROLES)).$call(orderByName).execute(),
    users()
      .where('u.is_tevora', '=', true)
      .where((eb) =>
        staffDirectory
          ? eb.or([eb('u.is_auditor', '=', false), eb('u.id', 'in', onRoster())])
          : eb('u.id', 'in', onRoster()),
      )
      .$call(orderByName)
      .execute(),
    users()
      .where((eb) =>
        eb.or([
          eb('u.id', 'in', onRoster()),
          eb(
            'u.id',
            'in',
            db
              .selectFrom('company_memberships')
              .select('user_id')
              .where('company_id', '=', project.companyId)
              .where('access_revoked_at', 'is', null),
          ),
        ]),
      )
      .$call(orderByName)
      .execute(),
  ]);
  const toPerson = (r: { id: string; first_name: string; last_name: string; email: string }): InterviewPerson => ({
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
  });
  return {
    organizers: organizers.map(toPerson),
    interviewers: interviewers.map(toPerson),
    attendees: attendees.map(toPerson),
  };
}
