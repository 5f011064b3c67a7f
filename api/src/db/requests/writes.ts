/**
 * Writing requests: their own columns as the routes change them, numbering, inserting, editing,
 * touching updated_at, the row lock, and the workflow's transitions (one request or many). Assignee
 * changes are in assignees.ts.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import {
  REQUEST_TRANSITIONS,
  formatRequestReference,
  type RequestAction,
  type RequestPriority,
  type RequestStatus,
} from '@portal/shared/core/requests';
import type { Database } from '../schema';
import { nowIso } from '../values';
import { addRequestAssignees } from './assignees';
import { inChunks, requestRows } from './internal';

/** A request's own columns, as the routes change them. */
export interface RequestRecord {
  id: string;
  companyId: string;
  projectId: string | null;
  taskId: string | null;
  controlId: string | null;
  reference: string;
  title: string;
  description: string | null;
  internalNote: string | null;
  priority: RequestPriority;
  dueDate: string | null;
  status: RequestStatus;
  requesterId: string | null;
  /** Direct assignees and teams, by id (sorted). */
  assigneeIds: string[];
  teamIds: string[];
}

/** The requests of `ids` with their assignees, in no particular order (missing ids skipped). */
export async function findRequestRecords(db: Kysely<Database>, ids: string[]): Promise<RequestRecord[]> {
  const rows = await requestRows(db, ids);
  if (rows.length === 0) return [];
  const found = rows.map((r) => r.id);
  const [assignees, teams] = await Promise.all([
    db
      .selectFrom('request_assignees')
      .select(['request_id', 'user_id'])
      .where('request_id', 'in', found)
      .orderBy('user_id')
      .execute(),
    db
      .selectFrom('request_teams')
      .select(['request_id', 'team_id'])
      .where('request_id', 'in', found)
      .orderBy('team_id')
      .execute(),
  ]);
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    projectId: r.project_id,
    taskId: r.task_id,
    controlId: r.control_id,
    reference: r.reference,
    title: r.title,
    description: r.description,
    internalNote: r.internal_note,
    priority: r.priority,
    dueDate: r.due_date,
    status: r.status,
    requesterId: r.requester_id,
    assigneeIds: assignees.filter((a) => a.request_id === r.id).map((a) => a.user_id),
    teamIds: teams.filter((t) => t.request_id === r.id).map((t) => t.team_id),
  }));
}

export async function findRequestRecord(db: Kysely<Database>, id: string): Promise<RequestRecord | null> {
  const [record] = await findRequestRecords(db, [id]);
  return record ?? null;
}

export interface NewRequest {
  id: string;
  companyId: string;
  projectId: string | null;
  taskId: string | null;
  controlId: string | null;
  reference: string;
  /** null: the reference was given (an import). */
  number: number | null;
  title: string;
  description: string | null;
  internalNote: string | null;
  priority: RequestPriority;
  dueDate: string | null;
  requesterId: string | null;
  createdBy: string | null;
  assigneeIds: string[];
  teamIds: string[];
  createdAt?: string;
}

/** Inserts an open request with its assignees. */
export async function insertRequest(db: Kysely<Database>, input: NewRequest): Promise<void> {
  const now = input.createdAt ?? nowIso();
  await db
    .insertInto('requests')
    .values({
      id: input.id,
      company_id: input.companyId,
      project_id: input.projectId,
      task_id: input.taskId,
      control_id: input.controlId,
      reference: input.reference,
      number: input.number,
      title: input.title,
      description: input.description,
      internal_note: input.internalNote,
      priority: input.priority,
      due_date: input.dueDate,
      status: 'open',
      return_reason: null,
      requester_id: input.requesterId,
      created_by: input.createdBy,
      created_at: now,
      updated_at: now,
      submitted_at: null,
      accepted_at: null,
      canceled_at: null,
    })
    .execute();
  await addRequestAssignees(db, input.id, { userIds: input.assigneeIds, teamIds: input.teamIds });
}

export interface RequestChanges {
  title?: string;
  description?: string | null;
  internalNote?: string | null;
  priority?: RequestPriority;
  dueDate?: string | null;
  projectId?: string | null;
  taskId?: string | null;
  controlId?: string | null;
}

const CHANGE_COLUMNS: Record<keyof RequestChanges, keyof Database['requests']> = {
  title: 'title',
  description: 'description',
  internalNote: 'internal_note',
  priority: 'priority',
  dueDate: 'due_date',
  projectId: 'project_id',
  taskId: 'task_id',
  controlId: 'control_id',
};

/**
 * Writes the given fields to these requests, and updated_at unless only the internal note changes
 * (clients see updated_at: a staff-only edit must not show through it).
 */
export async function updateRequest(
  db: Kysely<Database>,
  requestId: string | readonly string[],
  changes: RequestChanges,
  at = nowIso(),
): Promise<void> {
  const ids = typeof requestId === 'string' ? [requestId] : [...requestId];
  const values: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(CHANGE_COLUMNS) as [keyof RequestChanges, string][]) {
    if (changes[key] !== undefined) values[column] = changes[key];
  }
  if (Object.keys(changes).some((key) => key !== 'internalNote' && changes[key as keyof RequestChanges] !== undefined))
    values.updated_at = at;
  if (ids.length === 0 || Object.keys(values).length === 0) return;
  for (const part of inChunks(ids)) await db.updateTable('requests').set(values).where('id', 'in', part).execute();
}

/**
 * Locks the request's row until the transaction ends (PostgreSQL; SQLite runs one write transaction at a
 * time) and answers its status, null when it is gone: uploads, removals and transitions of one request
 * run one after the other, so a submit counts the files a removal leaves.
 */
export async function lockRequest(trx: Kysely<Database>, requestId: string): Promise<RequestStatus | null> {
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  const row = await trx
    .selectFrom('requests')
    .select('status')
    .where('id', '=', requestId)
    .$call((q) => (postgres ? q.forUpdate() : q))
    .executeTakeFirst();
  return row?.status ?? null;
}

/**
 * Moves a request from `from` by `action`, only if it still is in `from` (a racing change that moved it
 * first makes this one match nothing). Returns whether it moved.
 */
export async function applyRequestTransition(
  db: Kysely<Database>,
  requestId: string,
  change: { action: RequestAction; from: RequestStatus; reason?: string | null; at?: string },
): Promise<boolean> {
  return (await applyRequestTransitions(db, [requestId], change)) === 1;
}

/** applyRequestTransition for many requests all in `from`: answers how many moved. */
export async function applyRequestTransitions(
  db: Kysely<Database>,
  requestIds: readonly string[],
  change: { action: RequestAction; from: RequestStatus; reason?: string | null; at?: string },
): Promise<number> {
  const at = change.at ?? nowIso();
  const to = REQUEST_TRANSITIONS[change.action].to;
  const values: Record<string, unknown> = { status: to, updated_at: at };
  switch (change.action) {
    case 'submit':
      values.submitted_at = at;
      values.return_reason = null;
      break;
    case 'accept':
      values.accepted_at = at;
      break;
    case 'return':
      values.return_reason = change.reason ?? null;
      // the reports' returned rate (issue 9): how often a request went back to the client
      values.return_count = sql`return_count + 1`;
      break;
    case 'cancel':
      values.canceled_at = at;
      break;
    case 'reopen':
      values.return_reason = null;
      values.accepted_at = null;
      values.canceled_at = null;
      break;
  }
  let moved = 0;
  for (const part of inChunks([...new Set(requestIds)])) {
    const result = await db
      .updateTable('requests')
      .set(values)
      .where('id', 'in', part)
      .where('status', '=', change.from)
      .executeTakeFirst();
    moved += Number(result.numUpdatedRows);
  }
  return moved;
}

/** Sets updated_at to now (any change: evidence, comment, status), of one request or many. */
export async function touchRequest(
  db: Kysely<Database>,
  requestId: string | readonly string[],
  at?: string,
): Promise<void> {
  const updatedAt = at ?? nowIso();
  for (const part of inChunks(typeof requestId === 'string' ? [requestId] : [...new Set(requestId)])) {
    await db.updateTable('requests').set({ updated_at: updatedAt }).where('id', 'in', part).execute();
  }
}

/**
 * `count` fresh request numbers of the company (REQ-<number>), after the highest given so far, skipping
 * numbers whose reference an import already gave (a REQ-0007 named in a file). Call in the transaction
 * that inserts them (on PostgreSQL it holds the company's numbering lock until then); the unique indexes (company_id, number) and (company_id, lower(reference)) refuse
 * a racing duplicate.
 */
export async function allocateRequestNumbers(
  db: Kysely<Database>,
  companyId: string,
  count: number,
): Promise<number[]> {
  // PostgreSQL: concurrent creations in one company number one after the other (until the caller's
  // transaction ends) instead of racing to the unique index; SQLite runs one transaction at a time already.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtext(${`request-numbers:${companyId}`}))`.execute(db);
  }
  const row = await db
    .selectFrom('requests')
    .select((eb) => eb.fn.max('number').as('top'))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  let next = (Number(row?.top ?? 0) || 0) + 1;
  const numbers: number[] = [];
  while (numbers.length < count) {
    const candidates = Array.from({ length: count - numbers.length }, (_, i) => next + i);
    next += candidates.length;
    const taken = await db
      .selectFrom('requests')
      .select(sql<string>`lower(reference)`.as('reference'))
      .where('company_id', '=', companyId)
      .where(
        sql`lower(reference)`,
        'in',
        candidates.map((n) => formatRequestReference(n).toLowerCase()),
      )
      .execute();
    const takenSet = new Set(taken.map((r) => r.reference));
    numbers.push(...candidates.filter((n) => !takenSet.has(formatRequestReference(n).toLowerCase())));
  }
  return numbers;
}
