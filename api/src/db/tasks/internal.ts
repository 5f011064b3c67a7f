/**
 * What the files of this folder share and the folder does not export: a task's columns and row,
 * closed statuses in SQL, the status filter as page queries take it, and a task as lists show it
 * (read with listColumns: its assignees and kept counts in the same query, then toTask / toTasks).
 */
import { sql, type Kysely } from 'kysely';
import { CLOSED_TASK_STATUSES, type Task, type TaskStatus } from '@portal/shared/core/projects';
import { dialectOf } from '../database';
import { todayUtc } from '../projects';
import type { Database } from '../schema';
import { toIso } from '../values';

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

export const isClosed = (status: string) => (CLOSED_TASK_STATUSES as readonly string[]).includes(status);

export function closedStatusList() {
  return sql.join(CLOSED_TASK_STATUSES.map((s) => sql.lit(s)));
}

/** A status filter as a page query takes it: each status once (the list's length is part of the prepared query's shape), undefined when empty. */
export function eachStatusOnce(statuses: readonly TaskStatus[] | undefined): TaskStatus[] | undefined {
  return statuses?.length ? [...new Set(statuses)] : undefined;
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
export function listColumns(db: Kysely<Database>) {
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
export function toTask(r: ListRow, today: string): Task {
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
export function toTasks(rows: ListRow[]): Task[] {
  const today = todayUtc();
  return rows.map((r) => toTask(r, today));
}
