import { sql, type Kysely } from 'kysely';

/**
 * Evidence requests (issue 8; contract shared/src/core/requests): a request of a company (and
 * optionally of one of its projects, and a task or control of it), its assignees (client users and
 * teams), evidence files (bytes in the blob storage), comments, the history of every change, and the
 * bookkeeping that sends each reminder and each daily digest once. Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('task_id', 'text', (c) => c.references('tasks.id').onDelete('set null'))
    .addColumn('control_id', 'text', (c) => c.references('controls.id').onDelete('set null'))
    .addColumn('reference', 'text', (c) => c.notNull())
    // The number behind REQ-0001 (api-numbered references); null for references an import gave.
    .addColumn('number', 'integer')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('internal_note', 'text')
    .addColumn('priority', 'text', (c) => c.notNull().defaultTo('medium'))
    .addColumn('due_date', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('return_reason', 'text')
    .addColumn('requester_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('canceled_at', 'timestamptz')
    .addCheckConstraint(
      'requests_status_check',
      sql`status in ('open', 'submitted', 'returned', 'accepted', 'canceled')`,
    )
    .addCheckConstraint('requests_priority_check', sql`priority in ('low', 'medium', 'high', 'critical')`)
    .execute();
  // References are unique in a company ignoring case (the api checks first; this settles a race).
  await sql`create unique index requests_company_reference_key on requests (company_id, lower(reference))`.execute(db);
  await db.schema
    .createIndex('requests_company_number_key')
    .on('requests')
    .columns(['company_id', 'number'])
    .unique()
    .execute();
  await db.schema
    .createIndex('requests_company_created_idx')
    .on('requests')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('requests_company_status_due_idx')
    .on('requests')
    .columns(['company_id', 'status', 'due_date'])
    .execute();
  await db.schema.createIndex('requests_project_id_idx').on('requests').column('project_id').execute();
  await db.schema.createIndex('requests_task_id_idx').on('requests').column('task_id').execute();
  await db.schema.createIndex('requests_control_id_idx').on('requests').column('control_id').execute();
  await db.schema.createIndex('requests_requester_id_idx').on('requests').column('requester_id').execute();
  await db.schema.createIndex('requests_created_by_idx').on('requests').column('created_by').execute();

  await db.schema
    .createTable('request_assignees')
    .addColumn('request_id', 'text', (c) => c.notNull().references('requests.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('request_assignees_pk', ['request_id', 'user_id'])
    .execute();
  await db.schema.createIndex('request_assignees_user_id_idx').on('request_assignees').column('user_id').execute();

  await db.schema
    .createTable('request_teams')
    .addColumn('request_id', 'text', (c) => c.notNull().references('requests.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('request_teams_pk', ['request_id', 'team_id'])
    .execute();
  await db.schema.createIndex('request_teams_team_id_idx').on('request_teams').column('team_id').execute();

  await db.schema
    .createTable('request_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull().references('requests.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('request_files_request_created_idx')
    .on('request_files')
    .columns(['request_id', 'created_at'])
    .execute();
  await db.schema.createIndex('request_files_company_id_idx').on('request_files').column('company_id').execute();
  await db.schema.createIndex('request_files_uploaded_by_idx').on('request_files').column('uploaded_by').execute();
  await db.schema.createIndex('request_files_storage_key_idx').on('request_files').column('storage_key').execute();

  await db.schema
    .createTable('request_comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull().references('requests.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('internal', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('request_comments_request_created_idx')
    .on('request_comments')
    .columns(['request_id', 'created_at'])
    .execute();
  await db.schema.createIndex('request_comments_author_id_idx').on('request_comments').column('author_id').execute();

  await db.schema
    .createTable('request_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull().references('requests.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull())
    // JSON text (RequestEvent['detail']).
    .addColumn('detail', 'text', (c) => c.notNull())
    // Staff-only entries (internal comments, internal note changes): never sent to clients.
    .addColumn('internal', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('request_events_request_created_idx')
    .on('request_events')
    .columns(['request_id', 'created_at'])
    .execute();
  await db.schema.createIndex('request_events_actor_id_idx').on('request_events').column('actor_id').execute();

  // One reminder per request, user, kind and due date: inserting the row claims the sending.
  await db.schema
    .createTable('request_reminders')
    .addColumn('request_id', 'text', (c) => c.notNull().references('requests.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('request_reminders_pk', ['request_id', 'user_id', 'kind', 'due_date'])
    .addCheckConstraint('request_reminders_kind_check', sql`kind in ('due_soon', 'overdue')`)
    .execute();
  await db.schema.createIndex('request_reminders_user_id_idx').on('request_reminders').column('user_id').execute();

  // One daily digest per user and (UTC) day: inserting the row claims the sending.
  await db.schema
    .createTable('request_digests')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('request_digests_pk', ['user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'request_digests',
    'request_reminders',
    'request_events',
    'request_comments',
    'request_files',
    'request_teams',
    'request_assignees',
    'requests',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
