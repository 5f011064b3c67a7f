/**
 * The task list of a project (issue 5: top-level tasks with one level of subtasks): its query,
 * filters and sorts, the page query (the page's ids from the index, then their rows) prepared per
 * sort and filters, and the total from the count the database keeps; also the assignees in use (the
 * list's assignee filter) and the closed count of grouped tasks.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import {
  TASK_STATUSES,
  dueWeekRange,
  type ProjectUserRef,
  type Task,
  type TaskDueFilter,
  type TaskStatus,
  type TasksQuery,
} from '@portal/shared/core/projects';
import { todayUtc } from '../projects';
import { orderByName } from '../roster';
import { preparedQuery, preparedVariants } from '../prepared';
import type { Database } from '../schema';
import { likePattern, toCount } from '../values';
import { closedStatusList, eachStatusOnce, listColumns, toTasks } from './internal';

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
