/**
 * Evidence requests (issue 8): one change to many requests of a company at once (assign, due date, a
 * status action), all or none, in a few statements whatever their number. Contract: shared/src/core/requests.
 */
import type { BodyOf } from '@portal/shared/core/contract';
import {
  REQUEST_TRANSITIONS,
  canApplyAction,
  type RequestAction,
  type RequestStatus,
} from '@portal/shared/core/requests';
import type * as api from '@portal/shared/core/requests/api';
import { requestScopeFor } from '../../db/request-access';
import {
  addAssigneesToRequests,
  applyRequestTransitions,
  findRequestRecords,
  recordRequestEvents,
  removeAssigneesFromRequests,
  requestParticipantsByRequest,
  resolveRequestAssignees,
  touchRequest,
  updateRequest,
  visibleRequestIds,
  type NewRequestEvent,
  type RequestAssigneeChange,
  type RequestRecord,
} from '../../db/requests';
import { nowIso } from '../../db/values';
import { auditAll, type AuditChange } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { assignedEffects, assigneeLookups, statusNoticeTo, unique, without } from './change-effects';
import { queueRequestNotices, type RequestNotice } from './notices';
import { statusChanged, type RequestChangeContext } from './service';
import { deliverAfterCommit } from './shared';

/** Past tense of the bulk transitions, for "REQ-0003 is accepted: it cannot be accepted". */
const DONE: Record<RequestAction, string> = {
  submit: 'submitted',
  accept: 'accepted',
  return: 'returned',
  cancel: 'canceled',
  reopen: 'reopened',
};

/** Applies one change to every request named (404 naming those the caller does not see); answers how many changed. */
export async function bulkUpdateRequests(
  { app, request, user }: RequestChangeContext,
  companyId: string,
  input: BodyOf<typeof api.bulkUpdateRequests>,
): Promise<{ updated: number }> {
  const { db } = app;
  const ids = unique(input.requestIds);
  const { updated, pending } = await db.transaction().execute(async (trx) => {
    const scope = await requestScopeFor(trx, user, companyId);
    const visible = await visibleRequestIds(trx, companyId, scope, ids);
    const missing = ids.filter((id) => !visible.has(id));
    if (missing.length) {
      throw new HttpError(404, 'request_not_found', undefined, [
        { field: 'requestIds', message: `Not found: ${missing.join(', ')}` },
      ]);
    }
    const records = (await findRequestRecords(trx, ids)).sort((a, b) =>
      a.reference.localeCompare(b.reference, 'en', { numeric: true }),
    );
    const events: NewRequestEvent[] = [];
    const notices: RequestNotice[] = [];
    const changes: AuditChange[] = [];
    const record = (r: RequestRecord, action: string, before: unknown, after: unknown) =>
      changes.push({
        action,
        targetType: 'request',
        targetId: r.id,
        targetLabel: `${r.reference} ${r.title}`,
        companyId,
        before,
        after,
      });

    // Every step below is one statement (or a few) for all the requests, not one per request.
    if (input.action === 'assign') {
      const given = await resolveRequestAssignees(trx, companyId, {
        assigneeIds: input.assigneeIds,
        teamIds: input.teamIds,
      });
      const userIds = given.users.map((u) => u.id);
      const teamIds = given.teams.map((t) => t.id);
      const moved = records.flatMap((r) => {
        const add: RequestAssigneeChange = {
          requestId: r.id,
          userIds: without(userIds, r.assigneeIds),
          teamIds: without(teamIds, r.teamIds),
        };
        const remove: RequestAssigneeChange =
          input.mode === 'replace'
            ? { requestId: r.id, userIds: without(r.assigneeIds, userIds), teamIds: without(r.teamIds, teamIds) }
            : { requestId: r.id, userIds: [], teamIds: [] };
        if (!add.userIds.length && !add.teamIds.length && !remove.userIds.length && !remove.teamIds.length) return [];
        return [{ r, add, remove }];
      });
      await addAssigneesToRequests(
        trx,
        moved.map((m) => m.add),
      );
      await removeAssigneesFromRequests(
        trx,
        moved.map((m) => m.remove),
      );
      await touchRequest(
        trx,
        moved.map((m) => m.r.id),
      );
      const removedUserIds = moved.flatMap((m) => m.remove.userIds);
      const removedTeamIds = moved.flatMap((m) => m.remove.teamIds);
      const lookups = await assigneeLookups(trx, [...userIds, ...removedUserIds], [...teamIds, ...removedTeamIds]);
      for (const { r, add, remove } of moved) {
        const effects = await assignedEffects(trx, user, r, add, remove, lookups);
        events.push(...effects.events);
        notices.push(...effects.notices);
        const after = {
          assigneeIds: unique([...without(r.assigneeIds, remove.userIds), ...add.userIds]).sort(),
          teamIds: unique([...without(r.teamIds, remove.teamIds), ...add.teamIds]).sort(),
        };
        record(r, 'request.update', { assigneeIds: r.assigneeIds, teamIds: r.teamIds }, after);
      }
    } else if (input.action === 'dueDate') {
      const moved = records.filter((r) => r.dueDate !== input.dueDate);
      await updateRequest(
        trx,
        moved.map((r) => r.id),
        { dueDate: input.dueDate },
      );
      for (const r of moved) {
        events.push({ requestId: r.id, actorId: user.id, type: 'updated', detail: { fields: ['dueDate'] } });
        record(r, 'request.update', { dueDate: r.dueDate }, { dueDate: input.dueDate });
      }
    } else {
      const action = input.transition;
      const refused = records.filter((r) => !canApplyAction(action, r.status));
      if (refused.length) {
        throw new HttpError(
          409,
          'invalid_status_transition',
          undefined,
          refused.map((r) => ({
            field: 'requestIds',
            message: `${r.reference} is ${r.status}: it cannot be ${DONE[action]}`,
          })),
        );
      }
      const to = REQUEST_TRANSITIONS[action].to;
      const at = nowIso();
      // Only from the statuses read above: a request a racing change moved meanwhile fails them all.
      for (const from of unique(records.map((r) => r.status)) as RequestStatus[]) {
        const group = records.filter((r) => r.status === from).map((r) => r.id);
        if ((await applyRequestTransitions(trx, group, { action, from, at })) !== group.length) throw statusChanged();
      }
      const people = await requestParticipantsByRequest(
        trx,
        records.map((r) => r.id),
      );
      for (const r of records) {
        events.push({
          requestId: r.id,
          actorId: user.id,
          type: 'status',
          detail: { from: r.status, to, action, reason: null },
        });
        notices.push(statusNoticeTo(user, r, people.get(r.id)));
        record(r, 'request.status', { status: r.status }, { status: to });
      }
    }
    const changed = changes.length;
    await auditAll(request, changes, trx);
    await recordRequestEvents(trx, events);
    return { updated: changed, pending: await queueRequestNotices(trx, notices) };
  });
  deliverAfterCommit(app, request.log, pending);
  return { updated };
}
