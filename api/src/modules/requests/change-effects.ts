/**
 * What a change of evidence requests leaves besides the rows (issue 8): its history entries and the
 * notices it queues (assignment, status). Used by service.ts and bulk.ts. Contract: shared/src/core/requests.
 */
import type { Kysely } from 'kysely';
import type { RequestTeamRef, RequestUserRef } from '@portal/shared/core/requests';
import {
  activeTeamMembersByTeam,
  displayName,
  requestTeamRefs,
  requestUserRefs,
  type NewRequestEvent,
  type RequestRecord,
} from '../../db/requests';
import type { Database } from '../../db/schema';
import type { UserRecord } from '../../db/users';
import { requestParticipants, type RequestNotice } from './notices';

export const unique = (ids: readonly string[]) => [...new Set(ids)];
export const without = (ids: readonly string[], removed: readonly string[]) =>
  ids.filter((id) => !removed.includes(id));

const noticeRequest = (r: { id: string; companyId: string; reference: string; title: string }) => ({
  id: r.id,
  companyId: r.companyId,
  reference: r.reference,
  title: r.title,
});

/** Names of users and teams, and the active members of the teams, read once for many requests. */
export interface AssigneeLookups {
  users: Map<string, RequestUserRef>;
  teams: Map<string, RequestTeamRef>;
  members: Map<string, string[]>;
}

export function statusNoticeTo(
  actor: UserRecord,
  record: RequestRecord,
  people: { requesterId: string | null; assigneeIds: string[] } | undefined,
): RequestNotice {
  return {
    kind: 'status',
    request: noticeRequest(record),
    actorId: actor.id,
    userIds: people ? unique([...(people.requesterId ? [people.requesterId] : []), ...people.assigneeIds]) : [],
  };
}

/** The names and team members assignedEffects needs for these users and teams, read once. */
export async function assigneeLookups(
  trx: Kysely<Database>,
  userIds: string[],
  teamIds: string[],
): Promise<AssigneeLookups> {
  const [users, teams, members] = await Promise.all([
    requestUserRefs(trx, userIds),
    requestTeamRefs(trx, teamIds),
    activeTeamMembersByTeam(trx, teamIds),
  ]);
  return { users, teams, members };
}

/**
 * History and notices of new assignees of a request: one `assigned` entry naming them and one
 * assignment notice to them (team members expanded). `lookups` (a bulk change's, read once) must
 * cover every user and team named.
 */
export async function assignedEffects(
  trx: Kysely<Database>,
  actor: UserRecord,
  record: { id: string; companyId: string; reference: string; title: string; dueDate: string | null },
  added: { userIds: string[]; teamIds: string[] },
  removed: { userIds: string[]; teamIds: string[] } = { userIds: [], teamIds: [] },
  lookups?: AssigneeLookups,
): Promise<{ events: NewRequestEvent[]; notices: RequestNotice[] }> {
  const { users, teams, members } =
    lookups ??
    (await assigneeLookups(trx, [...added.userIds, ...removed.userIds], [...added.teamIds, ...removed.teamIds]));
  const userNames = (ids: string[]) => ids.flatMap((id) => (users.has(id) ? [displayName(users.get(id)!)] : []));
  const teamNames = (ids: string[]) => ids.flatMap((id) => (teams.has(id) ? [teams.get(id)!.name] : []));
  const events: NewRequestEvent[] = [];
  const notices: RequestNotice[] = [];
  if (added.userIds.length || added.teamIds.length) {
    events.push({
      requestId: record.id,
      actorId: actor.id,
      type: 'assigned',
      detail: { users: userNames(added.userIds), teams: teamNames(added.teamIds) },
    });
    const recipients = unique([...added.userIds, ...added.teamIds.flatMap((id) => members.get(id) ?? [])]);
    notices.push({
      kind: 'assigned',
      request: noticeRequest(record),
      actorId: actor.id,
      userIds: recipients,
    });
  }
  if (removed.userIds.length || removed.teamIds.length) {
    events.push({
      requestId: record.id,
      actorId: actor.id,
      type: 'unassigned',
      detail: { users: userNames(removed.userIds), teams: teamNames(removed.teamIds) },
    });
  }
  return { events, notices };
}

/** A status notice to the requester and the assignees (teams expanded); the text comes from the request's new state. */
export async function statusNotice(
  trx: Kysely<Database>,
  actor: UserRecord,
  record: RequestRecord,
): Promise<RequestNotice> {
  return statusNoticeTo(actor, record, await requestParticipants(trx, record.id));
}
