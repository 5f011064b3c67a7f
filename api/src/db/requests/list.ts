/**
 * The request list: its query and filters (what the scope sees, assignees directly or through teams,
 * overdue, search), its sorts and paging by id, and the summaries a page shows (people, teams and
 * counts in one grouped query each; the detail builds on them too, hence summariesOf is exported to
 * the folder but not from it).
 */
import type { z } from 'zod';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import {
  REQUEST_ACTIVE_STATUSES,
  REQUEST_PRIORITIES,
  REQUEST_STATUSES,
  isRequestOverdue,
  type RequestSummary,
  type requestsQuerySchema,
  type RequestUserRef,
  type RequestTeamRef,
} from '@portal/shared/core/requests';
import { requestVisible, type RequestScope } from '../request-access';
import type { Database } from '../schema';
import { likePattern, toCount, toIso } from '../values';
import { requestRows, userRefOf, type RequestRow } from './internal';
import { requestUserRefs } from './people';

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

/** Summaries of rows already read: people, teams and counts in one grouped query each. */
export async function summariesOf(
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
