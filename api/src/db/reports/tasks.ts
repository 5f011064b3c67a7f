/** The tasks a report counts and the conditions on them, shared by the status and workload reports. */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { CLOSED_TASK_STATUSES } from '@portal/shared/core/projects';
import type { Database } from '../schema';
import { scopeProjectIds, type ReportScope } from './scope';

/**
 * The tasks (subtasks included) of the report's projects, as `t`. Every project: the company condition,
 * on the (company_id, …) indexes. An auditor's projects: the project condition alone (its subquery keeps
 * to the company), so the (project_id, …) indexes read those projects' rows, not the whole company's.
 */
export function scopeTasks(db: Kysely<Database>, scope: ReportScope) {
  const query = db.selectFrom('tasks as t');
  if (scope.projectId)
    return query.where('t.company_id', '=', scope.companyId).where('t.project_id', '=', scope.projectId);
  if (scope.auditorId) return query.where('t.project_id', 'in', scopeProjectIds(db, scope));
  return query.where('t.company_id', '=', scope.companyId);
}

const closedStatuses = () => sql.join(CLOSED_TASK_STATUSES.map((s) => sql.lit(s)));

/** The task row `t` is closed (done work). */
export function taskClosed(): RawBuilder<boolean> {
  return sql<boolean>`t.status in (${closedStatuses()})`;
}

/** The task row `t` is open and due before `today` (date-only values compare as text). */
export function taskOverdue(today: string): RawBuilder<boolean> {
  return sql<boolean>`(t.status not in (${closedStatuses()}) and t.due_date < ${today})`;
}
