import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { CLOSED_TASK_STATUSES } from '@portal/shared/core/projects';
import type { FileUserRef, Folder } from '@portal/shared/core/files';
import type { Database } from './schema';
import { nowIso, toIso } from './values';

/** A project's folders (issue 6): one root per project (parent null), nested at most FOLDER_MAX_DEPTH deep. */

/** The root's name; the web shows the project's title in its place. */
export const ROOT_FOLDER_NAME = 'Files';

export interface FolderRecord {
  id: string;
  projectId: string;
  parentId: string | null;
  name: string;
}

/** A user as files show them: id, full name, email (null when the user was deleted). */
export function userRef(
  id: string | null,
  first: string | null,
  last: string | null,
  email: string | null,
): FileUserRef | null {
  return id && email !== null ? { id, name: `${first ?? ''} ${last ?? ''}`.trim(), email } : null;
}

/** The project's root, made with the project (same transaction). */
export async function insertRootFolder(
  db: Kysely<Database>,
  projectId: string,
  createdBy: string | null,
  createdAt = nowIso(),
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('folders')
    .values({
      id,
      project_id: projectId,
      parent_id: null,
      name: ROOT_FOLDER_NAME,
      created_by: createdBy,
      created_at: createdAt,
    })
    .execute();
  return id;
}

/** Every folder of the project, root first, then by name. */
export async function listFolders(db: Kysely<Database>, projectId: string): Promise<Folder[]> {
  const rows = await db
    .selectFrom('folders as f')
    .leftJoin('users as u', 'u.id', 'f.created_by')
    .select([
      'f.id',
      'f.project_id',
      'f.parent_id',
      'f.name',
      'f.created_at',
      'u.id as user_id',
      'u.first_name',
      'u.last_name',
      'u.email',
    ])
    .where('f.project_id', '=', projectId)
    .orderBy(sql`case when f.parent_id is null then 0 else 1 end`)
    .orderBy(sql`lower(f.name)`)
    .orderBy('f.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    projectId: r.project_id,
    parentId: r.parent_id,
    name: r.name,
    createdAt: toIso(r.created_at),
    createdBy: userRef(r.user_id, r.first_name, r.last_name, r.email),
  }));
}

export async function findFolderDto(db: Kysely<Database>, projectId: string, folderId: string): Promise<Folder | null> {
  return (await listFolders(db, projectId)).find((f) => f.id === folderId) ?? null;
}

/** The folder if it is one of the project's. */
export async function findFolder(
  db: Kysely<Database>,
  projectId: string,
  folderId: string,
): Promise<FolderRecord | null> {
  const row = await db
    .selectFrom('folders')
    .select(['id', 'project_id', 'parent_id', 'name'])
    .where('id', '=', folderId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row ? { id: row.id, projectId: row.project_id, parentId: row.parent_id, name: row.name } : null;
}

export async function findRootFolder(db: Kysely<Database>, projectId: string): Promise<FolderRecord | null> {
  const row = await db
    .selectFrom('folders')
    .select(['id', 'project_id', 'parent_id', 'name'])
    .where('project_id', '=', projectId)
    .where('parent_id', 'is', null)
    .executeTakeFirst();
  return row ? { id: row.id, projectId: row.project_id, parentId: row.parent_id, name: row.name } : null;
}

/** Whether a sibling under `parentId` has this name, ignoring case (`exceptId`: the folder being renamed or moved). */
export async function folderNameTaken(
  db: Kysely<Database>,
  projectId: string,
  parentId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('folders')
    .select('id')
    .where('project_id', '=', projectId)
    .where('parent_id', '=', parentId)
    .where(sql<boolean>`lower(name) = lower(${name})`);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertFolder(
  db: Kysely<Database>,
  input: { projectId: string; parentId: string; name: string; createdBy: string },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('folders')
    .values({
      id,
      project_id: input.projectId,
      parent_id: input.parentId,
      name: input.name,
      created_by: input.createdBy,
      created_at: nowIso(),
    })
    .execute();
  return id;
}

export async function updateFolder(
  db: Kysely<Database>,
  id: string,
  changes: { name?: string; parentId?: string },
): Promise<void> {
  const set: { name?: string; parent_id?: string } = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.parentId !== undefined) set.parent_id = changes.parentId;
  if (Object.keys(set).length) await db.updateTable('folders').set(set).where('id', '=', id).execute();
}

/** The project's folder tree as parent links: a project holds few folders, so the tree is read whole. */
export class FolderTree {
  private readonly parents = new Map<string, string | null>();
  private readonly children = new Map<string, string[]>();

  constructor(rows: { id: string; parent_id: string | null }[]) {
    for (const r of rows) {
      this.parents.set(r.id, r.parent_id);
      if (r.parent_id) this.children.set(r.parent_id, [...(this.children.get(r.parent_id) ?? []), r.id]);
    }
  }

  /** The root is 0, its children 1... (a loop in the links, which the files lock prevents, ends the walk). */
  depth(id: string): number {
    let depth = 0;
    const seen = new Set([id]);
    for (let at = this.parents.get(id); at && !seen.has(at); at = this.parents.get(at)) {
      seen.add(at);
      depth += 1;
    }
    return depth;
  }

  /** The folder and every folder below it (each once, even were the links to loop). */
  subtree(id: string): string[] {
    const seen = new Set<string>();
    const stack = [id];
    while (stack.length) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(this.children.get(next) ?? []));
    }
    return [...seen];
  }

  /** How many levels sit below the folder (0 for a leaf; a loop counts once). */
  height(id: string, seen: Set<string> = new Set()): number {
    seen.add(id);
    const below = (this.children.get(id) ?? []).filter((c) => !seen.has(c));
    let height = 0;
    for (const c of below) height = Math.max(height, 1 + this.height(c, seen));
    return height;
  }
}

export async function folderTree(db: Kysely<Database>, projectId: string): Promise<FolderTree> {
  return new FolderTree(
    await db.selectFrom('folders').select(['id', 'parent_id']).where('project_id', '=', projectId).execute(),
  );
}

/** Whether a file in these folders is on a task that is not done (COMPLETED or NOT_APPLICABLE). */
export async function foldersHaveOpenTaskFiles(db: Kysely<Database>, folderIds: string[]): Promise<boolean> {
  if (folderIds.length === 0) return false;
  const row = await db
    .selectFrom('task_files as tf')
    .innerJoin('files as f', 'f.id', 'tf.file_id')
    .innerJoin('tasks as t', 't.id', 'tf.task_id')
    .select('tf.file_id')
    .where('f.folder_id', 'in', folderIds)
    .where('t.status', 'not in', CLOSED_TASK_STATUSES)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes the folders (a folder with everything below it), their files, the files' versions and task
 * links. Answers the storage keys of the removed versions: the caller removes the bytes after commit.
 */
export async function deleteFolders(
  db: Kysely<Database>,
  folderIds: string[],
): Promise<{ storageKeys: string[]; fileCount: number }> {
  if (folderIds.length === 0) return { storageKeys: [], fileCount: 0 };
  const files = await db.selectFrom('files').select('id').where('folder_id', 'in', folderIds).execute();
  const fileIds = files.map((f) => f.id);
  const storageKeys = fileIds.length
    ? (await db.selectFrom('file_versions').select('storage_key').where('file_id', 'in', fileIds).execute()).map(
        (r) => r.storage_key,
      )
    : [];
  if (fileIds.length) {
    await db.deleteFrom('task_files').where('file_id', 'in', fileIds).execute();
    await db.deleteFrom('file_versions').where('file_id', 'in', fileIds).execute();
    await db.deleteFrom('files').where('id', 'in', fileIds).execute();
  }
  // Subfolders go with their parent (on delete cascade); the ones listed are removed explicitly too.
  await db.deleteFrom('folders').where('id', 'in', folderIds).execute();
  return { storageKeys, fileCount: fileIds.length };
}
