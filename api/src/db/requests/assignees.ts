/**
 * Adding users and teams to requests and taking them off, for one request or many in a few
 * statements (checking who may be assigned is resolveRequestAssignees, in people.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import { inChunks } from './internal';

/** Users and teams to add to (or take off) one request. */
export interface RequestAssigneeChange {
  requestId: string;
  userIds: string[];
  teamIds: string[];
}

/** Adds assignees and teams a request does not hold yet. */
export async function addRequestAssignees(
  db: Kysely<Database>,
  requestId: string,
  input: { userIds: string[]; teamIds: string[] },
): Promise<void> {
  await addAssigneesToRequests(db, [{ requestId, ...input }]);
}

/** addRequestAssignees for many requests, in a few multi-row inserts. */
export async function addAssigneesToRequests(db: Kysely<Database>, changes: RequestAssigneeChange[]): Promise<void> {
  const users = changes.flatMap((c) =>
    [...new Set(c.userIds)].map((user_id) => ({ request_id: c.requestId, user_id })),
  );
  const teams = changes.flatMap((c) =>
    [...new Set(c.teamIds)].map((team_id) => ({ request_id: c.requestId, team_id })),
  );
  for (const part of inChunks(users)) {
    await db
      .insertInto('request_assignees')
      .values(part)
      .onConflict((oc) => oc.columns(['request_id', 'user_id']).doNothing())
      .execute();
  }
  for (const part of inChunks(teams)) {
    await db
      .insertInto('request_teams')
      .values(part)
      .onConflict((oc) => oc.columns(['request_id', 'team_id']).doNothing())
      .execute();
  }
}

/** Takes these users and teams off a request. */
export async function removeRequestAssignees(
  db: Kysely<Database>,
  requestId: string,
  input: { userIds: string[]; teamIds: string[] },
): Promise<void> {
  await removeAssigneesFromRequests(db, [{ requestId, ...input }]);
}

/** Requests per delete statement of removeAssigneesFromRequests (each names its own users or teams). */
const REMOVE_CHUNK = 100;

/** removeRequestAssignees for many requests, a few requests per statement. */
export async function removeAssigneesFromRequests(
  db: Kysely<Database>,
  changes: RequestAssigneeChange[],
): Promise<void> {
  for (const part of inChunks(
    changes.filter((c) => c.userIds.length),
    REMOVE_CHUNK,
  )) {
    await db
      .deleteFrom('request_assignees')
      .where((eb) =>
        eb.or(part.map((c) => eb.and([eb('request_id', '=', c.requestId), eb('user_id', 'in', c.userIds)]))),
      )
      .execute();
  }
  for (const part of inChunks(
    changes.filter((c) => c.teamIds.length),
    REMOVE_CHUNK,
  )) {
    await db
      .deleteFrom('request_teams')
      .where((eb) =>
        eb.or(part.map((c) => eb.and([eb('request_id', '=', c.requestId), eb('team_id', 'in', c.teamIds)]))),
      )
      .execute();
  }
}
