/**
 * What a report covers (issue 9; contract shared/src/core/reports), resolved once by the route and
 * handed to each report's queries, and the SQL pieces every report needs on both dialects.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../database';
import type { RequestScope } from '../request-access';
import type { Database } from '../schema';

export interface ReportScope {
  companyId: string;
  /** The one project of the report (already checked visible), or null: every project the viewer sees. */
  projectId: string | null;
  /** Auditors see only the projects where they hold a role: their user id, else null. */
  auditorId: string | null;
  /** The period as YYYY-MM-DD (null: open-ended), and as instants for `created_at` (UTC midnights). */
  from: string | null;
  to: string | null;
  /** created_at >= createdFrom */
  createdFrom: string | null;
  /** created_at < createdBefore (the midnight after `to`) */
  createdBefore: string | null;
  /** The caller's day (YYYY-MM-DD): overdue is an open item due before it. */
  today: string;
  dialect: Dialect;
  /** How the caller sees requests (db/request-access.ts), or null when the requests module is off for them. */
  requests: RequestScope | null;
}

/** The UTC midnight starting `day` (YYYY-MM-DD) as the ISO instant stored in timestamp columns. */
export function dayStart(day: string): string {
  return `${day}T00:00:00.000Z`;
}

/** The day `days` days after `day` (YYYY-MM-DD; negative: before). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  return addDays(day, 1);
}

/** The UTC day (YYYY-MM-DD text) of a timestamp column, e.g. sqlDay(dialect, sql.ref('t.created_at')). */
export function sqlDay(dialect: Dialect, column: Expression<unknown>): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${column}, 1, 10)`;
}

/** Days from timestamp `start` to timestamp `end`, fractional (end - start). */
export function sqlDaysBetween(
  dialect: Dialect,
  start: Expression<unknown>,
  end: Expression<unknown>,
): RawBuilder<number> {
  return dialect === 'postgres'
    ? sql<number>`(extract(epoch from (${end} - ${start})) / 86400.0)`
    : sql<number>`(julianday(${end}) - julianday(${start}))`;
}

/** Whole days from the UTC day of timestamp `column` to the day `today` (YYYY-MM-DD). */
export function sqlAgeDays(dialect: Dialect, today: string, column: Expression<unknown>): RawBuilder<number> {
  return dialect === 'postgres'
    ? sql<number>`(cast(${today} as date) - cast((${column} at time zone 'UTC') as date))`
    : sql<number>`cast(julianday(${today}) - julianday(substr(${column}, 1, 10)) as integer)`;
}

/** The fields of a scope that choose its projects (the options route has no period nor day). */
export type ProjectsScope = Pick<ReportScope, 'companyId' | 'projectId' | 'auditorId'>;

/** The ids of the projects of the report, as a subquery (`p.id`). */
export function scopeProjectIds(db: Kysely<Database>, scope: ProjectsScope) {
  let query = db.selectFrom('projects as p').select('p.id').where('p.company_id', '=', scope.companyId);
  if (scope.projectId) query = query.where('p.id', '=', scope.projectId);
  if (scope.auditorId) {
    const auditorId = scope.auditorId;
    query = query.where(
      'p.id',
      'in',
      db.selectFrom('project_members').select('project_id').where('user_id', '=', auditorId),
    );
  }
  return query;
}

/** The projects of the report with their title and status, in title order (for per-project tables). */
export function scopeProjects(db: Kysely<Database>, scope: ProjectsScope) {
  return scopeProjectIds(db, scope)
    .clearSelect()
    .select(['p.id', 'p.title', 'p.status'])
    .orderBy(sql`lower(p.title)`)
    .orderBy('p.id');
}

/** How many rows of the group meet `condition` (0, not null, over no rows). */
export function countWhere(condition: Expression<SqlBool>): RawBuilder<number | string> {
  return sql<number | string>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;
}

/**
 * The period's condition on a `created_at` column (true when the period is open-ended), for
 * `.where((eb) => createdInPeriod(eb, 't.created_at', scope))`.
 */
export function createdInPeriod<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  column: string,
  scope: ReportScope,
): Expression<SqlBool> {
  const ref = sql.ref(column);
  const parts: Expression<SqlBool>[] = [];
  if (scope.createdFrom) parts.push(sql<SqlBool>`${ref} >= ${scope.createdFrom}`);
  if (scope.createdBefore) parts.push(sql<SqlBool>`${ref} < ${scope.createdBefore}`);
  return parts.length ? eb.and(parts) : sql<SqlBool>`1 = 1`;
}
