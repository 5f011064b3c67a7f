/**
 * Uploads and versions: a new file with its version 1, the next version of a file (which becomes its
 * current one and sets the type, size and uploader the file row carries), and a version to download.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import { nowIso, toCount } from '../values';

export interface NewVersion {
  fileId: string;
  size: number;
  sha256: string;
  contentType: string;
  storageKey: string;
  uploadedBy: string | null;
  createdAt?: string;
}

async function insertVersion(db: Kysely<Database>, version: number, input: NewVersion): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('file_versions')
    .values({
      id,
      file_id: input.fileId,
      version,
      size: input.size,
      sha256: input.sha256,
      content_type: input.contentType,
      storage_key: input.storageKey,
      uploaded_by: input.uploadedBy,
      created_at: input.createdAt ?? nowIso(),
    })
    .execute();
  return id;
}

/** A new file with its version 1. */
export async function insertFileWithVersion(
  db: Kysely<Database>,
  input: Omit<NewVersion, 'fileId'> & { projectId: string; companyId: string; folderId: string; name: string },
): Promise<{ fileId: string; versionId: string }> {
  const fileId = randomUUID();
  const at = input.createdAt ?? nowIso();
  await db
    .insertInto('files')
    .values({
      id: fileId,
      project_id: input.projectId,
      company_id: input.companyId,
      folder_id: input.folderId,
      name: input.name,
      content_type: input.contentType,
      size: input.size,
      uploaded_by: input.uploadedBy,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const versionId = await insertVersion(db, 1, { ...input, fileId, createdAt: at });
  await db.updateTable('files').set({ current_version_id: versionId }).where('id', '=', fileId).execute();
  return { fileId, versionId };
}

/** The next version of a file, which becomes its current one. */
export async function addFileVersion(
  db: Kysely<Database>,
  input: NewVersion,
): Promise<{ versionId: string; version: number }> {
  const last = await db
    .selectFrom('file_versions')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('file_id', '=', input.fileId)
    .executeTakeFirst();
  const version = toCount(last?.v as number | string | null) + 1;
  const at = input.createdAt ?? nowIso();
  const versionId = await insertVersion(db, version, { ...input, createdAt: at });
  await db
    .updateTable('files')
    .set({
      current_version_id: versionId,
      content_type: input.contentType,
      size: input.size,
      uploaded_by: input.uploadedBy,
      updated_at: at,
    })
    .where('id', '=', input.fileId)
    .execute();
  return { versionId, version };
}

/** A version of the file: the one named, or the current one. */
export async function findFileVersion(
  db: Kysely<Database>,
  fileId: string,
  versionId: string | null,
): Promise<{ id: string; size: number; contentType: string; storageKey: string } | null> {
  if (!versionId) return null;
  const row = await db
    .selectFrom('file_versions')
    .select(['id', 'size', 'content_type', 'storage_key'])
    .where('id', '=', versionId)
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  return row
    ? { id: row.id, size: Number(row.size), contentType: row.content_type, storageKey: row.storage_key }
    : null;
}
