/** The project's folders arrive flat (GET /projects/:id/folders); the tab shows them as a tree and a path. */
import type { Folder } from '@portal/shared/core/files';

const byName = (a: Folder, b: Folder) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });

export function rootOf(folders: readonly Folder[] | undefined): Folder | undefined {
  return folders?.find((f) => f.parentId === null);
}

/** The folders directly inside `parentId`, by name. */
export function childrenOf(folders: readonly Folder[], parentId: string): Folder[] {
  return folders.filter((f) => f.parentId === parentId).sort(byName);
}

/** The folders from the root down to `folderId` (empty when it is unknown). */
export function folderPath(folders: readonly Folder[], folderId: string): Folder[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const path: Folder[] = [];
  let at = byId.get(folderId);
  while (at && !path.includes(at)) {
    path.unshift(at);
    at = at.parentId ? byId.get(at.parentId) : undefined;
  }
  return path;
}

/** Whether `folderId` is `ancestorId` or lies somewhere inside it. */
export function isWithin(folders: readonly Folder[], folderId: string, ancestorId: string): boolean {
  return folderPath(folders, folderId).some((f) => f.id === ancestorId);
}

export interface FolderTreeNode {
  value: string;
  title: string;
  children: FolderTreeNode[];
}

/**
 * The folders as a TreeSelect's tree, the root named "Files". `note` may add a word to a folder's title
 * (e.g. "this folder"): the picker marks choices the api will refuse but still offers them, so the
 * refusal and its reason come from the api.
 */
export function folderTree(folders: readonly Folder[], note?: (folder: Folder) => string | null): FolderTreeNode[] {
  const node = (f: Folder, seen: Set<string>): FolderTreeNode => {
    seen.add(f.id);
    const extra = note?.(f);
    const name = f.parentId === null ? 'Files' : f.name;
    return {
      value: f.id,
      title: extra ? `${name} (${extra})` : name,
      children: childrenOf(folders, f.id)
        .filter((c) => !seen.has(c.id))
        .map((c) => node(c, seen)),
    };
  };
  const root = rootOf(folders);
  return root ? [node(root, new Set())] : [];
}
