import type { Kysely } from 'kysely';

/**
 * Secrets the instances of one portal share (issue 6): the key that signs download links when
 * FILE_URL_SECRET is not set, made once by the first instance that needs it. Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_secrets').execute();
}
