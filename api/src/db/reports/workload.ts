/**
 * The workload report (issue 9; contract shared/src/core/reports), aggregated in the database: one
 * statement for the open tasks (per assignee and in all), one for the active requests.
 */
import { sql, type Expression, type Kysely } from 'kysely';
import { REQUEST_ACTIVE_STATUSES } from '@portal/shared/core/requests';
import type { WorkloadReport } from '@portal/shared/core/reports';
import { requestVisible, type RequestScope } from '../request-access';
import { displayName } from '../requests';
import type { Database } from '../schema';
import { toBool, toCount } from '../values';
import type { ReportScope } from './scope';
import { scopeTasks, taskClosed, taskOverdue } from './tasks';

type Person = WorkloadReport['people'][number];

/** As of now: the period does not apply. */
export async function workloadReport(
  db: Kysely<Database>,
  scope: ReportScope,
): Promise<Omit<WorkloadReport, 'kind' | 'meta'>> {
  const requests = scope.requests;
  const [tasks, active] = await Promise.all([
    assignedCounts(db, openTasks(db, scope), 'task'),
    requests ? assignedCounts(db, activeRequests(db, scope, requests), 'request') : null,
  ]);
  return {
    requestsIncluded: active !== null,
    people: mergePeople(tasks.people, active?.people ?? []),
    totals: {
      openTasks: tasks.all.count,
      overdueTasks: tasks.all.overdue,
      unassignedTasks: tasks.all.unassigned,
      activeRequests: active?.all.count ?? 0,
      overdueRequests: active?.all.overdue ?? 0,
      unassignedRequests: active?.all.unassigned ?? 0,
    },
  };
}

/** The items a workload statement counts: their `id` and `overdue` (1 or 0). */
type Items = Expression<{ id: string; overdue: number }>;

/** The report's open tasks (subtasks included). */
function openTasks(db: Kysely<Database>, scope: ReportScope): Items {
  return scopeTasks(db, scope)
    .where(sql<boolean>`not (${taskClosed()})`)
    .select(['t.id', sql<number>`case when ${taskOverdue(scope.today)} then 1 else 0 end`.as('overdue')]);
}

/** The active requests the caller sees (the requests module's rule), of the chosen project when there is one. */
function activeRequests(db: Kysely<Database>, scope: ReportScope, requests: RequestScope): Items {
  const query = db
    .selectFrom('requests')
    .where('requests.company_id', '=', scope.companyId)
    .where('requests.status', 'in', REQUEST_ACTIVE_STATUSES)
    .where((eb) => requestVisible(eb, requests))
    .select(['requests.id', sql<number>`case when requests.due_date < ${scope.today} then 1 else 0 end`.as('overdue')]);
  return scope.projectId ? query.where('requests.project_id', '=', scope.projectId) : query;
}

interface AssigneeCounts {
  userId: string;
  name: string;
  email: string;
  staff: boolean;
  count: number;
  overdue: number;
}

const ASSIGNEES = {
  task: { table: 'task_assignees', key: 'task_id' },
  request: { table: 'request_assignees', key: 'request_id' },
} as const;

interface CountRow {
  user_id: string | null;
  count: number | string;
  overdue: number | string | null;
  assigned: number | string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  is_tevora: boolean | number | null;
}

/**
 * Per direct assignee (an item of two counts for both) and in all (each once; `assigned`: those with an
 * assignee), in one statement over one read of the items. The row of a null user is the whole. Joins
 * rather than a per-item `not exists`: PostgreSQL's estimate of that subplan set off a costly JIT.
 */
async function assignedCounts(db: Kysely<Database>, items: Items, kind: keyof typeof ASSIGNEES) {
  const { table, key } = ASSIGNEES[kind];
  const { rows } = await sql<CountRow>`
    with items as materialized ${items},
    assigned as materialized (
      select a.user_id, items.id, items.overdue from items join ${sql.table(table)} a on ${sql.ref(`a.${key}`)} = items.id
    )
    select w.user_id, w.count, w.overdue, w.assigned, u.first_name, u.last_name, u.email, u.is_tevora
    from (
      select assigned.user_id, count(*) as count, sum(assigned.overdue) as overdue, 0 as assigned
      from assigned group by assigned.user_id
      union all
      select null, count(*), sum(items.overdue), (select count(distinct assigned.id) from assigned)
      from items
    ) w
    left join users u on u.id = w.user_id`.execute(db);
  const whole = rows.find((r) => r.user_id === null);
  const people: AssigneeCounts[] = rows
    .filter((r) => r.user_id !== null && r.email !== null)
    .map((r) => ({
      userId: r.user_id!,
      name: displayName({ firstName: r.first_name ?? '', lastName: r.last_name ?? '', email: r.email! }),
      email: r.email!,
      staff: toBool(r.is_tevora),
      count: toCount(r.count),
      overdue: toCount(r.overdue),
    }));
  const count = toCount(whole?.count);
  return { people, all: { count, overdue: toCount(whole?.overdue), unassigned: count - toCount(whole?.assigned) } };
}

/** One row per person with open tasks or active requests: most total work first, then name. */
function mergePeople(tasks: AssigneeCounts[], requests: AssigneeCounts[]): Person[] {
  const people = new Map<string, Person>();
  const personOf = (c: AssigneeCounts): Person => {
    const known = people.get(c.userId);
    if (known) return known;
    const person: Person = {
      userId: c.userId,
      name: c.name,
      email: c.email,
      staff: c.staff,
      openTasks: 0,
      overdueTasks: 0,
      activeRequests: 0,
      overdueRequests: 0,
      total: 0,
    };
    people.set(c.userId, person);
    return person;
  };
  for (const c of tasks) Object.assign(personOf(c), { openTasks: c.count, overdueTasks: c.overdue });
  for (const c of requests) Object.assign(personOf(c), { activeRequests: c.count, overdueRequests: c.overdue });
  const rows = [...people.values()].map((p) => ({ ...p, total: p.openTasks + p.activeRequests }));
  const byName = (a: Person, b: Person) =>
    a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.userId.localeCompare(b.userId);
  return rows.sort((a, b) => b.total - a.total || byName(a, b));
}
