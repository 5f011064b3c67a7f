/**
 * Evidence requests (issue 8): the repository. Contract: shared/src/core/requests; who sees what:
 * db/request-access.ts. Every function takes a Kysely (the db or a transaction).
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { PostgresAdapter, sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import {
  REQUEST_ACTIONS,
  REQUEST_ACTIVE_STATUSES,
  REQUEST_PRIORITIES,
  REQUEST_STATUSES,
  REQUEST_TRANSITIONS,
  evidenceEditable,
  formatRequestReference,
  isRequestOverdue,
  type RequestAction,
  type RequestAssigneeOptions,
  type RequestDetail,
  type RequestEvent,
  type RequestEventType,
  type RequestFile,
  type RequestPriority,
  type RequestStatus,
  type RequestSummary,
  type requestsQuerySchema,
  type RequestUserRef,
  type RequestTeamRef,
} from '@portal/shared/core/requests';
import { HttpError } from '../lib/http-error';
import { requestVisible, type RequestAccess, type RequestCaller, type RequestScope } from './request-access';
import type { Database } from './schema';
import { likePattern, nowIso, toBool, toCount, toIso } from './values';

/** The parsed list query (requestsQuerySchema output; paging is the options' limit and offset). */
export type RequestListQuery = Omit<z.output<typeof requestsQuerySchema>, 'page' | 'pageSize'>;

export interface RequestListOptions {
  companyId: string;
  scope: RequestScope;
  query: RequestListQuery;
  /** YYYY-MM-DD: the day overdue is judged against (the server's UTC day). */
  today: string;
  limit: number;
  offset: number;
}

type RequestsEb = ExpressionBuilder<Database, 'requests'>;

/** 400 validation_failed naming `field`. */
const invalidField = (field: string, message: string) =>
  new HttpError(400, 'validation_failed', `Invalid field: ${field}`, [{ field, message }]);

/** Ids in one `in (...)` list and rows in one multi-row insert: within every bind parameter limit. */
const CHUNK = 500;

function inChunks<T>(values: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

/** A rank in the order of `values` (the workflow's statuses, the priorities from low), for sorting. */
function rankOf(column: 'requests.status' | 'requests.priority', values: readonly string[]): Expression<number> {
  return sql<number>`case ${sql.ref(column)} ${sql.join(
    values.map((v, i) => sql`when ${sql.lit(v)} then ${sql.lit(i)}`),
    sql` `,
  )} else ${sql.lit(values.length)} end`;
}

/** Assigned to `userId`, directly or through one of their teams. */
function assignedTo(eb: RequestsEb, userId: string): Expression<SqlBool> {
  return eb.or([
    eb.exists(
      eb
        .selectFrom('request_assignees as ra')
        .select(sql`1`.as('one'))
        .whereRef('ra.request_id', '=', 'requests.id')
        .where('ra.user_id', '=', userId),
    ),
    eb.exists(
      eb
        .selectFrom('request_teams as rt')
        .innerJoin('team_members as tm', 'tm.team_id', 'rt.team_id')
        .select(sql`1`.as('one'))
        .whereRef('rt.request_id', '=', 'requests.id')
        .where('tm.user_id', '=', userId),
    ),
  ]);
}

function listFilters(eb: RequestsEb, options: RequestListOptions): Expression<SqlBool>[] {
  const { query, scope, today } = options;
  const where: Expression<SqlBool>[] = [eb('requests.company_id', '=', options.companyId), requestVisible(eb, scope)];
  if (query.status?.length) where.push(eb('requests.status', 'in', query.status));
  if (query.priority?.length) where.push(eb('requests.priority', 'in', query.priority));
  if (query.assigneeId === 'none') {
    where.push(
      eb.not(
        eb.exists(
          eb
            .selectFrom('request_assignees as ra')
            .select('ra.request_id')
            .whereRef('ra.request_id', '=', 'requests.id'),
        ),
      ),
    );
    where.push(
      eb.not(
        eb.exists(
          eb.selectFrom('request_teams as rt').select('rt.request_id').whereRef('rt.request_id', '=', 'requests.id'),
        ),
      ),
    );
  } else if (query.assigneeId) {
    where.push(assignedTo(eb, query.assigneeId === 'me' ? scope.callerId : query.assigneeId));
  }
  if (query.teamId) {
    where.push(
      eb.exists(
        eb
          .selectFrom('request_teams as rt')
          .select('rt.request_id')
          .whereRef('rt.request_id', '=', 'requests.id')
          .where('rt.team_id', '=', query.teamId),
      ),
    );
  }
  if (query.requesterId)
    where.push(eb('requests.requester_id', '=', query.requesterId === 'me' ? scope.callerId : query.requesterId));
  if (query.projectId) where.push(eb('requests.project_id', '=', query.projectId));
  if (query.overdue === true) {
    where.push(eb('requests.status', 'in', [...REQUEST_ACTIVE_STATUSES]));
    where.push(eb('requests.due_date', 'is not', null));
    where.push(eb('requests.due_date', '<', today));
  }
  if (query.search) {
    const pattern = likePattern(query.search);
    where.push(
      sql<SqlBool>`(lower(requests.reference) like ${pattern} escape '!' or lower(requests.title) like ${pattern} escape '!' or lower(coalesce(requests.description, '')) like ${pattern} escape '!')`,
    );
  }
  return where;
}

/**
 * Ids of the requests of a company the scope sees, filtered and sorted as the query says (assigneeId
 * `me` resolves to scope.callerId and includes the caller's teams), with the total of all matching.
 * A user id filters the same way (directly or through their teams). Ties go by reference (its number,
 * then its text), then id.
 */
export async function listRequestIds(
  db: Kysely<Database>,
  options: RequestListOptions,
): Promise<{ ids: string[]; total: number }> {
  const base = db.selectFrom('requests').where((eb) => eb.and(listFilters(eb, options)));
  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const total = toCount(totalRow.n as string | number);
  if (total === 0 || options.offset >= total) return { ids: [], total };
  const { sort } = options.query;
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  let page = base.select('requests.id');
  const byReference = (q: typeof page, dir: 'asc' | 'desc') =>
    // By number first (REQ-10000 after REQ-9999), references an import gave in another form after them
    // whichever the direction, then by the text.
    q
      .orderBy(sql`case when requests.number is null then 1 else 0 end`)
      .orderBy('requests.number', dir)
      .orderBy(sql`lower(requests.reference)`, dir)
      .orderBy('requests.id', dir);
  switch (sort.replace(/^-/, '')) {
    case 'reference':
      break;
    case 'title':
      page = page.orderBy(sql`lower(requests.title)`, direction);
      break;
    case 'status':
      page = page.orderBy(rankOf('requests.status', REQUEST_STATUSES), direction);
      break;
    case 'priority':
      page = page.orderBy(rankOf('requests.priority', REQUEST_PRIORITIES), direction);
      break;
    case 'dueDate':
      // Without a due date last, whichever the direction (the dialects disagree on where nulls go).
      page = page
        .orderBy(sql`case when requests.due_date is null then 1 else 0 end`)
        .orderBy('requests.due_date', direction);
      break;
    case 'createdAt':
      page = page.orderBy('requests.created_at', direction);
      break;
    case 'updatedAt':
      page = page.orderBy('requests.updated_at', direction);
      break;
  }
  // By reference: its direction; every other sort's ties by reference ascending.
  page = byReference(page, sort === '-reference' ? 'desc' : 'asc');
  const rows = await page.limit(options.limit).offset(options.offset).execute();
  return { ids: rows.map((r) => r.id), total };
}

const userRefOf = (r: {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_tevora: boolean | number;
}): RequestUserRef => ({
  id: r.id,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  isTevora: toBool(r.is_tevora),
});

/** "First Last" (the e-mail when both are empty): how history entries and notifications name people. */
export function displayName(user: Pick<RequestUserRef, 'firstName' | 'lastName' | 'email'>): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

interface RequestRow {
  id: string;
  company_id: string;
  project_id: string | null;
  task_id: string | null;
  control_id: string | null;
  reference: string;
  title: string;
  description: string | null;
  internal_note: string | null;
  priority: RequestPriority;
  due_date: string | null;
  status: RequestStatus;
  return_reason: string | null;
  requester_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  submitted_at: Date | string | null;
  accepted_at: Date | string | null;
  canceled_at: Date | string | null;
  project_title: string | null;
}

async function requestRows(db: Kysely<Database>, ids: string[]): Promise<RequestRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('requests')
    .leftJoin('projects', 'projects.id', 'requests.project_id')
    .select([
      'requests.id',
      'requests.company_id',
      'requests.project_id',
      'requests.task_id',
      'requests.control_id',
      'requests.reference',
      'requests.title',
      'requests.description',
      'requests.internal_note',
      'requests.priority',
      'requests.due_date',
      'requests.status',
      'requests.return_reason',
      'requests.requester_id',
      'requests.created_at',
      'requests.updated_at',
      'requests.submitted_at',
      'requests.accepted_at',
      'requests.canceled_at',
      'projects.title as project_title',
    ])
    .where('requests.id', 'in', ids)
    .execute();
}

/** Summaries of rows already read: people, teams and counts in one grouped query each. */
async function summariesOf(
  db: Kysely<Database>,
  rows: RequestRow[],
  options: { staff: boolean; today: string },
): Promise<RequestSummary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const requesterIds = [...new Set(rows.map((r) => r.requester_id).filter((id): id is string => id !== null))];
  const [assignees, teams, files, comments, requesters] = await Promise.all([
    db
      .selectFrom('request_assignees as ra')
      .innerJoin('users as u', 'u.id', 'ra.user_id')
      .select(['ra.request_id', 'u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.is_tevora'])
      .where('ra.request_id', 'in', ids)
      .orderBy(sql`lower(u.first_name)`)
      .orderBy(sql`lower(u.last_name)`)
      .orderBy('u.id')
      .execute(),
    db
      .selectFrom('request_teams as rt')
      .innerJoin('teams as tm', 'tm.id', 'rt.team_id')
      .select(['rt.request_id', 'tm.id', 'tm.name'])
      .where('rt.request_id', 'in', ids)
      .orderBy(sql`lower(tm.name)`)
      .orderBy('tm.id')
      .execute(),
    db
      .selectFrom('request_files')
      .select((eb) => ['request_id', eb.fn.countAll().as('n')])
      .where('request_id', 'in', ids)
      .groupBy('request_id')
      .execute(),
    db
      .selectFrom('request_comments')
      .select((eb) => ['request_id', eb.fn.countAll().as('n')])
      .where('request_id', 'in', ids)
      .$if(!options.staff, (q) => q.where('internal', '=', false))
      .groupBy('request_id')
      .execute(),
    requestUserRefs(db, requesterIds),
  ]);
  const people = new Map<string, RequestUserRef[]>();
  for (const a of assignees) people.set(a.request_id, [...(people.get(a.request_id) ?? []), userRefOf(a)]);
  const teamRefs = new Map<string, RequestTeamRef[]>();
  for (const t of teams)
    teamRefs.set(t.request_id, [...(teamRefs.get(t.request_id) ?? []), { id: t.id, name: t.name }]);
  const fileCounts = new Map(files.map((f) => [f.request_id, toCount(f.n as string | number)]));
  const commentCounts = new Map(comments.map((c) => [c.request_id, toCount(c.n as string | number)]));
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    reference: r.reference,
    title: r.title,
    status: r.status,
    priority: r.priority,
    dueDate: r.due_date,
    overdue: isRequestOverdue(r.due_date, r.status, options.today),
    project: r.project_id !== null && r.project_title !== null ? { id: r.project_id, title: r.project_title } : null,
    requester: (r.requester_id && requesters.get(r.requester_id)) || null,
    assignees: people.get(r.id) ?? [],
    teams: teamRefs.get(r.id) ?? [],
    fileCount: fileCounts.get(r.id) ?? 0,
    commentCount: commentCounts.get(r.id) ?? 0,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
  }));
}

/**
 * Summaries of requests by id, in the order of `ids`. `staff`: comment counts include internal comments.
 * Unknown ids are skipped.
 */
export async function requestSummariesByIds(
  db: Kysely<Database>,
  ids: string[],
  options: { staff: boolean; today: string },
): Promise<RequestSummary[]> {
  const rows = await requestRows(db, ids);
  const position = new Map(ids.map((id, i) => [id, i]));
  rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  return summariesOf(db, rows, options);
}

/** The actions the caller may apply to a request in `status`. */
export function allowedRequestActions(
  access: Pick<RequestAccess, 'manage' | 'respond'>,
  status: RequestStatus,
): RequestAction[] {
  return REQUEST_ACTIONS.filter((action) => {
    const rule = REQUEST_TRANSITIONS[action];
    return rule.from.includes(status) && (rule.by === 'manage' ? access.manage : access.respond);
  });
}

/**
 * Who may remove an evidence file now (the contract's rule): only while evidence may change (open or
 * returned), for everyone; then staff managers any file, a client only their own upload.
 */
export function canDeleteRequestFile(
  access: Pick<RequestAccess, 'manage' | 'respond'>,
  callerId: string,
  status: RequestStatus,
  uploadedBy: string | null,
): boolean {
  if (!evidenceEditable(status)) return false;
  return access.manage || (access.respond && uploadedBy === callerId);
}

/** The evidence files of a request, oldest first (then by name, then id), as the caller sees them. */
export async function listRequestFiles(
  db: Kysely<Database>,
  requestId: string,
  viewer: { access: Pick<RequestAccess, 'manage' | 'respond'>; callerId: string; status: RequestStatus },
): Promise<RequestFile[]> {
  const rows = await db
    .selectFrom('request_files as f')
    .leftJoin('users as u', 'u.id', 'f.uploaded_by')
    .select([
      'f.id',
      'f.request_id',
      'f.name',
      'f.content_type',
      'f.size',
      'f.uploaded_by',
      'f.created_at',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.is_tevora',
    ])
    .where('f.request_id', '=', requestId)
    .orderBy('f.created_at')
    .orderBy('f.name')
    .orderBy('f.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    requestId: r.request_id,
    name: r.name,
    contentType: r.content_type,
    size: toCount(r.size),
    uploadedBy:
      r.uploaded_by !== null && r.email !== null
        ? userRefOf({
            id: r.uploaded_by,
            first_name: r.first_name ?? '',
            last_name: r.last_name ?? '',
            email: r.email,
            is_tevora: r.is_tevora ?? false,
          })
        : null,
    createdAt: toIso(r.created_at),
    canDelete: canDeleteRequestFile(viewer.access, viewer.callerId, viewer.status, r.uploaded_by),
  }));
}

/** The full request as the caller may see it (internalNote null for clients, permissions computed for the caller). */
export async function requestDetail(
  db: Kysely<Database>,
  access: RequestAccess,
  caller: RequestCaller,
  today: string,
): Promise<RequestDetail> {
  const [row] = await requestRows(db, [access.request.id]);
  if (!row) throw new Error(`request ${access.request.id} is gone`);
  const [[summary], task, control, files] = await Promise.all([
    summariesOf(db, [row], { staff: access.staff, today }),
    row.task_id
      ? db.selectFrom('tasks').select(['id', 'reference_id', 'title']).where('id', '=', row.task_id).executeTakeFirst()
      : Promise.resolve(undefined),
    row.control_id
      ? db.selectFrom('controls').select(['id', 'name', 'title']).where('id', '=', row.control_id).executeTakeFirst()
      : Promise.resolve(undefined),
    listRequestFiles(db, row.id, { access, callerId: caller.id, status: row.status }),
  ]);
  const editable = evidenceEditable(row.status);
  return {
    ...summary,
    description: row.description,
    internalNote: access.staff ? row.internal_note : null,
    task: task ? { id: task.id, referenceId: task.reference_id, title: task.title } : null,
    control: control ? { id: control.id, name: control.name, title: control.title } : null,
    returnReason: row.status === 'returned' ? row.return_reason : null,
    submittedAt: row.submitted_at === null ? null : toIso(row.submitted_at),
    acceptedAt: row.accepted_at === null ? null : toIso(row.accepted_at),
    canceledAt: row.canceled_at === null ? null : toIso(row.canceled_at),
    files,
    permissions: {
      manage: access.manage,
      respond: access.respond,
      actions: allowedRequestActions(access, row.status),
      uploadEvidence: (access.respond || access.manage) && editable,
      commentInternal: access.manage,
    },
  };
}

export interface NewRequestEvent {
  requestId: string;
  actorId: string | null;
  type: RequestEventType;
  detail: RequestEvent['detail'];
  /** Staff-only entry (internal comments): clients never see it. */
  internal?: boolean;
  /** Defaults to now. */
  createdAt?: string;
}

let lastEventMs = 0;
let eventSequence = 0;

/**
 * A UUIDv7-shaped id that grows with time and, within this process, with every call: the history
 * sorts by (created_at, id), so entries written in the same millisecond keep the order they were made.
 */
function sequentialId(): string {
  const now = Date.now();
  if (now > lastEventMs) {
    lastEventMs = now;
    eventSequence = 0;
  } else if (++eventSequence > 0xfff) {
    lastEventMs += 1;
    eventSequence = 0;
  }
  const time = lastEventMs.toString(16).padStart(12, '0');
  const random = randomBytes(8);
  random[0] = (random[0] & 0x3f) | 0x80;
  const tail = random.toString('hex');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${eventSequence.toString(16).padStart(3, '0')}-${tail.slice(0, 4)}-${tail.slice(4)}`;
}

/** Appends to a request's history (in the change's transaction). */
export async function recordRequestEvents(db: Kysely<Database>, events: NewRequestEvent[]): Promise<void> {
  const now = nowIso();
  for (const part of inChunks(events)) {
    await db
      .insertInto('request_events')
      .values(
        part.map((e) => ({
          id: sequentialId(),
          request_id: e.requestId,
          actor_id: e.actorId,
          type: e.type,
          detail: JSON.stringify(e.detail),
          internal: e.internal ?? false,
          created_at: e.createdAt ?? now,
        })),
      )
      .execute();
  }
}

/**
 * A request's history, oldest first. Without `staff`, internal entries are left out and the internal
 * note is not named among an edit's fields (an edit of the note alone is an internal entry).
 */
export async function listRequestEvents(
  db: Kysely<Database>,
  requestId: string,
  options: { staff: boolean },
): Promise<RequestEvent[]> {
  const rows = await db
    .selectFrom('request_events as e')
    .leftJoin('users as u', 'u.id', 'e.actor_id')
    .select([
      'e.id',
      'e.request_id',
      'e.type',
      'e.detail',
      'e.created_at',
      'e.actor_id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.is_tevora',
    ])
    .where('e.request_id', '=', requestId)
    .$if(!options.staff, (q) => q.where('e.internal', '=', false))
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
  const events: RequestEvent[] = [];
  for (const r of rows) {
    const detail = JSON.parse(r.detail) as RequestEvent['detail'];
    if (!options.staff && detail.fields) {
      detail.fields = detail.fields.filter((f) => f !== 'internalNote');
      if (detail.fields.length === 0) continue;
    }
    events.push({
      id: r.id,
      requestId: r.request_id,
      type: r.type as RequestEventType,
      actor:
        r.actor_id !== null && r.email !== null
          ? userRefOf({
              id: r.actor_id,
              first_name: r.first_name ?? '',
              last_name: r.last_name ?? '',
              email: r.email,
              is_tevora: r.is_tevora ?? false,
            })
          : null,
      detail,
      createdAt: toIso(r.created_at),
    });
  }
  return events;
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

// ---------------------------------------------------------------------------------------------
// Writes

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

/** How many evidence files a request holds. */
export async function requestFileCount(db: Kysely<Database>, requestId: string): Promise<number> {
  const row = await db
    .selectFrom('request_files')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('request_id', '=', requestId)
    .executeTakeFirstOrThrow();
  return toCount(row.n as string | number);
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
 * Who hears of a change to each of these requests (lib/request-notifications requestParticipants for
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

/** The company's ids among `ids` the scope sees. */
export async function visibleRequestIds(
  db: Kysely<Database>,
  companyId: string,
  scope: RequestScope,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('requests')
    .select('requests.id')
    .where('requests.company_id', '=', companyId)
    .where('requests.id', 'in', ids)
    .where((eb) => requestVisible(eb, scope))
    .execute();
  return new Set(rows.map((r) => r.id));
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
