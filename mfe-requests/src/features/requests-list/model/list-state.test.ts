import {
  apiQueryOf,
  assigneeFilterChanges,
  assigneeFilterValue,
  exportPath,
  filterKey,
  hasFilters,
  listStateFrom,
  NO_FILTERS,
  withListState,
  withoutCompanyFilters,
} from './list-state';

const state = (query: string) => listStateFrom(new URLSearchParams(query));

describe('the request list address', () => {
  it('reads repeated statuses and priorities, drops unknown values and falls back to the defaults', () => {
    expect(
      state(
        'status=open&status=nope&status=open&status=returned&priority=high&sort=bogus&page=0&pageSize=7&overdue=yes',
      ),
    ).toEqual({
      status: ['open', 'returned'],
      priority: ['high'],
      assigneeId: null,
      teamId: null,
      requesterId: null,
      projectId: null,
      overdue: false,
      search: '',
      sort: '-createdAt',
      page: 1,
      pageSize: 25,
    });
    expect(state('assigneeId=me&overdue=true&search=%20fire%20&sort=dueDate&page=3&pageSize=50')).toMatchObject({
      assigneeId: 'me',
      overdue: true,
      search: 'fire',
      sort: 'dueDate',
      page: 3,
      pageSize: 50,
    });
  });

  it('goes back to page 1 on any change but a page change, keeps other parameters and leaves defaults out', () => {
    const prev = new URLSearchParams('page=4&status=open&tab=x');
    expect(withListState(prev, { priority: ['low', 'critical'] }).toString()).toBe(
      'tab=x&status=open&priority=low&priority=critical',
    );
    expect(withListState(prev, { page: 5 }).toString()).toBe('tab=x&status=open&page=5');
    expect(withListState(prev, { sort: '-createdAt', overdue: true }).toString()).toBe(
      'tab=x&status=open&overdue=true',
    );
    expect(
      withListState(new URLSearchParams('assigneeId=me&search=x&pageSize=50&sort=title'), NO_FILTERS).toString(),
    ).toBe('sort=title&pageSize=50');
  });

  it('knows when filters are set, and which changes keep the same rows', () => {
    expect(hasFilters(state(''))).toBe(false);
    expect(hasFilters(state('requesterId=me'))).toBe(true);
    expect(hasFilters(state('overdue=true'))).toBe(true);
    expect(hasFilters(state('sort=title&page=2'))).toBe(false);
    expect(filterKey(state('status=open&page=2&sort=title'))).toBe(filterKey(state('status=open')));
    expect(filterKey(state('status=open'))).not.toBe(filterKey(state('status=open&projectId=p1')));
  });

  it('asks the api for the page and the export for every page with the same filters and sort', () => {
    const s = state('status=open&status=submitted&teamId=tm1&overdue=true&search=a%26b&sort=dueDate&page=2');
    expect(apiQueryOf(s)).toEqual({
      page: 2,
      pageSize: 25,
      sort: 'dueDate',
      status: ['open', 'submitted'],
      teamId: 'tm1',
      overdue: true,
      search: 'a&b',
      priority: undefined,
      assigneeId: undefined,
      requesterId: undefined,
      projectId: undefined,
    });
    expect(exportPath('c 1', s, 'xlsx')).toBe(
      '/companies/c%201/requests/export?format=xlsx&sort=dueDate&status%5B%5D=open&status%5B%5D=submitted&teamId=tm1&overdue=true&search=a%26b',
    );
  });

  it('maps the Assignee filter to assigneeId or teamId and back', () => {
    for (const value of ['me', 'none', 'user:u2', 'team:tm1'])
      expect(assigneeFilterValue(assigneeFilterChanges(value))).toBe(value);
    expect(assigneeFilterChanges(undefined)).toEqual({ assigneeId: null, teamId: null });
    expect(assigneeFilterChanges('team:tm1')).toEqual({ assigneeId: null, teamId: 'tm1' });
  });

  it('keeps, for another company, only the filters that mean the same there', () => {
    const other = (query: string) => withoutCompanyFilters(new URLSearchParams(query)).toString();
    expect(
      other(
        'tab=x&status=open&status=returned&priority=high&assigneeId=u2&teamId=tm1&requesterId=u1&projectId=p1&overdue=true&search=fire&sort=dueDate&page=3&pageSize=50',
      ),
    ).toBe('tab=x&status=open&status=returned&priority=high&overdue=true&search=fire&sort=dueDate&pageSize=50');
    expect(other('assigneeId=me&requesterId=me&page=2')).toBe('assigneeId=me&requesterId=me');
    expect(other('assigneeId=none')).toBe('assigneeId=none');
  });
});
