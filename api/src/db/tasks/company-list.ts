/**
 * The company-wide task list, newest first, by keyset: the cursor (encoded, and decoded only when it
 * is one we made), the query, and the page prepared per filters and cursor set, which walks the
 * company's keyset index from the cursor so a deep page costs what the first does.
 */
import { sql, type Kysely } from 'kysely';
import type { CompanyTask, TaskStatus } from '@portal/shared/core/projects';
import { todayUtc } from '../projects';
import { preparedVariants } from '../prepared';
import type { Database } from '../schema';
import { eachStatusOnce, listColumns, toTask } from './internal';

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
