/** The Files tab's place in the address: folder, page, view, sort and search (the address is the state). */
import { FILE_SORTS, type FilesQuery } from '@portal/shared/core/files';
import { pageParam } from '@portal/shared/core/projects';

export const FILES_PARAMS = {
  folder: 'folderId',
  page: 'filesPage',
  view: 'filesView',
  sort: 'filesSort',
  search: 'filesSearch',
} as const;
export const FILES_PAGE_SIZE = 25;

export type FilesView = 'list' | 'grid';
export type FileSort = (typeof FILE_SORTS)[number];
export const DEFAULT_FILE_SORT: FileSort = 'name';

/** The address's sort when it is one the api knows, else `fallback`. */
export function fileSortOf(raw: string | null, fallback: FileSort): FileSort {
  return (FILE_SORTS as readonly string[]).includes(raw ?? '') ? (raw as FileSort) : fallback;
}

export interface FilesState {
  /** null: the root. */
  folderId: string | null;
  page: number;
  view: FilesView;
  sort: FileSort;
  search: string | null;
}

export function filesListState(params: URLSearchParams): FilesState {
  const search = params.get(FILES_PARAMS.search)?.trim();
  return {
    folderId: params.get(FILES_PARAMS.folder) || null,
    page: pageParam(params, FILES_PARAMS.page),
    view: params.get(FILES_PARAMS.view) === 'grid' ? 'grid' : 'list',
    sort: fileSortOf(params.get(FILES_PARAMS.sort), DEFAULT_FILE_SORT),
    search: search || null,
  };
}

/** The files list call for a state: the root when no folder is addressed. */
export function filesQuery(state: FilesState): FilesQuery {
  return {
    page: state.page,
    pageSize: FILES_PAGE_SIZE,
    sort: state.sort,
    ...(state.folderId ? { folderId: state.folderId } : {}),
    ...(state.search ? { search: state.search } : {}),
  };
}

/** The address change that opens a folder: its first page (the root is the default, so it is left out). */
export function openFolderChanges(folderId: string | null, rootId: string | undefined) {
  return {
    [FILES_PARAMS.folder]: folderId && folderId !== rootId ? folderId : null,
    [FILES_PARAMS.page]: null,
    [FILES_PARAMS.search]: null,
  };
}
