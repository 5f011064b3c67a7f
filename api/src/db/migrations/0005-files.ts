import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * Files (issue 6): folders per project (one root each), the files table of 0004 placed in folders,
 * versions of a file with their bytes' storage keys, and files attached to tasks. Frozen like 0001.
 *
 * SQLite cannot add a NOT NULL column without a default: the columns added to `files` are nullable
 * in the database and always set by the api (existing rows are backfilled here).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('folders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // null: the project's root
    .addColumn('parent_id', 'text', (c) => c.references('folders.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Sibling names are unique ignoring case (the api checks first; this settles two requests that race).
  await db.schema
    .createIndex('folders_sibling_name_unique')
    .on('folders')
    .unique()
    .columns(['project_id', 'parent_id'])
    .expression(sql`lower(name)`)
    .execute();
  // One root per project (a null parent never collides in the index above).
  await db.schema
    .createIndex('folders_one_root_unique')
    .on('folders')
    .unique()
    .column('project_id')
    .where(sql.ref('parent_id'), 'is', null)
    .execute();
  await db.schema.createIndex('folders_parent_id_idx').on('folders').column('parent_id').execute();
  await db.schema.createIndex('folders_created_by_idx').on('folders').column('created_by').execute();

  await db.schema
    .alterTable('files')
    .addColumn('folder_id', 'text', (c) => c.references('folders.id').onDelete('cascade'))
    .execute();
  // The project's company, kept on the file (as on tasks) so the company's documents list needs no join to sort.
  await db.schema
    .alterTable('files')
    .addColumn('company_id', 'text', (c) => c.references('companies.id').onDelete('cascade'))
    .execute();
  // The newest version (no foreign key: versions point at their file, and the api keeps this in step).
  await db.schema.alterTable('files').addColumn('current_version_id', 'text').execute();
  await db.schema.alterTable('files').addColumn('updated_at', 'timestamptz').execute();

  await db.schema
    .createTable('file_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('uploaded_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('file_versions_file_id_version_unique', ['file_id', 'version'])
    .execute();
  await db.schema.createIndex('file_versions_uploaded_by_idx').on('file_versions').column('uploaded_by').execute();

  await db.schema
    .createTable('task_files')
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('task_files_pk', ['task_id', 'file_id'])
    .execute();
  await db.schema.createIndex('task_files_file_id_idx').on('task_files').column('file_id').execute();
  await db.schema.createIndex('task_files_created_by_idx').on('task_files').column('created_by').execute();

  // Backfill: a root for every project, and the existing files in their project's root.
  const projects: { id: string; created_at: unknown }[] = await db
    .selectFrom('projects')
    .select(['id', 'created_at'])
    .execute();
  const roots = projects.map((p) => ({
    id: randomUUID(),
    project_id: p.id,
    parent_id: null,
    name: 'Files',
    created_by: null,
    created_at: p.created_at instanceof Date ? p.created_at.toISOString() : String(p.created_at),
  }));
  for (let i = 0; i < roots.length; i += 200)
    await db
      .insertInto('folders')
      .values(roots.slice(i, i + 200))
      .execute();
  await db
    .updateTable('files')
    .set({
      folder_id: sql`(select f.id from folders f where f.project_id = files.project_id and f.parent_id is null)`,
      company_id: sql`(select p.company_id from projects p where p.id = files.project_id)`,
      updated_at: sql`created_at`,
    })
    .execute();

  // A folder's files by name (and the same-name rule), and the company's documents by date.
  await db.schema
    .createIndex('files_folder_name_unique')
    .on('files')
    .unique()
    .column('folder_id')
    .expression(sql`lower(name)`)
    .execute();
  await db.schema
    .createIndex('files_company_updated_idx')
    .on('files')
    .columns(['company_id', 'updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('files_project_updated_idx')
    .on('files')
    .columns(['project_id', 'updated_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['files_project_updated_idx', 'files_company_updated_idx', 'files_folder_name_unique']) {
    await db.schema.dropIndex(index).execute();
  }
  for (const table of ['task_files', 'file_versions']) await db.schema.dropTable(table).execute();
  for (const column of ['updated_at', 'current_version_id', 'company_id', 'folder_id']) {
    await db.schema.alterTable('files').dropColumn(column).execute();
  }
  await db.schema.dropTable('folders').execute();
}
