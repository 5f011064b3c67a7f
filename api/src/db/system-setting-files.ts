import type { Kysely, Selectable } from 'kysely';
import type { SystemSettingFile } from '@portal/shared/core/settings';
import type { Database, SystemSettingFilesTable } from './schema';
import { toIso } from './values';

/** A file attached to a system setting (a portal message); its bytes live in storage under `storageKey`. */
export interface SystemSettingFileRecord extends SystemSettingFile {
  messageId: string;
  storageKey: string;
}

export interface NewSystemSettingFile {
  id: string;
  messageId: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  storageKey: string;
  uploadedBy: string | null;
  createdAt: string;
}

function toRecord(row: Selectable<SystemSettingFilesTable>): SystemSettingFileRecord {
  return {
    id: row.id,
    messageId: row.message_id,
    name: row.name,
    contentType: row.content_type,
    size: Number(row.size),
    sha256: row.sha256,
    storageKey: row.storage_key,
    createdAt: toIso(row.created_at),
  };
}

/** What the api answers for a file: never where it is stored. */
export function toSystemSettingFileDto(record: SystemSettingFileRecord): SystemSettingFile {
  return {
    id: record.id,
    name: record.name,
    contentType: record.contentType,
    size: record.size,
    sha256: record.sha256,
    createdAt: record.createdAt,
  };
}

/** The files of a setting, oldest first. */
export async function listSystemSettingFiles(
  db: Kysely<Database>,
  messageId: string,
): Promise<SystemSettingFileRecord[]> {
  const rows = await db
    .selectFrom('system_setting_files')
    .selectAll()
    .where('message_id', '=', messageId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toRecord);
}

/** The file if it belongs to that setting. */
export async function findSystemSettingFile(
  db: Kysely<Database>,
  messageId: string,
  fileId: string,
): Promise<SystemSettingFileRecord | null> {
  const row = await db
    .selectFrom('system_setting_files')
    .selectAll()
    .where('message_id', '=', messageId)
    .where('id', '=', fileId)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** The file of any setting (the download routes know only the file's id). */
export async function findSystemSettingFileById(
  db: Kysely<Database>,
  fileId: string,
): Promise<SystemSettingFileRecord | null> {
  const row = await db.selectFrom('system_setting_files').selectAll().where('id', '=', fileId).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** Points the rows naming `from` at `to` (moving bytes between stores); how many rows. */
export async function replaceSystemSettingFileKey(db: Kysely<Database>, from: string, to: string): Promise<number> {
  const result = await db
    .updateTable('system_setting_files')
    .set({ storage_key: to })
    .where('storage_key', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertSystemSettingFiles(db: Kysely<Database>, files: NewSystemSettingFile[]): Promise<void> {
  if (files.length === 0) return;
  await db
    .insertInto('system_setting_files')
    .values(
      files.map((f) => ({
        id: f.id,
        message_id: f.messageId,
        name: f.name,
        content_type: f.contentType,
        size: f.size,
        sha256: f.sha256,
        storage_key: f.storageKey,
        uploaded_by: f.uploadedBy,
        created_at: f.createdAt,
      })),
    )
    .execute();
}

/** Whether the row existed. The caller removes the bytes once this has committed. */
export async function deleteSystemSettingFile(
  db: Kysely<Database>,
  messageId: string,
  fileId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('system_setting_files')
    .where('message_id', '=', messageId)
    .where('id', '=', fileId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
