/**
 * The people and teams around requests: naming people, who may be assigned (and checking assignees),
 * user and team refs by id, who hears of a change (participants, teams' active members), and the
 * pickers of the request pages.
 */
import { sql, type Kysely } from 'kysely';
import type { RequestAssigneeOptions, RequestUserRef, RequestTeamRef } from '@portal/shared/core/requests';
import type { RequestCaller } from '../request-access';
import type { Database } from '../schema';
import { inChunks, invalidField, userRefOf } from './internal';

/** "First Last" (the e-mail when both are empty): how history entries and notifications name people. */
export function displayName(user: Pick<RequestUserRef, 'firstName' | 'lastName' | 'email'>): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/**
 * The company's members a request may be assigned to (active client users whose access stands), in name
 * order; only those of `userIds` when given.
 */
function assignableMembers(db: Kysely<Database>, companyId: string, userIds?: readonly string[]) {
  return db
    .selectFrom('users as u')
    .innerJoin('company_memberships as m', 'm.user_id', 'u.id')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.is_tevora'])
    .$if(userIds !== undefined, (q) => q.where('u.id', 'in', userIds ?? []))
    .where('m.company_id', '=', companyId)
    .where('m.access_revoked_at', 'is', null)
    .where('u.status', '=', 'active')
    .where('u.is_tevora', '=', false)
    .orderBy(sql`lower(u.first_name)`)
    .orderBy(sql`lower(u.last_name)`)
    .orderBy('u.id')
    .execute();
}

/**
 * Checks assignees for a company: users must be active client members whose access stands, teams the
 * company's. Throws 400 `validation_failed` naming `assigneeIds` / `teamIds` (and the bad ids) otherwise.
 */
export async function resolveRequestAssignees(
  db: Kysely<Database>,
  companyId: string,
  input: { assigneeIds: string[]; teamIds: string[] },
): Promise<{ users: RequestUserRef[]; teams: RequestTeamRef[] }> {
  const userIds = [...new Set(input.assigneeIds)];
  const teamIds = [...new Set(input.teamIds)];
  const [users, teams] = await Promise.all([
    userIds.length === 0 ? Promise.resolve([]) : assignableMembers(db, companyId, userIds),
    teamIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('teams')
          .select(['id', 'name'])
          .where('id', 'in', teamIds)
          .where('company_id', '=', companyId)
          .orderBy(sql`lower(name)`)
          .orderBy('id')
          .execute(),
  ]);
  const foundUsers = new Set(users.map((u) => u.id));
  const strangers = userIds.filter((id) => !foundUsers.has(id));
  if (strangers.length) {
    throw invalidField(
      'assigneeIds',
      `assigneeIds holds users who are not active client members of this company: ${strangers.join(', ')}`,
    );
  }
  const foundTeams = new Set(teams.map((t) => t.id));
  const unknownTeams = teamIds.filter((id) => !foundTeams.has(id));
  if (unknownTeams.length)
    throw invalidField('teamIds', `teamIds holds teams that are not of this company: ${unknownTeams.join(', ')}`);
  return { users: users.map(userRefOf), teams: teams.map((t) => ({ id: t.id, name: t.name })) };
}

/** User refs by id (missing ids skipped). */
export async function requestUserRefs(db: Kysely<Database>, ids: string[]): Promise<Map<string, RequestUserRef>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email', 'is_tevora'])
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((r) => [r.id, userRefOf(r)]));
}

/** Team refs by id (missing ids skipped). */
export async function requestTeamRefs(db: Kysely<Database>, ids: string[]): Promise<Map<string, RequestTeamRef>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('teams').select(['id', 'name']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name }]));
}

/** activeTeamMemberIds by team: each team's active members (teams without any left out). */
export async function activeTeamMembersByTeam(db: Kysely<Database>, teamIds: string[]): Promise<Map<string, string[]>> {
  const members = new Map<string, string[]>();
  for (const part of inChunks([...new Set(teamIds)])) {
    const rows = await db
      .selectFrom('team_members as tm')
      .innerJoin('users as u', 'u.id', 'tm.user_id')
      .select(['tm.team_id', 'tm.user_id'])
      .where('tm.team_id', 'in', part)
      .where('u.status', '=', 'active')
      .orderBy('tm.user_id')
      .execute();
    for (const r of rows) members.set(r.team_id, [...(members.get(r.team_id) ?? []), r.user_id]);
  }
  return members;
}

/**
 * Who hears of a change to each of these requests (modules/requests/notices requestParticipants for
 * many at once): the requester while active, and the active assignees with their teams' members, by id.
 */
export async function requestParticipantsByRequest(
  db: Kysely<Database>,
  requestIds: string[],
): Promise<Map<string, { requesterId: string | null; assigneeIds: string[] }>> {
  const out = new Map<string, { requesterId: string | null; people: Set<string> }>();
  for (const part of inChunks([...new Set(requestIds)])) {
    const [requests, direct, viaTeams] = await Promise.all([
      db
        .selectFrom('requests')
        .leftJoin('users', 'users.id', 'requests.requester_id')
        .select(['requests.id', 'requests.requester_id', 'users.status'])
        .where('requests.id', 'in', part)
        .execute(),
      db.selectFrom('request_assignees').select(['request_id', 'user_id']).where('request_id', 'in', part).execute(),
      db
        .selectFrom('request_teams')
        .innerJoin('team_members', 'team_members.team_id', 'request_teams.team_id')
        .select(['request_teams.request_id', 'team_members.user_id'])
        .where('request_teams.request_id', 'in', part)
        .execute(),
    ]);
    for (const r of requests) {
      out.set(r.id, {
        requesterId: r.requester_id && r.status === 'active' ? r.requester_id : null,
        people: new Set(),
      });
    }
    for (const a of [...direct, ...viaTeams]) out.get(a.request_id)?.people.add(a.user_id);
  }
  const everyone = [...new Set([...out.values()].flatMap((p) => [...p.people]))];
  const active = new Set<string>();
  for (const part of inChunks(everyone)) {
    for (const u of await db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', part)
      .where('status', '=', 'active')
      .execute())
      active.add(u.id);
  }
  return new Map(
    [...out].map(([id, p]) => [
      id,
      { requesterId: p.requesterId, assigneeIds: [...p.people].filter((u) => active.has(u)).sort() },
    ]),
  );
}

/** The active members of these teams (for notices to a team's people). */
export async function activeTeamMemberIds(db: Kysely<Database>, teamIds: string[]): Promise<string[]> {
  if (teamIds.length === 0) return [];
  const rows = await db
    .selectFrom('team_members as tm')
    .innerJoin('users as u', 'u.id', 'tm.user_id')
    .select('tm.user_id')
    .distinct()
    .where('tm.team_id', 'in', teamIds)
    .where('u.status', '=', 'active')
    .execute();
  return rows.map((r) => r.user_id);
}

// ---------------------------------------------------------------------------------------------
// Pickers

/** The assignee, requester and project pickers of a company's requests (RequestAssigneeOptions). */
export async function requestAssigneeOptions(
  db: Kysely<Database>,
  companyId: string,
  caller: RequestCaller,
): Promise<RequestAssigneeOptions> {
  const [users, teams, requesters, projects] = await Promise.all([
    assignableMembers(db, companyId),
    db
      .selectFrom('teams')
      .select(['id', 'name'])
      .where('company_id', '=', companyId)
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('users as u')
      .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.is_tevora'])
      .where('u.is_tevora', '=', true)
      .where(
        'u.id',
        'in',
        db
          .selectFrom('requests')
          .select('requester_id')
          .where('company_id', '=', companyId)
          .where('requester_id', 'is not', null)
          .$narrowType<{ requester_id: string }>(),
      )
      .orderBy(sql`lower(u.first_name)`)
      .orderBy(sql`lower(u.last_name)`)
      .orderBy('u.id')
      .execute(),
    db
      .selectFrom('projects as p')
      .select(['p.id', 'p.title'])
      .where('p.company_id', '=', companyId)
      .$if(caller.isAuditor, (q) =>
        q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('project_members as pm')
              .select('pm.project_id')
              .whereRef('pm.project_id', '=', 'p.id')
              .where('pm.user_id', '=', caller.id),
          ),
        ),
      )
      .orderBy(sql`lower(p.title)`)
      .orderBy('p.id')
      .execute(),
  ]);
  return {
    users: users.map(userRefOf),
    teams: teams.map((t) => ({ id: t.id, name: t.name })),
    requesters: requesters.map(userRefOf),
    projects: projects.map((p) => ({ id: p.id, title: p.title })),
  };
}
