/**
 * Evidence requests (issue 8): reading a company's requests and one request, creating, editing and
 * moving one through its statuses (bulk changes: bulk.ts; history entries and notices:
 * change-effects.ts). Each change runs in one transaction with its history, audit record and bells;
 * its mails go out after the commit. Contract: shared/src/core/requests.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { BodyOf, QueryOf } from '@portal/shared/core/contract';
import {
  REQUEST_TRANSITIONS,
  canApplyAction,
  formatRequestReference,
  type RequestDetail,
  type RequestStatus,
} from '@portal/shared/core/requests';
import type * as api from '@portal/shared/core/requests/api';
import { requestAccessFor, requestScopeFor, type RequestAccess } from '../../db/request-access';
import {
  addRequestAssignees,
  allocateRequestNumbers,
  applyRequestTransition,
  findRequestRecord,
  insertRequest,
  listRequestIds,
  lockRequest,
  recordRequestEvents,
  removeRequestAssignees,
  requestDetail,
  requestFileCount,
  requestSummariesByIds,
  resolveRequestAssignees,
  touchRequest,
  updateRequest,
  type NewRequestEvent,
  type RequestChanges,
} from '../../db/requests';
import type { Database } from '../../db/schema';
import type { UserRecord } from '../../db/users';
import { isUniqueViolationOf } from '../../db/values';
import { audit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { assignedEffects, statusNotice, unique, without } from './change-effects';
import { noPendingNotices, queueRequestNotices, type PendingNotices } from './notices';
import { withPermissions } from './permissions';
import { checkRequestLinks, deliverAfterCommit, requestNotFound, today } from './shared';

export const statusChanged = () => new HttpError(409, 'request_status_changed');

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

/** The unique indexes a new request's reference may run into (PostgreSQL names; SQLite's texts). */
const REFERENCE_INDEXES = [
  'requests_company_number_key',
  'requests_company_reference_key',
  'requests.company_id, requests.number',
];

/** Who changes requests, and how: the audit records name the signed-in caller of `request`; notices go out through `app`. */
export interface RequestChangeContext {
  app: FastifyInstance;
  request: FastifyRequest;
  user: UserRecord;
}

/** A page of the company's requests the user sees. */
export async function listCompanyRequests(
  db: Kysely<Database>,
  user: UserRecord,
  companyId: string,
  input: QueryOf<typeof api.listRequests>,
) {
  const { page, pageSize, ...query } = input;
  const day = today();
  const scope = await requestScopeFor(db, user, companyId);
  const { ids, total } = await listRequestIds(db, {
    companyId,
    scope,
    query,
    today: day,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  const results = await requestSummariesByIds(db, ids, { staff: user.isTevora, today: day });
  return { results, total, page, pageSize };
}

/** The request as the user sees it now (404 when they no longer do). */
export async function requestDetailFor(
  db: Kysely<Database>,
  user: UserRecord,
  requestId: string,
): Promise<RequestDetail> {
  const access = await requestAccessFor(db, user, requestId);
  if (!access) throw requestNotFound();
  return requestDetailOf(db, access, user);
}

/** The request the caller's access names, with what they may do with it. */
export async function requestDetailOf(
  db: Kysely<Database>,
  access: RequestAccess,
  user: Pick<UserRecord, 'id'>,
): Promise<RequestDetail> {
  return withPermissions(await requestDetail(db, access, today()), access, user.id);
}

/** Creates a request of the company (its number the next free one; once more when another took it meanwhile). */
export async function createRequest(
  { app, request, user }: RequestChangeContext,
  companyId: string,
  input: BodyOf<typeof api.createRequest>,
): Promise<RequestDetail> {
  const { db } = app;
  const links = {
    projectId: input.projectId ?? null,
    taskId: input.taskId ?? null,
    controlId: input.controlId ?? null,
  };
  const create = () =>
    db.transaction().execute(async (trx) => {
      await checkRequestLinks(trx, companyId, links);
      const assignees = await resolveRequestAssignees(trx, companyId, {
        assigneeIds: input.assigneeIds,
        teamIds: input.teamIds,
      });
      const [number] = await allocateRequestNumbers(trx, companyId, 1);
      const record = {
        id: randomUUID(),
        companyId,
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
          companyId,
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
  return requestDetailFor(db, user, created.id);
}

/** Edits a request's fields and assignees; what did not change leaves no history, audit record or notice. */
export async function editRequest(
  { app, request, user }: RequestChangeContext,
  access: RequestAccess,
  input: BodyOf<typeof api.updateRequest>,
): Promise<RequestDetail> {
  const { db } = app;
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
  return requestDetailFor(db, user, access.request.id);
}

/** Applies a status action (submit, accept, return, cancel, reopen) the caller's access allows. */
export async function transitionRequest(
  { app, request, user }: RequestChangeContext,
  access: RequestAccess,
  input: BodyOf<typeof api.transitionRequest>,
): Promise<RequestDetail> {
  const { db } = app;
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
  return requestDetailFor(db, user, access.request.id);
}
