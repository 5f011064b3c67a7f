import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type {
  DocumentRow,
  FileDetail,
  FileVersion,
  FILE_SORTS,
  ProjectFile,
  TaskFile,
} from '@portal/shared/core/files';
import { userRef } from './folders';
import type { ProjectViewer } from './projects';
import type { Database } from './schema';
import { likePattern, nowIso, toCount, toIso } from './values';

/**
 * A project's files (issue 6). A file row carries its current version's type, size and uploader (kept
 * in step by the writes here), so lists need no join to the versions but for the hash and number.
 */

export type FileSort = (typeof FILE_SORTS)[number];

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

/** The files of `ids` as the api shows them, in that order: one query for the rows, one each for the counts. */
export async function filesByIds(db: Kysely<Database>, ids: string[]): Promise<ProjectFile[]> {
  if (ids.length === 0) return [];
  const [rows, versions, tasks] = await Promise.all([
    db
      .selectFrom('files as f')
      .leftJoin('file_versions as v', 'v.id', 'f.current_version_id')
      .leftJoin('users as u', 'u.id', 'f.uploaded_by')
      .select([
        'f.id',
        'f.project_id',
        'f.folder_id',
        'f.name',
        'f.content_type',
        'f.size',
        'f.created_at',
        'f.updated_at',
        'v.sha256',
        'v.version',
        'u.id as user_id',
        'u.first_name',
        'u.last_name',
        'u.email',
      ])
      .where('f.id', 'in', ids)
      .execute(),
    db
      .selectFrom('file_versions')
      .select((eb) => ['file_id', eb.fn.countAll().as('n')])
      .where('file_id', 'in', ids)
      .groupBy('file_id')
      .execute(),
    db
      .selectFrom('task_files')
      .select((eb) => ['file_id', eb.fn.countAll().as('n')])
      .where('file_id', 'in', ids)
      .groupBy('file_id')
      .execute(),
  ]);
  const versionCounts = new Map(versions.map((v) => [v.file_id, toCount(v.n as number | string)]));
  const taskCounts = new Map(tasks.map((t) => [t.file_id, toCount(t.n as number | string)]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id): ProjectFile[] => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id: r.id,
        projectId: r.project_id,
        folderId: r.folder_id ?? '',
        name: r.name,
        contentType: r.content_type,
        size: Number(r.size),
        sha256: r.sha256 ?? '',
        version: r.version ?? 0,
        versionCount: versionCounts.get(r.id) ?? 0,
        uploadedBy: userRef(r.user_id, r.first_name, r.last_name, r.email),
        createdAt: toIso(r.created_at),
        updatedAt: toIso(r.updated_at ?? r.created_at),
        taskCount: taskCounts.get(r.id) ?? 0,
      },
    ];
  });
}

export async function findProjectFile(db: Kysely<Database>, fileId: string): Promise<ProjectFile | null> {
  return (await filesByIds(db, [fileId]))[0] ?? null;
}

/** Sorting of the file lists (alias `f`): the key, then the name, then the id, so pages never overlap. */
function sortFiles<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  sort: FileSort,
): SelectQueryBuilder<DB, TB, O> {
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const key = sort.replace(/^-/, '');
  let q = query;
  if (key === 'updatedAt') q = q.orderBy(sql`f.updated_at`, direction);
  else if (key === 'size') q = q.orderBy(sql`f.size`, direction);
  const byName = key === 'name' ? direction : 'asc';
  return q.orderBy(sql`lower(f.name)`, byName).orderBy(sql`f.id`, byName);
}

export interface FileListQuery {
  search?: string;
  sort: FileSort;
  limit: number;
  offset: number;
}

/** A page of one folder's files. */
export async function listFolderFiles(
  db: Kysely<Database>,
  folderId: string,
  query: FileListQuery,
): Promise<{ results: ProjectFile[]; total: number }> {
  let base = db.selectFrom('files as f').where('f.folder_id', '=', folderId);
  if (query.search) base = base.where(sql<boolean>`lower(f.name) like ${likePattern(query.search)} escape '!'`);
  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await sortFiles(base.select('f.id'), query.sort).limit(query.limit).offset(query.offset).execute();
  return {
    results: await filesByIds(
      db,
      rows.map((r) => r.id),
    ),
    total: toCount(totalRow.n as number | string),
  };
}

/** A file with its versions (newest first) and the tasks it is attached to. */
export async function findFileDetail(db: Kysely<Database>, fileId: string): Promise<FileDetail | null> {
  const file = await findProjectFile(db, fileId);
  if (!file) return null;
  const [versions, tasks] = await Promise.all([
    db
      .selectFrom('file_versions as v')
      .leftJoin('users as u', 'u.id', 'v.uploaded_by')
      .select([
        'v.id',
        'v.file_id',
        'v.version',
        'v.size',
        'v.sha256',
        'v.content_type',
        'v.created_at',
        'u.id as user_id',
        'u.first_name',
        'u.last_name',
        'u.email',
      ])
      .where('v.file_id', '=', fileId)
      .orderBy('v.version', 'desc')
      .execute(),
    db
      .selectFrom('task_files as tf')
      .innerJoin('tasks as t', 't.id', 'tf.task_id')
      .select(['t.id', 't.title', 't.reference_id'])
      .where('tf.file_id', '=', fileId)
      .orderBy('t.created_at')
      .orderBy('t.id')
      .execute(),
  ]);
  return {
    ...file,
    versions: versions.map((v): FileVersion => ({
      id: v.id,
      fileId: v.file_id,
      version: v.version,
      size: Number(v.size),
      sha256: v.sha256,
      contentType: v.content_type,
      uploadedBy: userRef(v.user_id, v.first_name, v.last_name, v.email),
      createdAt: toIso(v.created_at),
    })),
    tasks: tasks.map((t) => ({ id: t.id, title: t.title, referenceId: t.reference_id })),
  };
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

// ---------------------------------------------------------------------------------------------
// Files on tasks

export async function taskFileAttached(db: Kysely<Database>, taskId: string, fileId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('task_files')
      .select('file_id')
      .where('task_id', '=', taskId)
      .where('file_id', '=', fileId)
      .executeTakeFirst()) !== undefined
  );
}

export async function attachTaskFile(
  db: Kysely<Database>,
  taskId: string,
  fileId: string,
  createdBy: string,
): Promise<void> {
  await db
    .insertInto('task_files')
    .values({ task_id: taskId, file_id: fileId, created_by: createdBy, created_at: nowIso() })
    .execute();
}

export async function detachTaskFile(db: Kysely<Database>, taskId: string, fileId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('task_files')
    .where('task_id', '=', taskId)
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The task's files, in the order they were attached. */
export async function listTaskFiles(db: Kysely<Database>, taskId: string, fileId?: string): Promise<TaskFile[]> {
  let query = db
    .selectFrom('task_files as tf')
    .leftJoin('users as u', 'u.id', 'tf.created_by')
    .select(['tf.file_id', 'tf.created_at', 'u.id as user_id', 'u.first_name', 'u.last_name', 'u.email'])
    .where('tf.task_id', '=', taskId);
  if (fileId) query = query.where('tf.file_id', '=', fileId);
  const links = await query.orderBy('tf.created_at').orderBy('tf.file_id').execute();
  const files = new Map(
    (
      await filesByIds(
        db,
        links.map((l) => l.file_id),
      )
    ).map((f) => [f.id, f]),
  );
  return links.flatMap((l): TaskFile[] => {
    const file = files.get(l.file_id);
    return file
      ? [
          {
            ...file,
            attachedAt: toIso(l.created_at),
            attachedBy: userRef(l.user_id, l.first_name, l.last_name, l.email),
          },
        ]
      : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Documents: every file of the company's projects the viewer sees

export interface DocumentListQuery extends FileListQuery {
  projectId?: string;
}

export async function listCompanyFiles(
  db: Kysely<Database>,
  companyId: string,
  viewer: ProjectViewer,
  query: DocumentListQuery,
): Promise<{ results: DocumentRow[]; total: number }> {
  let base = db
    .selectFrom('files as f')
    .innerJoin('projects as p', 'p.id', 'f.project_id')
    .where('f.company_id', '=', companyId);
  if (viewer.isAuditor) {
    base = base.where(
      'f.project_id',
      'in',
      db.selectFrom('project_members').select('project_id').where('user_id', '=', viewer.id),
    );
  }
  if (query.projectId) base = base.where('f.project_id', '=', query.projectId);
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where(
      sql<boolean>`(lower(f.name) like ${pattern} escape '!' or lower(p.title) like ${pattern} escape '!')`,
    );
  }
  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await sortFiles(base.select(['f.id', 'f.folder_id', 'p.id as project_id', 'p.title']), query.sort)
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  const files = new Map(
    (
      await filesByIds(
        db,
        rows.map((r) => r.id),
      )
    ).map((f) => [f.id, f]),
  );
  const projectIds = [...new Set(rows.map((r) => r.project_id))];
  const folders = projectIds.length
    ? await db.selectFrom('folders').select(['id', 'parent_id', 'name']).where('project_id', 'in', projectIds).execute()
    : [];
  const folderById = new Map(folders.map((f) => [f.id, f]));
  const pathOf = (folderId: string | null): string => {
    const names: string[] = [];
    const seen = new Set<string>();
    for (
      let at = folderId ? folderById.get(folderId) : undefined;
      at?.parent_id && !seen.has(at.id);
      at = folderById.get(at.parent_id)
    ) {
      seen.add(at.id);
      names.unshift(at.name);
    }
    return names.join(' / ');
  };
  return {
    results: rows.flatMap((r): DocumentRow[] => {
      const file = files.get(r.id);
      return file ? [{ ...file, project: { id: r.project_id, title: r.title }, folderPath: pathOf(r.folder_id) }] : [];
    }),
    total: toCount(totalRow.n as number | string),
  };
}
