import type { Kysely } from 'kysely';

/**
 * Safe transfer (issue 6): files a user of a company sends to other users of that company through
 * expiring links, with an optional passphrase (argon2id hash, never the passphrase itself), its
 * recipients, its files (bytes in the blob storage under `storage_key`) and each download. Expired
 * transfers are deleted by the api's sweep; every child row goes with them. Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('sender_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('message', 'text')
    .addColumn('passphrase_hash', 'text')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // The sent box (newest first); deleting a user sets sender_id to null through it too.
  await db.schema
    .createIndex('transfers_sender_box_idx')
    .on('transfers')
    .columns(['sender_id', 'company_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('transfers_company_id_idx').on('transfers').column('company_id').execute();
  // The expiry sweep.
  await db.schema.createIndex('transfers_expires_at_idx').on('transfers').column('expires_at').execute();

  await db.schema
    .createTable('transfer_recipients')
    .addColumn('transfer_id', 'text', (c) => c.notNull().references('transfers.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The transfer's company and time, kept here so the received box walks one index (as tasks keep company_id).
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('transfer_recipients_pk', ['transfer_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('transfer_recipients_box_idx')
    .on('transfer_recipients')
    .columns(['user_id', 'company_id', 'created_at', 'transfer_id'])
    .execute();

  await db.schema
    .createTable('transfer_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('transfer_id', 'text', (c) => c.notNull().references('transfers.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transfer_files_transfer_id_idx')
    .on('transfer_files')
    .columns(['transfer_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('transfer_downloads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('transfer_file_id', 'text', (c) => c.notNull().references('transfer_files.id').onDelete('cascade'))
    // A deleted user's downloads stay recorded, without the user.
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('downloaded_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transfer_downloads_file_idx')
    .on('transfer_downloads')
    .columns(['transfer_file_id', 'downloaded_at'])
    .execute();
  await db.schema.createIndex('transfer_downloads_user_id_idx').on('transfer_downloads').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['transfer_downloads', 'transfer_files', 'transfer_recipients', 'transfers']) {
    await db.schema.dropTable(table).execute();
  }
}
