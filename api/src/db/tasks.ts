import { randomUUID } from 'node:crypto';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import {
  CLOSED_TASK_STATUSES,
  TASK_STATUSES,
  dueWeekRange,
  type CompanyTask,
  type ProjectUserRef,
  type Task,
  type TaskComment,
  type TaskDetail,
  type TaskDueFilter,
  type TaskStatus,
  type TasksQuery,
} from '@portal/shared/core/projects';
import { dialectOf } from './database';
import { todayUtc } from './projects';
import { orderByName } from './roster';
import { preparedQuery, preparedVariants } from './prepared';
import type { Database } from './schema';
import { likePattern, nowIso, toCount, toIso } from './values';

/** Tasks of a project (issue 5): top-level tasks with one level of subtasks, assignees, comments. */

export type TaskSort = NonNullable<TasksQuery['sort']>;

export interface TaskFilters {
  status?: TaskStatus[];
  /** A user id, or `none` for tasks without assignees. */
  assigneeId?: string;
  due?: TaskDueFilter;
  search?: string;
}

export interface TaskListQuery extends TaskFilters {
  sort: TaskSort;
  limit: number;
  offset: number;
}

type TaskEb = ExpressionBuilder<Database & { t: Database['tasks'] }, 't'>;

const TASK_COLUMNS = [
  't.id',
  't.project_id',
  't.parent_id',
  't.reference_id',
  't.title',
  't.status',
  't.due_date',
  't.created_at',
  't.updated_at',
] as const;

interface TaskRow {
  id: string;
  project_id: string;
  parent_id: string | null;
  reference_id: string | null;
  title: string;
  status: string;
  due_date: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const isClosed = (status: string) => (CLOSED_TASK_STATUSES as readonly string[]).includes(status);

function closedStatusList() {
  return sql.join(CLOSED_TASK_STATUSES.map((s) => sql.lit(s)));
}

/** How many of the grouped tasks (alias `t`) are closed: the "done" of a done/total count. */
export function closedTaskSum() {
  return sql<number | string>`sum(case when t.status in (${closedStatusList()}) then 1 else 0 end)`;
}

/** The statuses in the order of the work (OPEN first), for sorting by status. */
function statusRank(): Expression<number> {
  return sql<number>`case t.status ${sql.join(
    TASK_STATUSES.map((s, i) => sql`when ${sql.lit(s)} then ${sql.lit(i)}`),
    sql` `,
  )} else ${sql.lit(TASK_STATUSES.length)} end`;
}

/** The values a list's filters put in its query (a preparedVariants query's values: those set are in its SQL). */
type FilterValues = {
  status?: readonly string[];
  assigneeId?: string;
  /** Overdue: open and due before this day. */
  dueBefore?: string;
  /** Due this week: open and due from weekFirst to weekLast. */
  weekFirst?: string;
  weekLast?: string;
  /** A LIKE pattern (likePattern) for the title or the Task ID. */
  pattern?: string;
};

/** What the filters decide of the SQL besides their values. */
interface FilterFlags {
  unassigned: boolean;
  noDueDate: boolean;
}

/** A status filter as a page query takes it: each status once (the list's length is part of the prepared query's shape), undefined when empty. */
function eachStatusOnce(statuses: readonly TaskStatus[] | undefined): TaskStatus[] | undefined {
  return statuses?.length ? [...new Set(statuses)] : undefined;
}

function filterParts(filters: TaskFilters, today: string): { flags: FilterFlags; values: FilterValues } {
  const week = filters.due === 'week' ? dueWeekRange(today) : null;
  return {
    flags: { unassigned: filters.assigneeId === 'none', noDueDate: filters.due === 'none' },
    values: {
      status: eachStatusOnce(filters.status),
      assigneeId: filters.assigneeId && filters.assigneeId !== 'none' ? filters.assigneeId : undefined,
      dueBefore: filters.due === 'overdue' ? today : undefined,
      weekFirst: week?.first,
      weekLast: week?.last,
      pattern: filters.search ? likePattern(filters.search) : undefined,
    },
  };
}

function filtersOf(eb: TaskEb, flags: FilterFlags, values: FilterValues): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  if (values.status) where.push(eb('t.status', 'in', values.status));
  if (flags.unassigned) {
    where.push(
      eb.not(eb.exists(eb.selectFrom('task_assignees as a').select('a.task_id').whereRef('a.task_id', '=', 't.id'))),
    );
  } else if (values.assigneeId !== undefined) {
    where.push(
      eb.exists(
        eb
          .selectFrom('task_assignees as a')
          .select('a.task_id')
          .whereRef('a.task_id', '=', 't.id')
          .where('a.user_id', '=', values.assigneeId),
      ),
    );
  }
  if (flags.noDueDate) where.push(eb('t.due_date', 'is', null));
  if (values.dueBefore !== undefined || values.weekFirst !== undefined)
    where.push(sql<SqlBool>`t.status not in (${closedStatusList()})`);
  if (values.dueBefore !== undefined) where.push(eb('t.due_date', '<', values.dueBefore));
  if (values.weekFirst !== undefined && values.weekLast !== undefined) {
    where.push(eb.and([eb('t.due_date', '>=', values.weekFirst), eb('t.due_date', '<=', values.weekLast)]));
  }
  if (values.pattern !== undefined) {
    const pattern = values.pattern;
    where.push(
      sql<SqlBool>`(lower(t.title) like ${pattern} escape '!' or lower(coalesce(t.reference_id, '')) like ${pattern} escape '!')`,
    );
  }
  return where;
}

/** A task's assignees as its list row carries them: [id, first name, last name, email] each, by name. */
type AssigneeTuple = [string, string, string, string];

/**
 * What a list shows beside a task's own columns (alias `t`): its assignees by name (a JSON array of
 * AssigneeTuple: text on SQLite, parsed by the driver on PostgreSQL, null there when there are none,
 * a subquery on an index), and the number of its subtasks, of those closed and of its comments, which
 * the task's row keeps (migration 0014). A page of tasks is then one query: on PostgreSQL a round
 * trip fewer than the page and then its details by id, and on SQLite about a fifth less work than
 * gathering the details by lists of ids.
 */
function detailColumns(db: Kysely<Database>) {
  const postgres = dialectOf(db) === 'postgres';
  const person = postgres
    ? sql`json_build_array(tu.id, tu.first_name, tu.last_name, tu.email)`
    : sql`json_array(tu.id, tu.first_name, tu.last_name, tu.email)`;
  // SQLite builds a sorting tree for an aggregate's ORDER BY on every row it runs for (a third of a
  // task list page's time): its few assignees are put in order by name after parsing (byName).
  const people = postgres
    ? sql`json_agg(${person} order by tu.first_name, tu.last_name, tu.id)`
    : sql`json_group_array(${person})`;
  return [
    sql<
      string | AssigneeTuple[] | null
    >`(select ${people} from task_assignees ta inner join users tu on tu.id = ta.user_id where ta.task_id = t.id)`.as(
      'assignees',
    ),
    't.subtask_count',
    't.subtasks_done',
    't.comment_count',
  ] as const;
}

/** TASK_COLUMNS and detailColumns: what a row of a task list is read with. */
function listColumns(db: Kysely<Database>) {
  return [...TASK_COLUMNS, ...detailColumns(db)] as const;
}

interface ListRow extends TaskRow {
  assignees: string | AssigneeTuple[] | null;
  subtask_count: number;
  subtasks_done: number;
  comment_count: number;
}

/** Text in SQLite's order (BINARY: UTF-8 bytes, which is code point order). */
function binaryCompare(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 code units sort as code points do, unless a surrogate pair meets U+E000 to U+FFFF
  if (SURROGATE.test(a) || SURROGATE.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : 1;
}
const SURROGATE = /[\uD800-\uDFFF]/;

/** Assignees by first name, last name and id, as SQLite orders them (`order by tu.first_name, tu.last_name, tu.id`). */
function byName(assignees: AssigneeTuple[]): AssigneeTuple[] {
  if (assignees.length < 2) return assignees;
  return assignees.sort((a, b) => binaryCompare(a[1], b[1]) || binaryCompare(a[2], b[2]) || binaryCompare(a[0], b[0]));
}

/** A task as lists show it, from its row read with listColumns. `today` decides `overdue`. */
function toTask(r: ListRow, today: string): Task {
  const assignees =
    typeof r.assignees === 'string' ? byName(JSON.parse(r.assignees) as AssigneeTuple[]) : (r.assignees ?? []);
  return {
    id: r.id,
    projectId: r.project_id,
    parentId: r.parent_id,
    referenceId: r.reference_id,
    title: r.title,
    status: r.status as TaskStatus,
    dueDate: r.due_date,
    overdue: r.due_date !== null && r.due_date < today && !isClosed(r.status),
    assignees: assignees.map(([id, firstName, lastName, email]) => ({ id, firstName, lastName, email })),
    subtaskCount: r.subtask_count,
    subtasksDone: r.subtasks_done,
    commentCount: r.comment_count,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
  };
}

/** Tasks as lists show them, from rows read with listColumns. */
function toTasks(rows: ListRow[]): Task[] {
  const today = todayUtc();
  return rows.map((r) => toTask(r, today));
}

/**
 * The users assigned to any of the project's top-level tasks (the task list's assignee filter: it
 * matches top-level tasks only), each once, by name. Suspended or revoked users stay listed while
 * their tasks keep them.
 */
export async function taskAssigneesInUse(db: Kysely<Database>, projectId: string): Promise<ProjectUserRef[]> {
  const rows = await db
    .selectFrom('users as u')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email'])
    .where(
      'u.id',
      'in',
      db
        .selectFrom('task_assignees as a')
        .innerJoin('tasks as t', 't.id', 'a.task_id')
        .select('a.user_id')
        .where('t.project_id', '=', projectId)
        .where('t.parent_id', 'is', null),
    )
    .$call(orderByName)
    .execute();
  return rows.map((r) => ({ id: r.id, firstName: r.first_name, lastName: r.last_name, email: r.email }));
}

/**
 * A page of the project's top-level tasks, filtered and sorted in SQL. `kept`: the project's kept
 * count of top-level tasks when the caller has already read it (ProjectAccess.topLevelTasks); read
 * here when undefined.
 */
export async function listProjectTasks(
  db: Kysely<Database>,
  projectId: string,
  query: TaskListQuery,
  kept?: number | null,
): Promise<{ results: Task[]; total: number }> {
  const { flags, values } = filterParts(query, todayUtc());
  const filtered = Object.values(values).some((v) => v !== undefined) || flags.unassigned || flags.noDueDate;
  // without filters the kept count is the total
  const total = await projectTaskTotal(db, projectId, filtered, kept, () =>
    topLevelTasks(db, projectId, flags, values)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  );
  // A page in the second half is read from the far end, in the opposite order, and turned round:
  // OFFSET then never walks more than half of the matching tasks (the last page none).
  const rest = total - query.offset;
  if (rest <= 0) return { results: [], total };
  const fromEnd = Math.max(0, rest - query.limit) < query.offset;
  const window = fromEnd
    ? { limit: Math.min(query.limit, rest), offset: Math.max(0, rest - query.limit) }
    : { limit: query.limit, offset: query.offset };
  const rows = await projectTaskPage(db, { sort: query.sort, fromEnd, ...flags }, { projectId, ...window, ...values });
  if (fromEnd) rows.reverse();
  return { results: toTasks(rows), total };
}

function topLevelTasks(db: Kysely<Database>, projectId: string, flags: FilterFlags, values: FilterValues) {
  return db
    .selectFrom('tasks as t')
    .where('t.project_id', '=', projectId)
    .where('t.parent_id', 'is', null)
    .where((eb) => eb.and(filtersOf(eb, flags, values)));
}

/** The options of a project task page that pick its query: the sort, the direction it is read in and the flag filters. */
export type ProjectPageOptions = { sort: TaskSort; fromEnd: boolean } & FilterFlags;

/**
 * The query of a page of listProjectTasks: the page's ids in a subquery that reads only the index (no
 * row is fetched for the rows OFFSET skips), then their rows with what the list shows of each, put in
 * the same order again. Exported for the tests of its plan.
 */
export function projectPageQuery(
  db: Kysely<Database>,
  o: ProjectPageOptions,
  v: FilterValues & { projectId: string; limit: number; offset: number },
) {
  const way = (direction: 'asc' | 'desc'): 'asc' | 'desc' => (o.fromEnd === (direction === 'asc') ? 'desc' : 'asc');
  const direction = o.sort.startsWith('-') ? 'desc' : 'asc';
  const order: [Expression<unknown>, 'asc' | 'desc'][] = [];
  switch (o.sort.replace(/^-/, '')) {
    case 'referenceId':
      // Tasks without an ID last, whichever the direction (the dialects disagree on where nulls go).
      order.push(
        [sql`case when t.reference_id is null then 1 else 0 end`, way('asc')],
        [sql`lower(t.reference_id)`, way(direction)],
      );
      break;
    case 'title':
      order.push([sql`lower(t.title)`, way(direction)]);
      break;
    case 'status':
      order.push([statusRank(), way(direction)]);
      break;
    case 'dueDate':
      order.push(
        [sql`case when t.due_date is null then 1 else 0 end`, way('asc')],
        [sql.ref('t.due_date'), way(direction)],
      );
      break;
  }
  const created = way(o.sort === '-createdAt' ? 'desc' : 'asc');
  // parent_id is null on every row here; naming it first, in the direction of the first key, lets
  // both databases walk tasks_project_list_idx (by creation) or tasks_project_title_idx (by title)
  // in order instead of sorting every top-level task of the project.
  order.unshift([sql.ref('t.parent_id'), order[0]?.[1] ?? created]);
  order.push([sql.ref('t.created_at'), created], [sql.ref('t.id'), created]);
  const ordered = <Q extends { orderBy(e: Expression<unknown>, d: 'asc' | 'desc'): Q }>(q: Q): Q =>
    order.reduce((acc, [e, d]) => acc.orderBy(e, d), q);
  const ids = ordered(topLevelTasks(db, v.projectId, o, v).select('t.id'))
    .limit(v.limit)
    .offset(v.offset);
  return ordered(db.selectFrom(ids.as('w')).innerJoin('tasks as t', 't.id', 'w.id').select(listColumns(db)));
}

/** projectPageQuery prepared per sort, direction and filters set (preparedVariants). */
const projectTaskPage = preparedVariants(
  (o: ProjectPageOptions) => `${o.sort} ${o.fromEnd} ${o.unassigned} ${o.noDueDate}`,
  projectPageQuery,
  // The list as it opens (no filter, by creation) walks tasks_project_list_idx whatever the project:
  // planned once. Filters and the other sorts are planned per call: their best plan depends on the
  // project's size and on how many of its tasks match.
  (o, given) =>
    (o.sort === 'createdAt' || o.sort === '-createdAt') &&
    !o.unassigned &&
    !o.noDueDate &&
    given.every((name) => name === 'projectId' || name === 'limit' || name === 'offset')
      ? 'once'
      : 'per call',
);

const keptTaskCount = preparedQuery((db, projectId: string) =>
  db.selectFrom('project_task_counts').select('top_level').where('project_id', '=', projectId),
);

/**
 * The number of the project's top-level tasks that match the filters: without filters, the count the
 * database keeps (project_task_counts, migration 0013) instead of counting every top-level task of
 * the project on each page; with filters, or if that row is missing, counted.
 */
async function projectTaskTotal(
  db: Kysely<Database>,
  projectId: string,
  filtered: boolean,
  known: number | null | undefined,
  count: () => Promise<{ n: unknown }>,
): Promise<number> {
  if (!filtered) {
    const kept = known !== undefined ? known : ((await keptTaskCount(db, projectId))[0]?.top_level ?? null);
    if (kept !== null) return toCount(kept);
  }
  return toCount((await count()).n as string | number);
}

// ---------------------------------------------------------------------------------------------
// The company-wide list, newest first, by keyset

/** Where the previous page stopped: the created_at text exactly as the database holds it, and the id. */
export interface TaskCursor {
  createdAt: string;
  id: string;
}

export function encodeTaskCursor(cursor: TaskCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

// The ISO text SQLite stores, or PostgreSQL's text form of a timestamptz ('2026-01-02 03:04:05.123456+00').
const CURSOR_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::?(\d{2}))?)?$/;

/** The cursor, or null when it is not one we made (PostgreSQL would fail on a malformed time). */
export function decodeTaskCursor(text: string): TaskCursor | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [createdAt, id] = value as unknown[];
  if (typeof createdAt !== 'string' || typeof id !== 'string' || id.length === 0 || id.length > 100) return null;
  const m = CURSOR_TIME.exec(createdAt);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (
    day.getUTCFullYear() !== y ||
    day.getUTCMonth() !== mo - 1 ||
    day.getUTCDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  )
    return null;
  // A zone offset PostgreSQL accepts: within 15:59 either way.
  const [offsetHours, offsetMinutes] = [m[7], m[8]].map((v) => (v === undefined ? 0 : Number(v)));
  if (offsetHours > 15 || offsetMinutes > 59) return null;
  return { createdAt, id };
}

export interface CompanyTasksQuery {
  status?: TaskStatus[];
  /** Only tasks assigned to this user. */
  assigneeId?: string;
  /** Auditors: only the projects where this user holds a role. */
  memberOf?: string;
  after: TaskCursor | null;
  limit: number;
}

/**
 * A page of every task of the company, newest first. The keyset condition is written so both
 * databases walk tasks_company_keyset_idx (or tasks_company_id_status_idx for one status) from the
 * cursor: a deep page costs what the first does. For one assignee the walk starts from their
 * assignments (task_assignees_user_id_idx), so a user with few tasks in a large company costs little.
 */
export async function listCompanyTasks(
  db: Kysely<Database>,
  companyId: string,
  query: CompanyTasksQuery,
): Promise<{ results: CompanyTask[]; next: TaskCursor | null }> {
  const rows = await companyTaskPage(db, null, {
    companyId,
    limit: query.limit + 1,
    status: eachStatusOnce(query.status),
    assigneeId: query.assigneeId,
    memberOf: query.memberOf,
    afterCreatedAt: query.after?.createdAt,
    afterId: query.after?.id,
  });
  const more = rows.length > query.limit;
  const shown = more ? rows.slice(0, query.limit) : rows;
  const today = todayUtc();
  const last = shown[shown.length - 1];
  return {
    results: shown.map((r) => ({ ...toTask(r, today), projectTitle: r.project_title })),
    next: more && last ? { createdAt: last.created_key, id: last.id } : null,
  };
}

/** A page of listCompanyTasks (limit one more than shown), prepared per filters and cursor set (preparedVariants). */
const companyTaskPage = preparedVariants(
  () => '',
  (
    db,
    _options: null,
    v: {
      companyId: string;
      limit: number;
      status?: readonly string[];
      assigneeId?: string;
      memberOf?: string;
      afterCreatedAt?: string;
      afterId?: string;
    },
  ) => {
    const { assigneeId, memberOf, afterCreatedAt, afterId } = v;
    let page = db
      .selectFrom('tasks as t')
      .$if(assigneeId !== undefined, (qb) =>
        qb.innerJoin('task_assignees as a', (join) =>
          join.onRef('a.task_id', '=', 't.id').on('a.user_id', '=', assigneeId!),
        ),
      )
      // a join, not a subquery per row: PostgreSQL then reads each project once (Memoize) instead of
      // scanning the company's projects for every row
      .innerJoin('projects as tp', 'tp.id', 't.project_id')
      .select([
        ...listColumns(db),
        sql<string>`cast(t.created_at as text)`.as('created_key'),
        'tp.title as project_title',
      ])
      .where('t.company_id', '=', v.companyId);
    if (v.status) page = page.where('t.status', 'in', v.status);
    if (memberOf !== undefined) {
      page = page.where(
        't.project_id',
        'in',
        db.selectFrom('project_members').select('project_id').where('user_id', '=', memberOf),
      );
    }
    if (afterCreatedAt !== undefined && afterId !== undefined) {
      // (created_at, id) < (x, y), spelled out: the `<=` bound is what lets the index seek.
      page = page.where((eb) =>
        eb.and([
          eb('t.created_at', '<=', afterCreatedAt),
          eb.or([
            eb('t.created_at', '<', afterCreatedAt),
            eb.and([eb('t.created_at', '=', afterCreatedAt), eb('t.id', '<', afterId)]),
          ]),
        ]),
      );
    }
    return page.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').limit(v.limit);
  },
  // Without filters (first page or after a cursor) the walk of tasks_company_keyset_idx: planned
  // once. With filters, per call (see projectTaskPage).
  (_options, given) =>
    given.every((name) => ['companyId', 'limit', 'afterCreatedAt', 'afterId'].includes(name)) ? 'once' : 'per call',
);

// ---------------------------------------------------------------------------------------------
// One task

export interface TaskRecord {
  id: string;
  projectId: string;
  parentId: string | null;
  referenceId: string | null;
  title: string;
  description: string | null;
  status: TaskStatus;
  dueDate: string | null;
  assigneeIds: string[];
}

/** The task if it belongs to the project; null otherwise (another project's task is not revealed). */
export async function findTask(db: Kysely<Database>, projectId: string, taskId: string): Promise<TaskRecord | null> {
  const row = await db
    .selectFrom('tasks')
    .select(['id', 'project_id', 'parent_id', 'reference_id', 'title', 'description', 'status', 'due_date'])
    .where('id', '=', taskId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) return null;
  const assignees = await db
    .selectFrom('task_assignees')
    .select('user_id')
    .where('task_id', '=', taskId)
    .orderBy('user_id')
    .execute();
  return {
    id: row.id,
    projectId: row.project_id,
    parentId: row.parent_id,
    referenceId: row.reference_id,
    title: row.title,
    description: row.description,
    status: row.status as TaskStatus,
    dueDate: row.due_date,
    assigneeIds: assignees.map((a) => a.user_id),
  };
}

/** The task as the detail page shows it, without the caller's permissions. */
export async function findTaskDetail(
  db: Kysely<Database>,
  projectId: string,
  taskId: string,
): Promise<Omit<TaskDetail, 'permissions'> | null> {
  const row = await db
    .selectFrom('tasks as t')
    .leftJoin('users as u', 'u.id', 't.created_by')
    .leftJoin('tasks as p', 'p.id', 't.parent_id')
    .select([
      ...listColumns(db),
      't.description',
      't.completed_at',
      'u.id as creator_id',
      'u.first_name as creator_first_name',
      'u.last_name as creator_last_name',
      'u.email as creator_email',
      'p.title as parent_title',
      'p.reference_id as parent_reference_id',
    ])
    .where('t.id', '=', taskId)
    .where('t.project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) return null;
  const [subtaskRows, controls] = await Promise.all([
    db
      .selectFrom('tasks as t')
      .select(listColumns(db))
      .where('t.parent_id', '=', taskId)
      .orderBy('t.created_at')
      .orderBy('t.id')
      .execute(),
    db
      .selectFrom('control_tasks as ct')
      .innerJoin('controls as c', 'c.id', 'ct.control_id')
      .select(['c.id', 'c.name', 'c.title'])
      .where('ct.task_id', '=', taskId)
      .orderBy(sql`lower(c.name)`)
      .orderBy('c.id')
      .execute(),
  ]);
  const [task, ...subtasks] = toTasks([row, ...subtaskRows]);
  return {
    ...task,
    description: row.description,
    parent: row.parent_id
      ? { id: row.parent_id, title: row.parent_title ?? '', referenceId: row.parent_reference_id ?? null }
      : null,
    subtasks,
    controls,
    createdBy:
      row.creator_id && row.creator_email
        ? {
            id: row.creator_id,
            firstName: row.creator_first_name ?? '',
            lastName: row.creator_last_name ?? '',
            email: row.creator_email,
          }
        : null,
    completedAt: row.completed_at === null ? null : toIso(row.completed_at),
  };
}

/** Tasks by id, as lists show them (ControlDetail.tasks), oldest first. */
export async function tasksByIds(db: Kysely<Database>, ids: string[]): Promise<Task[]> {
  if (ids.length === 0) return [];
  return toTasks(
    await db
      .selectFrom('tasks as t')
      .select(listColumns(db))
      .where('t.id', 'in', ids)
      .orderBy('t.created_at')
      .orderBy('t.id')
      .execute(),
  );
}

/** Whether another task of the project has this Task ID, ignoring case. */
export async function taskReferenceTaken(
  db: Kysely<Database>,
  projectId: string,
  referenceId: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('tasks')
    .select('id')
    .where('project_id', '=', projectId)
    .where(sql<SqlBool>`lower(reference_id) = lower(${referenceId})`);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Whether the task is a top-level task of the project (so it may take subtasks). */
export async function isTopLevelTask(db: Kysely<Database>, projectId: string, taskId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tasks')
    .select('id')
    .where('id', '=', taskId)
    .where('project_id', '=', projectId)
    .where('parent_id', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of these ids are tasks of the project. */
export async function projectTaskIds(db: Kysely<Database>, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('tasks')
    .select('id')
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Which of these users may be given the project's work: active users who are staff but not auditors,
 * auditors holding a role on the project, or members of its company whose access stands.
 */
export async function assignableUserIds(
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
        eb.and([eb('u.is_tevora', '=', true), eb('u.is_auditor', '=', false)]),
        eb.and([
          eb('u.is_tevora', '=', true),
          eb.exists(
            eb
              .selectFrom('project_members as pm')
              .select('pm.user_id')
              .whereRef('pm.user_id', '=', 'u.id')
              .where('pm.project_id', '=', project.id),
          ),
        ]),
        eb.and([
          eb('u.is_tevora', '=', false),
          eb.exists(
            eb
              .selectFrom('company_memberships as m')
              .select('m.user_id')
              .whereRef('m.user_id', '=', 'u.id')
              .where('m.company_id', '=', project.companyId)
              .where('m.access_revoked_at', 'is', null),
          ),
        ]),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

export interface NewTask {
  projectId: string;
  companyId: string;
  parentId: string | null;
  referenceId: string | null;
  title: string;
  description: string | null;
  status: TaskStatus;
  dueDate: string | null;
  createdBy: string;
  assigneeIds: string[];
  controlIds: string[];
}

export async function insertTask(db: Kysely<Database>, input: NewTask): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('tasks')
    .values({
      id,
      project_id: input.projectId,
      company_id: input.companyId,
      parent_id: input.parentId,
      reference_id: input.referenceId,
      title: input.title,
      description: input.description,
      status: input.status,
      due_date: input.dueDate,
      created_by: input.createdBy,
      created_at: now,
      updated_at: now,
      completed_at: input.status === 'COMPLETED' ? now : null,
      closed_at: isClosed(input.status) ? now : null,
    })
    .execute();
  if (input.assigneeIds.length) {
    await db
      .insertInto('task_assignees')
      .values(input.assigneeIds.map((userId) => ({ task_id: id, user_id: userId })))
      .execute();
  }
  if (input.controlIds.length) {
    await db
      .insertInto('control_tasks')
      .values(input.controlIds.map((controlId) => ({ control_id: controlId, task_id: id })))
      .execute();
  }
  return id;
}

export interface TaskChanges {
  title?: string;
  description?: string | null;
  referenceId?: string | null;
  dueDate?: string | null;
}

export async function updateTask(db: Kysely<Database>, taskId: string, changes: TaskChanges): Promise<void> {
  await db
    .updateTable('tasks')
    .set({
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.referenceId !== undefined ? { reference_id: changes.referenceId } : {}),
      ...(changes.dueDate !== undefined ? { due_date: changes.dueDate } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', taskId)
    .execute();
}

/** Makes the task's assignees exactly these users. */
export async function setTaskAssignees(
  db: Kysely<Database>,
  taskId: string,
  userIds: string[],
  current: string[],
): Promise<void> {
  const removed = current.filter((id) => !userIds.includes(id));
  const added = userIds.filter((id) => !current.includes(id));
  if (removed.length)
    await db.deleteFrom('task_assignees').where('task_id', '=', taskId).where('user_id', 'in', removed).execute();
  if (added.length)
    await db
      .insertInto('task_assignees')
      .values(added.map((userId) => ({ task_id: taskId, user_id: userId })))
      .execute();
}

/**
 * Entering COMPLETED stamps completed_at, entering a closed status closed_at (the reports' closing day);
 * leaving them clears the stamps. No move goes from one closed status to the other (TASK_TRANSITIONS).
 */
export async function setTaskStatus(db: Kysely<Database>, taskId: string, status: TaskStatus): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('tasks')
    .set({
      status,
      completed_at: status === 'COMPLETED' ? now : null,
      closed_at: isClosed(status) ? now : null,
      updated_at: now,
    })
    .where('id', '=', taskId)
    .execute();
}

/** Deletes the task; its subtasks, assignees, comments and control links go with it (foreign keys cascade). */
export async function deleteTask(db: Kysely<Database>, taskId: string): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', taskId).execute();
}

export async function subtaskIds(db: Kysely<Database>, taskId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tasks')
    .select('id')
    .where('parent_id', '=', taskId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// Comments

function commentsQuery(db: Kysely<Database>) {
  return db
    .selectFrom('task_comments as c')
    .leftJoin('users as u', 'u.id', 'c.author_id')
    .select([
      'c.id',
      'c.task_id',
      'c.body',
      'c.created_at',
      'u.id as author_id',
      'u.first_name',
      'u.last_name',
      'u.email',
    ]);
}

type CommentRow = Awaited<ReturnType<ReturnType<typeof commentsQuery>['executeTakeFirstOrThrow']>>;

function toComment(row: CommentRow): TaskComment {
  return {
    id: row.id,
    taskId: row.task_id,
    author:
      row.author_id && row.email
        ? { id: row.author_id, firstName: row.first_name ?? '', lastName: row.last_name ?? '', email: row.email }
        : null,
    body: row.body,
    createdAt: toIso(row.created_at),
  };
}

/** The task's comments, oldest first. */
export async function listTaskComments(db: Kysely<Database>, taskId: string): Promise<TaskComment[]> {
  const rows = await commentsQuery(db)
    .where('c.task_id', '=', taskId)
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
  return rows.map(toComment);
}

/** Stores the body as given: it is plain text, and the web shows it as text. */
export async function insertTaskComment(
  db: Kysely<Database>,
  input: { taskId: string; authorId: string; body: string },
): Promise<TaskComment> {
  const id = randomUUID();
  await db
    .insertInto('task_comments')
    .values({ id, task_id: input.taskId, author_id: input.authorId, body: input.body, created_at: nowIso() })
    .execute();
  return toComment(await commentsQuery(db).where('c.id', '=', id).executeTakeFirstOrThrow());
}
