/**
 * The documents list's state as the address holds it (search, projectId, sort, page), and the api
 * query it asks for. Defaults stay out of the address, so a plain /v2/projects/documents is page 1,
 * newest first, unfiltered.
 */
import type { DocumentsQuery } from '@portal/shared/core/files';
import { pageParam } from '@portal/shared/core/projects';
import { fileSortOf, type FileSort } from '../../files/model/files-address';

export type { FileSort };
export const DEFAULT_SORT: FileSort = '-updatedAt';
export const PAGE_SIZE = 25;

export interface DocumentsListState {
  search: string;
  projectId: string | null;
  sort: FileSort;
  page: number;
}

export function documentsStateFrom(params: URLSearchParams): DocumentsListState {
  return {
    search: (params.get('search') ?? '').trim(),
    projectId: params.get('projectId') || null,
    sort: fileSortOf(params.get('sort'), DEFAULT_SORT),
    page: pageParam(params, 'page'),
  };
}

/** The address after `changes`; changing what is listed (search, project, sort) goes back to page 1. */
export function withDocumentsState(prev: URLSearchParams, changes: Partial<DocumentsListState>): URLSearchParams {
  const next = new URLSearchParams(prev);
  const set = (key: string, value: string | null) => (value ? next.set(key, value) : next.delete(key));
  if (changes.search !== undefined) set('search', changes.search.trim());
  if (changes.projectId !== undefined) set('projectId', changes.projectId);
  if (changes.sort !== undefined) set('sort', changes.sort === DEFAULT_SORT ? null : changes.sort);
  if (changes.page !== undefined) set('page', changes.page > 1 ? String(changes.page) : null);
  else if (changes.search !== undefined || changes.projectId !== undefined || changes.sort !== undefined)
    next.delete('page');
  return next;
}

export function documentsQueryOf(state: DocumentsListState): DocumentsQuery {
  return {
    page: state.page,
    pageSize: PAGE_SIZE,
    sort: state.sort,
    ...(state.search ? { search: state.search } : {}),
    ...(state.projectId ? { projectId: state.projectId } : {}),
  };
}

export const isFiltered = (state: DocumentsListState) => state.search !== '' || state.projectId !== null;
