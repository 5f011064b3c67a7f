/**
 * Interviews as the repository reads them: the record (with its participants' ids), one interview of
 * a project (locked on PostgreSQL when asked), the people ids name, records as the api answers them,
 * and a page of a project's interviews.
 */
import { PostgresAdapter, type Kysely, type Selectable } from 'kysely';
import {
  instantToZoned,
  type Interview,
  type InterviewPerson,
  type InterviewWhen,
} from '@portal/shared/core/interviews';
import type { Database, InterviewsTable } from '../schema';
import { toCount, toIso } from '../values';

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
