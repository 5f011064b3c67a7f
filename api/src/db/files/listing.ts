/**
 * Files as the api shows them: by id (one query for the rows, one each for the counts), a page of a
 * folder's files, and one file with its versions and the tasks it is attached to.
 */
import { sql, type Kysely } from 'kysely';
import type { FileDetail, FileVersion, ProjectFile } from '@portal/shared/core/files';
import { userRef } from '../folders';
import type { Database } from '../schema';
import { likePattern, toCount, toIso } from '../values';
import { sortFiles, type FileSort } from './internal';

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
