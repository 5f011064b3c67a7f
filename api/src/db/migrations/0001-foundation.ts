import { sql, type Kysely } from 'kysely';

/**
 * Users, companies, module access, teams and sessions. Frozen: later changes go in new migrations.
 * Written once for both dialects: `boolean` and `timestamptz` are native on PostgreSQL and
 * plain affinities on SQLite (0/1 and ISO-8601 text, which sorts and compares correctly).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('primary_phone', 'text')
    .addColumn('avatar', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('is_tevora', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_auditor', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('send_daily_emails', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_federated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('first_login', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('users_status_check', sql`status in ('active', 'suspended')`)
    .addCheckConstraint('users_email_lowercase_check', sql`email = lower(email)`)
    .execute();

  await db.schema
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('logo', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('company_modules_access')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('module', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_modules_access_pk', ['company_id', 'module'])
    .execute();

  await db.schema
    .createTable('company_memberships')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_memberships_pk', ['company_id', 'user_id'])
    .addCheckConstraint('company_memberships_role_check', sql`role in ('admin', 'member')`)
    .execute();
  await db.schema.createIndex('company_memberships_user_id_idx').on('company_memberships').column('user_id').execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('teams_company_id_name_unique', ['company_id', 'name'])
    .execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user_id_idx').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('user_modules_access')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('module', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean')
    .addPrimaryKeyConstraint('user_modules_access_pk', ['company_id', 'user_id', 'module'])
    .execute();
  await db.schema.createIndex('user_modules_access_user_id_idx').on('user_modules_access').column('user_id').execute();

  await db.schema
    .createTable('team_modules_access')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('module', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean')
    .addPrimaryKeyConstraint('team_modules_access_pk', ['team_id', 'module'])
    .execute();
  await db.schema
    .createIndex('team_modules_access_company_id_idx')
    .on('team_modules_access')
    .column('company_id')
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'sessions',
    'team_modules_access',
    'user_modules_access',
    'team_members',
    'teams',
    'company_memberships',
    'company_modules_access',
    'companies',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
