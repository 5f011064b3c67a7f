import { sql, type Kysely } from 'kysely';

/**
 * Settings and administration (issue 4): the audit log, revoked company access, last sign-in,
 * practices and staff practices (issue 7 adds templates to practices), objects assigned to teams,
 * and files attached to system settings. Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Every administrative change: who, what, when, before and after (JSON text). No foreign keys:
  // history outlives the users and companies it names.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('target_label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('company_id', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('request_id', 'text')
    .execute();
  await db.schema.createIndex('audit_log_created_at_idx').on('audit_log').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('audit_log_company_id_idx')
    .on('audit_log')
    .columns(['company_id', 'created_at'])
    .execute();
  await db.schema.createIndex('audit_log_actor_id_idx').on('audit_log').columns(['actor_id', 'created_at']).execute();
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'created_at']).execute();

  // A member whose access was revoked stays listed (and can be restored) but no longer sees the company.
  await db.schema.alterTable('company_memberships').addColumn('access_revoked_at', 'timestamptz').execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'timestamptz').execute();

  // Names compare case-insensitively (the api checks first; these settle two requests that race).
  await db.schema
    .createIndex('companies_name_lower_unique')
    .on('companies')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
  await db.schema
    .createIndex('teams_company_id_name_lower_unique')
    .on('teams')
    .unique()
    .columns(['company_id'])
    .expression(sql`lower(name)`)
    .execute();

  await db.schema
    .createTable('practices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('practices_status_check', sql`status in ('active', 'retired')`)
    .execute();

  await db.schema
    .createTable('staff_practices')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('practice_id', 'text', (c) => c.notNull().references('practices.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('staff_practices_pk', ['user_id', 'practice_id'])
    .execute();
  await db.schema.createIndex('staff_practices_practice_id_idx').on('staff_practices').column('practice_id').execute();

  // Objects (projects now; requests and others later, by module) a team has been given access to.
  await db.schema
    .createTable('team_objects')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('module', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_objects_pk', ['team_id', 'module', 'object_id'])
    .execute();

  await db.schema
    .createTable('system_setting_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull().references('portal_messages.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('system_setting_files_message_id_idx')
    .on('system_setting_files')
    .column('message_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['system_setting_files', 'team_objects', 'staff_practices', 'practices', 'audit_log']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('teams_company_id_name_lower_unique').execute();
  await db.schema.dropIndex('companies_name_lower_unique').execute();
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
  await db.schema.alterTable('company_memberships').dropColumn('access_revoked_at').execute();
}
