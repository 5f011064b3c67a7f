/**
 * A file's own row: the record the routes check (the project's file, any project's file, the file of
 * a name in a folder, locked on PostgreSQL while versions are numbered), renaming or moving it, and
 * deleting files with their versions and task links.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { nowIso } from '../values';

export interface FileRecord {
  id: string;
  projectId: string;
  companyId: string | null;
  folderId: string | null;
  name: string;
  currentVersionId: string | null;
}

const FILE_RECORD_COLUMNS = ['id', 'project_id', 'company_id', 'folder_id', 'name', 'current_version_id'] as const;

function toRecord(row: {
  id: string;
  project_id: string;
  company_id: string | null;
  folder_id: string | null;
  name: string;
  current_version_id: string | null;
}): FileRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    companyId: row.company_id,
    folderId: row.folder_id,
    name: row.name,
    currentVersionId: row.current_version_id,
  };
}

/** The file if it is one of the project's. */
export async function findFile(db: Kysely<Database>, projectId: string, fileId: string): Promise<FileRecord | null> {
  const row = await db
    .selectFrom('files')
    .select(FILE_RECORD_COLUMNS)
    .where('id', '=', fileId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** The file of any project (the download kinds check access themselves). */
export async function findFileAnywhere(db: Kysely<Database>, fileId: string): Promise<FileRecord | null> {
  const row = await db.selectFrom('files').select(FILE_RECORD_COLUMNS).where('id', '=', fileId).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/**
 * The file of this name in the folder, ignoring case. On PostgreSQL its row stays locked until the
 * transaction ends, so two new versions of one file are numbered one after the other.
 */
export async function findFileByName(
  db: Kysely<Database>,
  folderId: string,
  name: string,
  exceptId?: string,
): Promise<FileRecord | null> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  let query = db
    .selectFrom('files')
    .select(FILE_RECORD_COLUMNS)
    .where('folder_id', '=', folderId)
    .where(sql<boolean>`lower(name) = lower(${name})`);
  if (exceptId) query = query.where('id', '<>', exceptId);
  const row = await query.$call((q) => (postgres && db.isTransaction ? q.forUpdate() : q)).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function updateFile(
  db: Kysely<Database>,
  fileId: string,
  changes: { name?: string; folderId?: string },
): Promise<void> {
  const set: { name?: string; folder_id?: string; updated_at: string } = { updated_at: nowIso() };
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.folderId !== undefined) set.folder_id = changes.folderId;
  await db.updateTable('files').set(set).where('id', '=', fileId).execute();
}

/** Deletes the files with their versions and task links; answers the versions' storage keys (removed after commit). */
export async function deleteFiles(db: Kysely<Database>, fileIds: string[]): Promise<string[]> {
  if (fileIds.length === 0) return [];
  const keys = (
    await db.selectFrom('file_versions').select('storage_key').where('file_id', 'in', fileIds).execute()
  ).map((r) => r.storage_key);
  await db.deleteFrom('task_files').where('file_id', 'in', fileIds).execute();
  await db.deleteFrom('file_versions').where('file_id', 'in', fileIds).execute();
  await db.deleteFrom('files').where('id', 'in', fileIds).execute();
  return keys;
}
