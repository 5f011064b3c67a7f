/** Evidence requests (issue 8): list, create, assignees, bulk, detail, edit, transitions, history (helper A). Contract: shared/src/core/requests. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  REQUEST_TRANSITIONS,
  canApplyAction,
  formatRequestReference,
  type RequestAction,
  type RequestDetail,
  type RequestStatus,
  type RequestTeamRef,
  type RequestUserRef,
} from '@portal/shared/core/requests';
import { requestAccessFor, requestScopeFor } from '../../../db/request-access';
import {
  activeTeamMembersByTeam,
  addAssigneesToRequests,
  displayName,
  addRequestAssignees,
  allocateRequestNumbers,
  applyRequestTransition,
  applyRequestTransitions,
  findRequestRecord,
  findRequestRecords,
  insertRequest,
  listRequestEvents,
  listRequestIds,
  lockRequest,
  removeAssigneesFromRequests,
  removeRequestAssignees,
  requestAssigneeOptions,
  requestDetail,
  requestFileCount,
  requestParticipantsByRequest,
  requestSummariesByIds,
  requestTeamRefs,
  requestUserRefs,
  recordRequestEvents,
  resolveRequestAssignees,
  touchRequest,
  updateRequest,
  visibleRequestIds,
  type NewRequestEvent,
  type RequestAssigneeChange,
  type RequestChanges,
  type RequestRecord,
} from '../../../db/requests';
import type { Database } from '../../../db/schema';
import type { UserRecord } from '../../../db/users';
import { isUniqueViolationOf, nowIso } from '../../../db/values';
import { audit, auditAll, type AuditChange } from '../../../lib/audit';
import { HttpError } from '../../../lib/http-error';
import {
  noPendingNotices,
  queueRequestNotices,
  requestParticipants,
  type PendingNotices,
  type RequestNotice,
} from '../../../lib/request-notifications';
import { requireAuth } from '../../../plugins/app/auth';
import { policyCompany, policyRequest } from '../../../plugins/app/policies';
import * as api from '@portal/shared/core/requests/api';
import { route } from '../../../lib/contract';
import {
  assertManage,
  checkRequestLinks,
  deliverAfterCommit,
  requestNotFound,
  today,
} from '../../../modules/requests/shared';

const statusChanged = () => new HttpError(409, 'request_status_changed');

/** Past tense of the bulk transitions, for "REQ-0003 is accepted: it cannot be accepted". */
const DONE: Record<RequestAction, string> = {
  submit: 'submitted',
  accept: 'accepted',
  return: 'returned',
  cancel: 'canceled',
  reopen: 'reopened',
};

/** The fields an edit may change, in the order the history names them. */
const EDITABLE_FIELDS = [
  'title',
  'description',
  'internalNote',
  'priority',
  'dueDate',
  'projectId',
  'taskId',
  'controlId',
] as const satisfies readonly (keyof RequestChanges)[];

const unique = (ids: readonly string[]) => [...new Set(ids)];
const without = (ids: readonly string[], removed: readonly string[]) => ids.filter((id) => !removed.includes(id));

const noticeRequest = (r: { id: string; companyId: string; reference: string; title: string }) => ({
  id: r.id,
  companyId: r.companyId,
  reference: r.reference,
  title: r.title,
});

/** Names of users and teams, and the active members of the teams, read once for many requests. */
interface AssigneeLookups {
  users: Map<string, RequestUserRef>;
  teams: Map<string, RequestTeamRef>;
  members: Map<string, string[]>;
}

function statusNoticeTo(
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

/** The unique indexes a new request's reference may run into (PostgreSQL names; SQLite's texts). */
const REFERENCE_INDEXES = [
  'requests_company_number_key',
  'requests_company_reference_key',
  'requests.company_id, requests.number',
];

/** Who may manage comes before what was sent: a caller who may not learns nothing of the body's rules. */
async function mayManage(request: FastifyRequest): Promise<void> {
  assertManage((await requireAuth(request)).user);
}

export default async function requestsRoutes(app: FastifyInstance) {
  const { db } = app;

  async function detailFor(user: UserRecord, requestId: string): Promise<RequestDetail> {
    const access = await requestAccessFor(db, user, requestId);
    if (!access) throw requestNotFound();
    return requestDetail(db, access, user, today());
  }

  /** The names and team members assignedEffects needs for these users and teams, read once. */
  async function assigneeLookups(
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
  async function assignedEffects(
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
  async function statusNotice(trx: Kysely<Database>, actor: UserRecord, record: RequestRecord): Promise<RequestNotice> {
    return statusNoticeTo(actor, record, await requestParticipants(trx, record.id));
  }

  // ---------------------------------------------------------------------------------------------
  // A company's requests

  route(app, api.listRequests, async (request, reply) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    const { page, pageSize, ...query } = request.query;
    const day = today();
    const scope = await requestScopeFor(db, user, company.id);
    const { ids, total } = await listRequestIds(db, {
      companyId: company.id,
      scope,
      query,
      today: day,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    const results = await requestSummariesByIds(db, ids, { staff: user.isTevora, today: day });
    reply.header('cache-control', 'no-store');
    return { results, total, page, pageSize };
  });

  route(
    app,
    api.createRequest,
    async (request, reply) => {
      const company = policyCompany(request);
      const { user } = await requireAuth(request);
      const input = request.body;
      const links = {
        projectId: input.projectId ?? null,
        taskId: input.taskId ?? null,
        controlId: input.controlId ?? null,
      };
      const create = () =>
        db.transaction().execute(async (trx) => {
          await checkRequestLinks(trx, company.id, links);
          const assignees = await resolveRequestAssignees(trx, company.id, {
            assigneeIds: input.assigneeIds,
            teamIds: input.teamIds,
          });
          const [number] = await allocateRequestNumbers(trx, company.id, 1);
          const record = {
            id: randomUUID(),
            companyId: company.id,
            reference: formatRequestReference(number),
            title: input.title,
            dueDate: input.dueDate ?? null,
          };
          const userIds = assignees.users.map((u) => u.id);
          const teamIds = assignees.teams.map((t) => t.id);
          await insertRequest(trx, {
            ...record,
            ...links,
            number,
            description: input.description ?? null,
            internalNote: input.internalNote ?? null,
            priority: input.priority,
            requesterId: user.id,
            createdBy: user.id,
            assigneeIds: userIds,
            teamIds,
          });
          const assigned = await assignedEffects(trx, user, record, { userIds, teamIds });
          await recordRequestEvents(trx, [
            { requestId: record.id, actorId: user.id, type: 'created', detail: {} },
            ...assigned.events,
          ]);
          await audit(
            request,
            {
              action: 'request.create',
              targetType: 'request',
              targetId: record.id,
              targetLabel: `${record.reference} ${record.title}`,
              companyId: company.id,
              after: {
                reference: record.reference,
                title: record.title,
                priority: input.priority,
                dueDate: record.dueDate,
                ...links,
                assigneeIds: userIds,
                teamIds,
              },
            },
            trx,
          );
          return { id: record.id, pending: await queueRequestNotices(trx, assigned.notices) };
        });
      let created: { id: string; pending: PendingNotices };
      try {
        created = await create();
      } catch (error) {
        if (!isUniqueViolationOf(error, ...REFERENCE_INDEXES)) throw error;
        // Another request took the number meanwhile: once more with the next one.
        try {
          created = await create();
        } catch (again) {
          if (isUniqueViolationOf(again, ...REFERENCE_INDEXES)) throw new HttpError(409, 'request_reference_taken');
          throw again;
        }
      }
      deliverAfterCommit(app, request.log, created.pending);
      return reply.code(201).send(await detailFor(user, created.id));
    },
    { preValidation: mayManage },
  );

  route(app, api.listRequestAssigneeOptions, async (request, reply) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    reply.header('cache-control', 'no-store');
    return requestAssigneeOptions(db, company.id, user);
  });

  route(
    app,
    api.bulkUpdateRequests,
    async (request) => {
      const company = policyCompany(request);
      const { user } = await requireAuth(request);
      const input = request.body;
      const ids = unique(input.requestIds);
      const { updated, pending } = await db.transaction().execute(async (trx) => {
        const scope = await requestScopeFor(trx, user, company.id);
        const visible = await visibleRequestIds(trx, company.id, scope, ids);
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
            companyId: company.id,
            before,
            after,
          });

        // Every step below is one statement (or a few) for all the requests, not one per request.
        if (input.action === 'assign') {
          const given = await resolveRequestAssignees(trx, company.id, {
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
            if (!add.userIds.length && !add.teamIds.length && !remove.userIds.length && !remove.teamIds.length)
              return [];
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
            if ((await applyRequestTransitions(trx, group, { action, from, at })) !== group.length)
              throw statusChanged();
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
    },
    { preValidation: mayManage },
  );

  // ---------------------------------------------------------------------------------------------
  // One request

  route(app, api.getRequest, async (request, reply) => {
    const { user } = await requireAuth(request);
    const detail = await requestDetail(db, policyRequest(request), user, today());
    reply.header('cache-control', 'no-store');
    return detail;
  });

  route(app, api.updateRequest, async (request) => {
    const access = policyRequest(request);
    const { user } = await requireAuth(request);
    const input = request.body;
    const pending = await db.transaction().execute(async (trx) => {
      const current = await findRequestRecord(trx, access.request.id);
      if (!current) throw requestNotFound();
      const projectChanged = input.projectId !== undefined && input.projectId !== current.projectId;
      // A task or control belongs to the old project: a new project clears them unless the edit names new ones.
      const next: Required<RequestChanges> = {
        title: input.title ?? current.title,
        description: input.description !== undefined ? input.description : current.description,
        internalNote: input.internalNote !== undefined ? input.internalNote : current.internalNote,
        priority: input.priority ?? current.priority,
        dueDate: input.dueDate !== undefined ? input.dueDate : current.dueDate,
        projectId: input.projectId !== undefined ? input.projectId : current.projectId,
        taskId: input.taskId !== undefined ? input.taskId : projectChanged ? null : current.taskId,
        controlId: input.controlId !== undefined ? input.controlId : projectChanged ? null : current.controlId,
      };
      await checkRequestLinks(trx, current.companyId, next, {
        projectId: projectChanged,
        taskId: next.taskId !== current.taskId || projectChanged,
        controlId: next.controlId !== current.controlId || projectChanged,
      });
      const fields = EDITABLE_FIELDS.filter((field) => next[field] !== current[field]);
      // Only newcomers are checked: someone whose access lapsed may stay on a request they already hold.
      const added = { userIds: [] as string[], teamIds: [] as string[] };
      const removed = { userIds: [] as string[], teamIds: [] as string[] };
      if (input.assigneeIds !== undefined || input.teamIds !== undefined) {
        const userIds = input.assigneeIds === undefined ? current.assigneeIds : unique(input.assigneeIds);
        const teamIds = input.teamIds === undefined ? current.teamIds : unique(input.teamIds);
        const newcomers = await resolveRequestAssignees(trx, current.companyId, {
          assigneeIds: without(userIds, current.assigneeIds),
          teamIds: without(teamIds, current.teamIds),
        });
        added.userIds = newcomers.users.map((u) => u.id);
        added.teamIds = newcomers.teams.map((t) => t.id);
        removed.userIds = without(current.assigneeIds, userIds);
        removed.teamIds = without(current.teamIds, teamIds);
      }
      const reassigned =
        added.userIds.length + added.teamIds.length + removed.userIds.length + removed.teamIds.length > 0;
      if (fields.length === 0 && !reassigned) return noPendingNotices();

      const changes: RequestChanges = Object.fromEntries(fields.map((field) => [field, next[field]]));
      // An edit of the internal note alone leaves updated_at as it was (clients see it); assignees are not internal.
      await updateRequest(trx, current.id, changes);
      if (reassigned && fields.every((field) => field === 'internalNote')) await touchRequest(trx, current.id);
      await addRequestAssignees(trx, current.id, added);
      await removeRequestAssignees(trx, current.id, removed);
      const events: NewRequestEvent[] = [];
      if (fields.length) {
        events.push({
          requestId: current.id,
          actorId: user.id,
          type: 'updated',
          detail: { fields: [...fields] },
          internal: fields.every((field) => field === 'internalNote'),
        });
      }
      const record = { ...current, title: next.title, dueDate: next.dueDate };
      const assigned = await assignedEffects(trx, user, record, added, removed);
      await recordRequestEvents(trx, [...events, ...assigned.events]);
      const before: Record<string, unknown> = Object.fromEntries(fields.map((field) => [field, current[field]]));
      const after: Record<string, unknown> = { ...changes };
      if (reassigned) {
        before.assigneeIds = current.assigneeIds;
        before.teamIds = current.teamIds;
        after.assigneeIds = unique([...without(current.assigneeIds, removed.userIds), ...added.userIds]).sort();
        after.teamIds = unique([...without(current.teamIds, removed.teamIds), ...added.teamIds]).sort();
      }
      await audit(
        request,
        {
          action: 'request.update',
          targetType: 'request',
          targetId: current.id,
          targetLabel: `${current.reference} ${next.title}`,
          companyId: current.companyId,
          before,
          after,
        },
        trx,
      );
      return queueRequestNotices(trx, assigned.notices);
    });
    deliverAfterCommit(app, request.log, pending);
    return detailFor(user, access.request.id);
  });

  route(app, api.transitionRequest, async (request) => {
    const access = policyRequest(request);
    const { user } = await requireAuth(request);
    const input = request.body;
    const rule = REQUEST_TRANSITIONS[input.action];
    if (rule.by === 'manage' ? !access.manage : !access.respond) throw new HttpError(403, 'forbidden');
    const reason = input.reason ?? null;
    const pending = await db.transaction().execute(async (trx) => {
      // The row first: an evidence upload or removal running meanwhile ends before the status and the
      // files are read here (or waits for this to end), so a submit never counts a file being removed.
      if ((await lockRequest(trx, access.request.id)) === null) throw requestNotFound();
      const current = await findRequestRecord(trx, access.request.id);
      if (!current) throw requestNotFound();
      if (input.expectedStatus && input.expectedStatus !== current.status) throw statusChanged();
      if (!canApplyAction(input.action, current.status)) throw new HttpError(409, 'invalid_status_transition');
      if (input.action === 'submit' && (await requestFileCount(trx, current.id)) === 0)
        throw new HttpError(409, 'request_evidence_missing');
      // Only from the status read above (a second guard: the lock already orders racing changes).
      if (!(await applyRequestTransition(trx, current.id, { action: input.action, from: current.status, reason })))
        throw statusChanged();
      const from: RequestStatus = current.status;
      await recordRequestEvents(trx, [
        {
          requestId: current.id,
          actorId: user.id,
          type: 'status',
          detail: { from, to: rule.to, action: input.action, reason },
        },
      ]);
      await audit(
        request,
        {
          action: 'request.status',
          targetType: 'request',
          targetId: current.id,
          targetLabel: `${current.reference} ${current.title}`,
          companyId: current.companyId,
          before: { status: from },
          after: { status: rule.to, ...(reason ? { reason } : {}) },
        },
        trx,
      );
      return queueRequestNotices(trx, [await statusNotice(trx, user, current)]);
    });
    deliverAfterCommit(app, request.log, pending);
    return detailFor(user, access.request.id);
  });

  route(app, api.listRequestHistory, async (request, reply) => {
    const access = policyRequest(request);
    const results = await listRequestEvents(db, access.request.id, { staff: access.staff });
    reply.header('cache-control', 'no-store');
    return { results };
  });
}
