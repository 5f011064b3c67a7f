import { sql, type Kysely } from 'kysely';

/**
 * Reports (issue 9; contract shared/src/core/reports): what the reports aggregate in the database
 * needs. `requests.return_count` counts how often a request went back to the client (the returned
 * rate), filled from the history for requests that exist; `tasks.closed_at` is when a task moved to a
 * closed status (COMPLETED, NOT_APPLICABLE; null while open), filled for closed tasks from their
 * completion or else their last change, the best the rows know; tasks by project and creation day (the
 * status report of one project over a period). Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('requests')
    .addColumn('return_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('tasks').addColumn('closed_at', 'timestamptz').execute();
  await sql`update tasks set closed_at = coalesce(completed_at, updated_at) where status in ('COMPLETED', 'NOT_APPLICABLE')`.execute(
    db,
  );
  await sql`
    update requests set return_count = (
      select count(*) from request_events e
      where e.request_id = requests.id and e.type = 'status' and e.detail like '%"to":"returned"%'
    )
    where exists (select 1 from request_events e where e.request_id = requests.id and e.type = 'status' and e.detail like '%"to":"returned"%')
  `.execute(db);
  await db.schema.createIndex('tasks_project_created_idx').on('tasks').columns(['project_id', 'created_at']).execute();
  await db.schema
    .createIndex('requests_project_created_idx')
    .on('requests')
    .columns(['project_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('requests_project_created_idx').execute();
  await db.schema.dropIndex('tasks_project_created_idx').execute();
  await db.schema.alterTable('tasks').dropColumn('closed_at').execute();
  await db.schema.alterTable('requests').dropColumn('return_count').execute();
}
