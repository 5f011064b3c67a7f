/**
 * The request list's state as it lives in the address (REQUEST_LIST_PARAMS: `status` and `priority`
 * repeated, `assigneeId`, `teamId`, `requesterId`, `projectId`, `overdue`, `search`, `sort`, `page`,
 * `pageSize`), so reload, back and forward restore it, and its translation into the api's query.
 */
import {
  REQUEST_LIST_PARAMS,
  REQUEST_PRIORITIES,
  REQUEST_SORTS,
  REQUEST_STATUSES,
  type RequestFileFormat,
  type RequestPriority,
  type RequestSort,
  type RequestStatus,
  type RequestsQuery,
} from '@portal/shared/core/requests';
import { serializeParams } from '@portal/shared/web/api';

export const DEFAULT_SORT: RequestSort = '-createdAt';
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

export interface RequestsListState {
  status: RequestStatus[];
  priority: RequestPriority[];
  /** A user id, `me` or `none`. */
  assigneeId: string | null;
  teamId: string | null;
  /** A user id or `me`. */
  requesterId: string | null;
  projectId: string | null;
  overdue: boolean;
  search: string;
  sort: RequestSort;
  page: number;
  pageSize: number;
}

const oneOf = <T extends string>(values: readonly T[], list: string[]): T[] => [
  ...new Set(list.filter((v): v is T => (values as readonly string[]).includes(v))),
];

function pageOf(raw: string | null): number {
  const n = Number(raw);
  return raw !== null && Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Reads the list state from the address; unknown values fall back to the defaults. */
export function listStateFrom(params: URLSearchParams): RequestsListState {
  const sort = params.get('sort');
  const pageSize = Number(params.get('pageSize'));
  return {
    status: oneOf(REQUEST_STATUSES, params.getAll('status')),
    priority: oneOf(REQUEST_PRIORITIES, params.getAll('priority')),
    assigneeId: params.get('assigneeId') || null,
    teamId: params.get('teamId') || null,
    requesterId: params.get('requesterId') || null,
    projectId: params.get('projectId') || null,
    overdue: params.get('overdue') === 'true',
    search: params.get('search')?.trim() ?? '',
    sort: (REQUEST_SORTS as readonly string[]).includes(sort ?? '') ? (sort as RequestSort) : DEFAULT_SORT,
    page: pageOf(params.get('page')),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

export function hasFilters(state: RequestsListState): boolean {
  return (
    state.status.length > 0 ||
    state.priority.length > 0 ||
    state.assigneeId !== null ||
    state.teamId !== null ||
    state.requesterId !== null ||
    state.projectId !== null ||
    state.overdue ||
    state.search !== ''
  );
}

/** The changes that clear every filter (sort and page size stay). */
export const NO_FILTERS: Partial<RequestsListState> = {
  status: [],
  priority: [],
  assigneeId: null,
  teamId: null,
  requesterId: null,
  projectId: null,
  overdue: false,
  search: '',
};

/**
 * The address for another company: the filters naming the old company's things (a project, a team, a
 * member, a requester) and the page go; `me` and `none`, statuses, priorities, overdue, search, sort
 * and page size hold in any company.
 */
export function withoutCompanyFilters(prev: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(prev);
  for (const key of ['projectId', 'teamId', 'page']) next.delete(key);
  const assigneeId = next.get('assigneeId');
  if (assigneeId !== 'me' && assigneeId !== 'none') next.delete('assigneeId');
  if (next.get('requesterId') !== 'me') next.delete('requesterId');
  return next;
}

/** Which rows the filters pick, for knowing when a selection no longer means the same rows. */
export function filterKey(state: RequestsListState): string {
  const { sort: _sort, page: _page, pageSize: _pageSize, ...filters } = state;
  return JSON.stringify(filters);
}

/**
 * The address after `changes`. A change of filters, sort or page size starts again from page 1;
 * defaults are left out of the address, other parameters are kept, and the list's follow in
 * REQUEST_LIST_PARAMS order (the same state always reads the same).
 */
export function withListState(prev: URLSearchParams, changes: Partial<RequestsListState>): URLSearchParams {
  const state = { ...listStateFrom(prev), ...changes };
  if (!('page' in changes)) state.page = 1;
  const next = new URLSearchParams();
  for (const [key, value] of prev)
    if (!(REQUEST_LIST_PARAMS as readonly string[]).includes(key)) next.append(key, value);
  for (const s of state.status) next.append('status', s);
  for (const p of state.priority) next.append('priority', p);
  const single: [string, string | null][] = [
    ['assigneeId', state.assigneeId],
    ['teamId', state.teamId],
    ['requesterId', state.requesterId],
    ['projectId', state.projectId],
    ['overdue', state.overdue ? 'true' : null],
    ['search', state.search.trim()],
    ['sort', state.sort === DEFAULT_SORT ? null : state.sort],
    ['page', state.page > 1 ? String(state.page) : null],
    ['pageSize', state.pageSize === DEFAULT_PAGE_SIZE ? null : String(state.pageSize)],
  ];
  for (const [key, value] of single) if (value) next.append(key, value);
  return next;
}

/** The filters and sort as the api reads them (no paging). */
function filtersOf(state: RequestsListState): RequestsQuery {
  return {
    sort: state.sort,
    status: state.status.length ? state.status : undefined,
    priority: state.priority.length ? state.priority : undefined,
    assigneeId: state.assigneeId ?? undefined,
    teamId: state.teamId ?? undefined,
    requesterId: state.requesterId ?? undefined,
    projectId: state.projectId ?? undefined,
    overdue: state.overdue ? true : undefined,
    search: state.search || undefined,
  };
}

/** The api's query for the list state. */
export function apiQueryOf(state: RequestsListState): RequestsQuery {
  return { page: state.page, pageSize: state.pageSize, ...filtersOf(state) };
}

/** GET …/requests/export for the list's filters and sort: every matching request, not only the page shown. */
export function exportPath(companyId: string, state: RequestsListState, format: RequestFileFormat): string {
  const query = serializeParams({ format, ...filtersOf(state) });
  return `/companies/${encodeURIComponent(companyId)}/requests/export?${query}`;
}

/**
 * The Assignee filter's one value for the address's `assigneeId` / `teamId`: `me`, `none`,
 * `user:<id>` or `team:<id>`; and back.
 */
export function assigneeFilterValue(state: Pick<RequestsListState, 'assigneeId' | 'teamId'>): string | undefined {
  if (state.assigneeId === 'me' || state.assigneeId === 'none') return state.assigneeId;
  if (state.assigneeId) return `user:${state.assigneeId}`;
  if (state.teamId) return `team:${state.teamId}`;
  return undefined;
}

export function assigneeFilterChanges(value: string | undefined): Pick<RequestsListState, 'assigneeId' | 'teamId'> {
  if (!value) return { assigneeId: null, teamId: null };
  if (value === 'me' || value === 'none') return { assigneeId: value, teamId: null };
  if (value.startsWith('team:')) return { assigneeId: null, teamId: value.slice(5) };
  return { assigneeId: value.startsWith('user:') ? value.slice(5) : value, teamId: null };
}
