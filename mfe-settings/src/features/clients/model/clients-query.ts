import { intParam } from '../../../app/use-url-params';
import type { ClientsListArgs, ClientsSort } from '../api/clients-api';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

/** The list's state as the address keeps it (?search=&page=&pageSize=&sort=), so reload and back restore it. */
export function clientsQueryFrom(params: URLSearchParams): ClientsListArgs {
  const pageSize = intParam(params, 'pageSize', DEFAULT_PAGE_SIZE);
  const sort: ClientsSort = params.get('sort') === '-name' ? '-name' : 'name';
  return {
    page: intParam(params, 'page', 1),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
    search: params.get('search')?.trim() || undefined,
    sort,
  };
}

/** The address for a list state: defaults are left out, other parameters of the address are kept. */
export function withClientsQuery(prev: URLSearchParams, query: ClientsListArgs): URLSearchParams {
  const next = new URLSearchParams(prev);
  const set = (key: string, value: string | undefined) => (value ? next.set(key, value) : next.delete(key));
  set('search', query.search);
  set('page', query.page > 1 ? String(query.page) : undefined);
  set('pageSize', query.pageSize !== DEFAULT_PAGE_SIZE ? String(query.pageSize) : undefined);
  set('sort', query.sort !== 'name' ? query.sort : undefined);
  return next;
}
