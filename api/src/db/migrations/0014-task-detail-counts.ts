import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * What a task list shows of each task beside its own columns, kept on the task's row by the database:
 * how many subtasks it has, how many of those are closed (COMPLETED or NOT_APPLICABLE, the closed
 * statuses of this migration's day), and how many comments. A page of 25 tasks counted these with
 * three subqueries per row, 75 index walks per page, about a fifth of what PostgreSQL spent on it.
 * Triggers keep the counts exact in the same transaction as the write, whichever code writes:
 * subtasks inserted, deleted (also by the cascade of their parent's or project's delete), moved to
 * another parent or changing between open and closed; comments inserted or deleted (comments never
 * move to another task). A count change only updates the parent's row, so a cascade that already
 * deleted the parent changes nothing.
 * PostgreSQL uses statement-level triggers with transition tables, so a bulk write updates each parent
 * once; SQLite has row-level triggers only. Frozen like 0001.
 */
const CLOSED_TEXT = "('COMPLETED', 'NOT_APPLICABLE')";
const CLOSED = sql.raw(CLOSED_TEXT);

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['subtask_count', 'subtasks_done', 'comment_count']) {
    await db.schema
      .alterTable('tasks')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // Only the rows with something to count are written; the others keep the default 0.
  await sql`
    update tasks set
      subtask_count = (select count(*) from tasks s where s.parent_id = tasks.id),
      subtasks_done = (select count(*) from tasks s where s.parent_id = tasks.id and s.status in ${CLOSED})
    where id in (select parent_id from tasks where parent_id is not null)
  `.execute(db);
  await sql`
    update tasks set comment_count = (select count(*) from task_comments c where c.task_id = tasks.id)
    where id in (select task_id from task_comments)
  `.execute(db);

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Each function applies the net change per parent (or per task) of the statement's rows: its
    // subtask rows as moves, +1 for a row in `added`, -1 for one in `removed`.
    const subtaskMoves = (rows: 'added' | 'removed') => {
      const sign = rows === 'added' ? 1 : -1;
      return sql.raw(
        `select parent_id, ${sign} as n, case when status in ${CLOSED_TEXT} then ${sign} else 0 end as done from ${rows} where parent_id is not null`,
      );
    };
    const subtaskFunction = (name: string, moves: RawBuilder<unknown>, guard = sql``) => sql`
      create function ${sql.id(name)}() returns trigger language plpgsql as $$
      begin
        ${guard}
        update tasks t set subtask_count = t.subtask_count + d.n, subtasks_done = t.subtasks_done + d.done
        from (select parent_id, sum(n) as n, sum(done) as done from (${moves}) moves group by parent_id) d
        where t.id = d.parent_id and (d.n <> 0 or d.done <> 0);
        return null;
      end $$
    `;
    await subtaskFunction('task_details_inserted', subtaskMoves('added')).execute(db);
    await subtaskFunction('task_details_deleted', subtaskMoves('removed')).execute(db);
    // The counts' own update fires this again: its rows keep their parent and status, so it nets to
    // nothing and writes nothing. A statement trigger fires for an update of no rows too, and that one
    // stops at once (or the two would call each other without end).
    await subtaskFunction(
      'task_details_updated',
      sql`${subtaskMoves('removed')} union all ${subtaskMoves('added')}`,
      sql`if not exists (select 1 from added) then return null; end if;`,
    ).execute(db);
    for (const rows of ['added', 'removed'] as const) {
      await sql`
        create function ${sql.id(rows === 'added' ? 'task_comment_counts_inserted' : 'task_comment_counts_deleted')}() returns trigger language plpgsql as $$
        begin
          update tasks t set comment_count = t.comment_count ${sql.raw(rows === 'added' ? '+' : '-')} d.n
          from (select task_id, count(*) as n from ${sql.raw(rows)} group by task_id) d
          where t.id = d.task_id;
          return null;
        end $$
      `.execute(db);
    }
    for (const [trigger, event, table, transition, fn] of [
      ['task_details_insert', 'insert', 'tasks', 'new table as added', 'task_details_inserted'],
      ['task_details_delete', 'delete', 'tasks', 'old table as removed', 'task_details_deleted'],
      ['task_details_update', 'update', 'tasks', 'old table as removed new table as added', 'task_details_updated'],
      ['task_comment_counts_insert', 'insert', 'task_comments', 'new table as added', 'task_comment_counts_inserted'],
      ['task_comment_counts_delete', 'delete', 'task_comments', 'old table as removed', 'task_comment_counts_deleted'],
    ]) {
      await sql`
        create trigger ${sql.id(trigger)} after ${sql.raw(event)} on ${sql.id(table)} referencing ${sql.raw(transition)}
        for each statement execute function ${sql.id(fn)}()
      `.execute(db);
    }
    return;
  }

  const closed = (status: 'new' | 'old') => sql.raw(`case when ${status}.status in ${CLOSED_TEXT} then 1 else 0 end`);
  await sql`
    create trigger task_details_insert after insert on tasks when new.parent_id is not null begin
      update tasks set subtask_count = subtask_count + 1, subtasks_done = subtasks_done + ${closed('new')} where id = new.parent_id;
    end
  `.execute(db);
  await sql`
    create trigger task_details_delete after delete on tasks when old.parent_id is not null begin
      update tasks set subtask_count = subtask_count - 1, subtasks_done = subtasks_done - ${closed('old')} where id = old.parent_id;
    end
  `.execute(db);
  await sql`
    create trigger task_details_update after update of parent_id, status on tasks
    when old.parent_id is not new.parent_id or old.status <> new.status begin
      update tasks set subtask_count = subtask_count - 1, subtasks_done = subtasks_done - ${closed('old')} where id = old.parent_id;
      update tasks set subtask_count = subtask_count + 1, subtasks_done = subtasks_done + ${closed('new')} where id = new.parent_id;
    end
  `.execute(db);
  await sql`
    create trigger task_comment_counts_insert after insert on task_comments begin
      update tasks set comment_count = comment_count + 1 where id = new.task_id;
    end
  `.execute(db);
  await sql`
    create trigger task_comment_counts_delete after delete on task_comments begin
      update tasks set comment_count = comment_count - 1 where id = old.task_id;
    end
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [trigger, table] of [
    ['task_details_insert', 'tasks'],
    ['task_details_delete', 'tasks'],
    ['task_details_update', 'tasks'],
    ['task_comment_counts_insert', 'task_comments'],
    ['task_comment_counts_delete', 'task_comments'],
  ] as const) {
    await (
      postgres ? sql`drop trigger ${sql.id(trigger)} on ${sql.id(table)}` : sql`drop trigger ${sql.id(trigger)}`
    ).execute(db);
  }
  if (postgres) {
    for (const fn of [
      'task_details_inserted',
      'task_details_deleted',
      'task_details_updated',
      'task_comment_counts_inserted',
      'task_comment_counts_deleted',
    ]) {
      await sql`drop function ${sql.id(fn)}()`.execute(db);
    }
  }
  for (const column of ['subtask_count', 'subtasks_done', 'comment_count'])
    await db.schema.alterTable('tasks').dropColumn(column).execute();
}
