import { sql, type Kysely } from 'kysely';

/**
 * Identity and the shell (issue 3): password policy and resets, SAML identity providers and their
 * request/replay stores, rate limits, portal messages, feature flags, notifications, and the first
 * projects table (project roles decide which companies an auditor sees). Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('password_changed_at', 'timestamptz').execute();

  await db.schema
    .createTable('password_policies')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('minimum_length', 'integer', (c) => c.notNull())
    // 0: passwords never expire.
    .addColumn('rotation_in_days', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('password_policies_minimum_length_check', sql`minimum_length between 8 and 128`)
    .addCheckConstraint('password_policies_rotation_check', sql`rotation_in_days between 0 and 3650`)
    .execute();

  await db.schema
    .createTable('password_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addCheckConstraint('password_tokens_purpose_check', sql`purpose in ('reset', 'invite')`)
    .execute();
  await db.schema.createIndex('password_tokens_user_id_idx').on('password_tokens').column('user_id').execute();

  await db.schema
    .createTable('identity_providers')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('sso_url', 'text', (c) => c.notNull())
    .addColumn('certificate', 'text', (c) => c.notNull())
    .addColumn('slo_url', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  // AuthnRequests we sent and not yet answered: InResponseTo must name one (several instances share it).
  await db.schema
    .createTable('saml_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  // Assertion ids already consumed, kept until they expire: a replayed assertion is refused.
  await db.schema
    .createTable('saml_used_assertions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  // Fixed-window counters (sign-in attempts per account and per address), shared by every instance.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('portal_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull().defaultTo(''))
    // Bumped on every change: a banner closed at version n shows again at n + 1.
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('portal_messages_key_check', sql`key in ('banner', 'help', 'bell')`)
    .addCheckConstraint('portal_messages_status_check', sql`status in ('active', 'inactive')`)
    .execute();

  await db.schema
    .createTable('portal_message_dismissals')
    .addColumn('message_id', 'text', (c) => c.notNull().references('portal_messages.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('dismissed_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('portal_message_dismissals_pk', ['message_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('feature_flags')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // JSON: the value served when no rule matches (boolean, string, number or object).
    .addColumn('default_value', 'text', (c) => c.notNull())
    // JSON array of targeting rules, evaluated in order against the flag context.
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('link', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('read_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('notifications_user_id_created_at_idx')
    .on('notifications')
    .columns(['user_id', 'created_at'])
    .execute();

  // The first cut of projects: enough for project roles. The projects issue adds its columns.
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('projects_title_unique', ['title'])
    .execute();
  await db.schema.createIndex('projects_company_id_idx').on('projects').column('company_id').execute();

  // One role per user per project.
  await db.schema
    .createTable('project_members')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'user_id'])
    .addCheckConstraint(
      'project_members_role_check',
      sql`role in ('Lead Consultant', 'Consultant', 'Project Manager', 'Client Lead')`,
    )
    .execute();
  await db.schema.createIndex('project_members_user_id_idx').on('project_members').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'project_members',
    'projects',
    'notifications',
    'feature_flags',
    'portal_message_dismissals',
    'portal_messages',
    'rate_limits',
    'saml_used_assertions',
    'saml_requests',
    'identity_providers',
    'password_tokens',
    'password_policies',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('users').dropColumn('password_changed_at').execute();
}
