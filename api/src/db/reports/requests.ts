/**
 * The requests report (issue 9; contract shared/src/core/reports): the requests the caller sees (the
 * requests module's own rule) of the report's company, project and period, aggregated in the database,
 * one query per section.
 */
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import {
  ACCEPT_TIME_BUCKETS,
  REQUEST_AGE_BUCKETS,
  oneDecimal,
  type AcceptTimeBucket,
  type RequestAgeBucket,
  type RequestsReport,
} from '@portal/shared/core/reports';
import { REQUEST_ACTIVE_STATUSES, REQUEST_STATUSES, type RequestStatus } from '@portal/shared/core/requests';
import { HttpError } from '../../lib/http-error';
import { requestVisible, type RequestScope } from '../request-access';
import { displayName } from '../requests';
import type { Database } from '../schema';
import { toCount } from '../values';
import { countWhere, createdInPeriod, sqlAgeDays, sqlDaysBetween, type ReportScope } from './scope';

type Count = number | string | null;
type RequestsFigures = Omit<RequestsReport, 'kind' | 'meta'>;

const statusIn = (statuses: readonly RequestStatus[]) =>
  sql<SqlBool>`requests.status in (${sql.join(statuses.map((s) => sql.lit(s)))})`;
const isActive = statusIn(REQUEST_ACTIVE_STATUSES);
const isAccepted = statusIn(['accepted']);
const isSubmitted = statusIn(['submitted']);
/** Returned at least once (the `return` transition counts them; the status may have moved on since). */
const wasReturned = sql<SqlBool>`requests.return_count > 0`;
/** Due day before `today` (YYYY-MM-DD text in both dialects); a request without a due day is never overdue. */
const isOverdue = (today: string) => sql<SqlBool>`${isActive} and requests.due_date < ${today}`;

/**
 * One count per bucket of `value` among the rows meeting `condition`: a bucket holds what is above the
 * previous bucket's max and at most its own (the first takes everything below, e.g. a request created
 * on the server's day when the caller's `today` is a day behind).
 */
function bucketCounts<K extends string>(
  value: RawBuilder<number>,
  condition: Expression<SqlBool>,
  buckets: readonly { key: K; max: number | null }[],
) {
  return buckets.map((bucket, i) => {
    const previous = i > 0 ? buckets[i - 1].max : null;
    const above = previous === null ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${value} > ${sql.lit(previous)}`;
    const within = bucket.max === null ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${value} <= ${sql.lit(bucket.max)}`;
    return countWhere(sql<SqlBool>`${condition} and ${above} and ${within}`).as(bucket.key);
  });
}

/** The requests of the report: the company, the project when one is chosen, the period, what the caller sees. */
function scopedRequests(db: Kysely<Database>, scope: ReportScope, requests: RequestScope) {
  return db
    .selectFrom('requests')
    .where('requests.company_id', '=', scope.companyId)
    .$if(scope.projectId !== null, (q) => q.where('requests.project_id', '=', scope.projectId!))
    .where((eb) => createdInPeriod(eb, 'requests.created_at', scope))
    .where((eb) => requestVisible(eb, requests));
}

async function totalsOf(
  db: Kysely<Database>,
  scope: ReportScope,
  requests: RequestScope,
): Promise<RequestsFigures['totals']> {
  const daysToAccept = sqlDaysBetween(scope.dialect, sql.ref('requests.created_at'), sql.ref('requests.accepted_at'));
  const row = await scopedRequests(db, scope, requests)
    .select([
      sql<Count>`count(*)`.as('requests'),
      countWhere(isActive).as('active'),
      countWhere(isOverdue(scope.today)).as('overdue'),
      countWhere(isAccepted).as('accepted'),
      countWhere(sql<SqlBool>`${isAccepted} or ${wasReturned}`).as('reviewed'),
      countWhere(wasReturned).as('returned'),
      sql<number | string | null>`avg(case when ${isAccepted} then ${daysToAccept} end)`.as('average_days'),
    ])
    .executeTakeFirstOrThrow();
  const reviewed = toCount(row.reviewed);
  const returned = toCount(row.returned);
  return {
    requests: toCount(row.requests),
    active: toCount(row.active),
    overdue: toCount(row.overdue),
    accepted: toCount(row.accepted),
    reviewed,
    returned,
    returnedRate: reviewed ? returned / reviewed : null,
    averageDaysToAccept: row.average_days === null ? null : oneDecimal(Number(row.average_days)),
  };
}

async function byStatusOf(
  db: Kysely<Database>,
  scope: ReportScope,
  requests: RequestScope,
): Promise<RequestsFigures['byStatus']> {
  const rows = await scopedRequests(db, scope, requests)
    .select(['requests.status', sql<Count>`count(*)`.as('n')])
    .groupBy('requests.status')
    .execute();
  const counts = new Map(rows.map((r) => [r.status, toCount(r.n)]));
  return REQUEST_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 }));
}

async function openByAgeOf(
  db: Kysely<Database>,
  scope: ReportScope,
  requests: RequestScope,
): Promise<RequestsFigures['openByAge']> {
  const age = sqlAgeDays(scope.dialect, scope.today, sql.ref('requests.created_at'));
  const row = (await scopedRequests(db, scope, requests)
    .select(bucketCounts(age, isActive, REQUEST_AGE_BUCKETS))
    .executeTakeFirstOrThrow()) as Record<RequestAgeBucket, Count>;
  return REQUEST_AGE_BUCKETS.map(({ key }) => ({ bucket: key, count: toCount(row[key]) }));
}

async function timeToAcceptOf(
  db: Kysely<Database>,
  scope: ReportScope,
  requests: RequestScope,
): Promise<RequestsFigures['timeToAccept']> {
  const days = sqlDaysBetween(scope.dialect, sql.ref('requests.created_at'), sql.ref('requests.accepted_at'));
  const row = (await scopedRequests(db, scope, requests)
    .select(bucketCounts(days, isAccepted, ACCEPT_TIME_BUCKETS))
    .executeTakeFirstOrThrow()) as Record<AcceptTimeBucket, Count>;
  return ACCEPT_TIME_BUCKETS.map(({ key }) => ({ bucket: key, count: toCount(row[key]) }));
}

/**
 * Per direct assignee, then per assigned team (a request counts for each of its assignees and teams),
 * then the requests with neither ("Unassigned"). Each group is counted by id alone and named
 * afterwards: grouping by the names too would sort every row by them.
 */
async function byAssigneeOf(
  db: Kysely<Database>,
  scope: ReportScope,
  requests: RequestScope,
): Promise<RequestsFigures['byAssignee']> {
  const figureColumns = [
    countWhere(isActive).as('active'),
    countWhere(isOverdue(scope.today)).as('overdue'),
    countWhere(isSubmitted).as('submitted'),
    countWhere(isAccepted).as('accepted'),
    countWhere(wasReturned).as('returned'),
  ];
  type FigureRow = { active: Count; overdue: Count; submitted: Count; accepted: Count; returned: Count };
  const figures = (r: FigureRow) => ({
    active: toCount(r.active),
    overdue: toCount(r.overdue),
    submitted: toCount(r.submitted),
    accepted: toCount(r.accepted),
    returned: toCount(r.returned),
  });
  const byUser = scopedRequests(db, scope, requests)
    .innerJoin('request_assignees as ra', 'ra.request_id', 'requests.id')
    .select(['ra.user_id', ...figureColumns])
    .groupBy('ra.user_id');
  const byTeam = scopedRequests(db, scope, requests)
    .innerJoin('request_teams as rt', 'rt.request_id', 'requests.id')
    .select(['rt.team_id', ...figureColumns])
    .groupBy('rt.team_id');
  const [userRows, teamRows, unassigned] = await Promise.all([
    db
      .selectFrom(byUser.as('g'))
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .selectAll('g')
      .select(['u.first_name', 'u.last_name', 'u.email'])
      .execute(),
    db
      .selectFrom(byTeam.as('g'))
      .innerJoin('teams as t', 't.id', 'g.team_id')
      .selectAll('g')
      .select(['t.name'])
      .execute(),
    scopedRequests(db, scope, requests)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('request_assignees as ra')
              .select('ra.request_id')
              .whereRef('ra.request_id', '=', 'requests.id'),
          ),
        ),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('request_teams as rt').select('rt.request_id').whereRef('rt.request_id', '=', 'requests.id'),
          ),
        ),
      )
      .select([sql<Count>`count(*)`.as('n'), ...figureColumns])
      .executeTakeFirstOrThrow(),
  ]);
  const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
    a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || (a.id < b.id ? -1 : 1);
  const people = userRows
    .map((r) => ({
      id: r.user_id,
      name: displayName({ firstName: r.first_name, lastName: r.last_name, email: r.email }),
      row: r,
    }))
    .sort(byName)
    .map(({ id, name, row }) => ({
      userId: id as string | null,
      teamId: null as string | null,
      name,
      ...figures(row),
    }));
  const teams = teamRows
    .map((r) => ({ id: r.team_id, name: r.name, row: r }))
    .sort(byName)
    .map(({ id, name, row }) => ({
      userId: null,
      teamId: id as string | null,
      name: `${name} (team)`,
      ...figures(row),
    }));
  const rest =
    toCount(unassigned.n) > 0 ? [{ userId: null, teamId: null, name: 'Unassigned', ...figures(unassigned) }] : [];
  return [...people, ...teams, ...rest];
}

export async function requestsReport(db: Kysely<Database>, scope: ReportScope): Promise<RequestsFigures> {
  // The route answers 403 before asking when the requests module is off for the caller.
  const requests = scope.requests;
  if (!requests) throw new HttpError(403, 'module_access_denied');
  const [totals, byStatus, openByAge, timeToAccept, byAssignee] = await Promise.all([
    totalsOf(db, scope, requests),
    byStatusOf(db, scope, requests),
    openByAgeOf(db, scope, requests),
    timeToAcceptOf(db, scope, requests),
    byAssigneeOf(db, scope, requests),
  ]);
  return { totals, byStatus, openByAge, timeToAccept, byAssignee };
}
