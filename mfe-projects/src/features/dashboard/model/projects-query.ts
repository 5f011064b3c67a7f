/**
 * The project list's state as it lives in the address (`status`, `practice`, `q`, `sort`, `page`,
 * `pageSize`), so reload, back and forward restore it, and its translation into the api's query.
 */
import {
  PROJECT_STATUSES,
  pageParam,
  projectsQuerySchema,
  type ProjectStatus,
  type ProjectsQuery,
} from '@portal/shared/core/projects';

export type ProjectSort = NonNullable<ProjectsQuery['sort']>;

export const PROJECT_SORTS: readonly ProjectSort[] = projectsQuerySchema.shape.sort.unwrap().options;
export const DEFAULT_SORT: ProjectSort = 'title';
export const PAGE_SIZES = [10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = PAGE_SIZES[0];

export interface ProjectsListState {
  status: ProjectStatus[];
  practiceId: string | null;
  search: string;
  sort: ProjectSort;
  page: number;
  pageSize: number;
}

/** Reads the list state from the address; unknown values fall back to the defaults. */
export function listStateFrom(params: URLSearchParams): ProjectsListState {
  const status = params
    .getAll('status')
    .filter((s): s is ProjectStatus => (PROJECT_STATUSES as readonly string[]).includes(s));
  const sort = params.get('sort');
  const pageSize = Number(params.get('pageSize'));
  return {
    status: [...new Set(status)],
    practiceId: params.get('practice') || null,
    search: params.get('q')?.trim() ?? '',
    sort: PROJECT_SORTS.includes(sort as ProjectSort) ? (sort as ProjectSort) : DEFAULT_SORT,
    page: pageParam(params, 'page'),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

export function hasFilters(state: ProjectsListState): boolean {
  return state.status.length > 0 || state.practiceId !== null || state.search !== '';
}

/**
 * The address after `changes`. A change of filters, sort or page size starts again from page 1;
 * defaults are left out of the address and other parameters are kept.
 */
export function withListState(prev: URLSearchParams, changes: Partial<ProjectsListState>): URLSearchParams {
  const next = new URLSearchParams(prev);
  const state = { ...listStateFrom(prev), ...changes };
  if (!('page' in changes)) state.page = 1;
  next.delete('status');
  for (const s of state.status) next.append('status', s);
  setOrDelete(next, 'practice', state.practiceId);
  setOrDelete(next, 'q', state.search.trim());
  setOrDelete(next, 'sort', state.sort === DEFAULT_SORT ? null : state.sort);
  setOrDelete(next, 'page', state.page > 1 ? String(state.page) : null);
  setOrDelete(next, 'pageSize', state.pageSize === DEFAULT_PAGE_SIZE ? null : String(state.pageSize));
  return next;
}

function setOrDelete(params: URLSearchParams, key: string, value: string | null) {
  if (value) params.set(key, value);
  else params.delete(key);
}

/** The api's query for the list state (arrays go out as `status[]=…`). */
export function apiQueryOf(state: ProjectsListState): ProjectsQuery {
  return {
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    status: state.status.length ? state.status : undefined,
    practiceId: state.practiceId ?? undefined,
    search: state.search || undefined,
  };
}
