import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { localDay } from '@portal/shared/core/requests';
import type { Company } from '@portal/shared/core/schemas';
import { sessionActions } from '@portal/shared/web/session';
import {
  acme,
  address,
  apiError,
  auditorSession,
  button,
  clientSession,
  findOption,
  globex,
  makeRequest,
  rowOf,
  setupUser,
  staffSession,
} from '../../../testing/fixtures';
import { renderListAt, setupListApi } from '../testing/list-api';

const { api, server } = setupListApi();

describe('the requests list', () => {
  it('shows the requests with their columns, links to each, and the staff actions', async () => {
    renderListAt('/requests');
    const link = await screen.findByText('REQ-0001', { selector: '.ant-table-row a' });
    expect(link).toHaveAttribute('href', '/requests/r1');
    expect(screen.getByText('Firewall review', { selector: 'a' })).toHaveAttribute('href', '/requests/r1');
    const row = rowOf('REQ-0001');
    for (const text of [
      'Open',
      'Medium',
      '1/10/2026',
      'Overdue',
      'Ann Lee, Team: IT Ops',
      'SOC 2 Type II 2026',
      '1/3/2026',
    ])
      expect(within(row).getByText(text)).toBeInTheDocument();
    expect(within(rowOf('REQ-0002')).getByText('Submitted')).toBeInTheDocument();
    expect(within(rowOf('REQ-0002')).queryByText('Overdue')).not.toBeInTheDocument();
    for (const name of ['Reference', 'Title', 'Status', 'Priority', 'Due date', 'Assignees', 'Project', 'Updated']) {
      expect(screen.getByText(name, { selector: 'th, th *' })).toBeInTheDocument();
    }
    expect(button('New request')).toBeInTheDocument();
    expect(button('Import')).toBeInTheDocument();
    expect(button('Export')).toBeInTheDocument();
    expect(within(row).getByLabelText('Select REQ-0001')).toBeInTheDocument();
    expect(api.listCalls).toEqual(['?page=1&pageSize=25&sort=-createdAt']);
  });

  it('offers clients and auditors the list and the export only', async () => {
    for (const session of [clientSession, auditorSession]) {
      const { unmount } = renderListAt('/requests', session);
      await screen.findByText('REQ-0001', { selector: '.ant-table-row a' });
      expect(screen.queryByText('New request')).not.toBeInTheDocument();
      expect(screen.queryByText('Import')).not.toBeInTheDocument();
      expect(screen.queryByLabelText('Select REQ-0001')).not.toBeInTheDocument();
      expect(button('Export')).toBeInTheDocument();
      unmount();
    }
  });

  it('says why there is no list without a company or without the requests module, and calls nothing', async () => {
    const { unmount } = renderListAt('/requests', { ...staffSession, selectedCompanyId: null, company: null });
    expect(await screen.findByText('No company selected')).toBeInTheDocument();
    unmount();
    renderListAt('/requests', { ...staffSession, selectedCompanyId: 'c2', company: null });
    expect(await screen.findByText('Requests are not available')).toBeInTheDocument();
    expect(screen.getByText('Your access to Globex Inc does not include the requests module.')).toBeInTheDocument();
    expect(screen.queryByText('Export')).not.toBeInTheDocument();
    expect(api.listCalls).toEqual([]);
  });

  it('keeps the filters in the address from page 1, restores them on Back, and clears them', async () => {
    const user = setupUser();
    renderListAt('/requests?page=2&sort=dueDate');
    await screen.findByText('Old policy', { selector: 'a' });
    await user.click(screen.getByLabelText('Status filter'));
    await user.click(await findOption('Open'));
    await waitFor(() => expect(address()).toBe('/requests?status=open&sort=dueDate'));
    await waitFor(() => expect(screen.queryByText('Old policy', { selector: 'a' })).not.toBeInTheDocument());
    await user.click(screen.getByLabelText('Overdue only'));
    await waitFor(() => expect(address()).toBe('/requests?status=open&overdue=true&sort=dueDate'));
    expect(api.listCalls).toEqual([
      '?page=2&pageSize=25&sort=dueDate',
      '?page=1&pageSize=25&sort=dueDate&status[]=open',
      '?page=1&pageSize=25&sort=dueDate&status[]=open&overdue=true',
    ]);

    await user.click(button('Browser back'));
    await waitFor(() => expect(address()).toBe('/requests?status=open&sort=dueDate'));
    expect(screen.getByLabelText('Overdue only')).not.toBeChecked();

    await user.click(screen.getByLabelText('Priority filter'));
    await user.click(await findOption('Critical'));
    await waitFor(() => expect(address()).toBe('/requests?status=open&priority=critical&sort=dueDate'));
    expect(await screen.findByText('No requests match these filters')).toBeInTheDocument();
    await user.click(button('Clear filters'));
    await waitFor(() => expect(address()).toBe('/requests?sort=dueDate'));
    expect(await screen.findByText('Old policy', { selector: 'a' })).toBeInTheDocument();
  });

  it('searches after a pause in typing, in one history entry', async () => {
    const user = setupUser();
    renderListAt('/requests?priority=high');
    await screen.findByText('Access list', { selector: 'a' });
    const search = screen.getByPlaceholderText('Search requests');
    await user.type(search, 'fire');
    await waitFor(() => expect(address()).toBe('/requests?priority=high&search=fire'));
    await user.type(search, 'wall');
    await waitFor(() => expect(address()).toBe('/requests?priority=high&search=firewall'));
    expect(api.listCalls.at(-1)).toBe('?page=1&pageSize=25&sort=-createdAt&priority[]=high&search=firewall');
    await user.click(button('Browser back'));
    await waitFor(() => expect(address()).toBe('/requests?priority=high'));
    expect(search).toHaveValue('');
  });

  it('says when there are no requests at all, and offers a retry when the list fails', async () => {
    api.requests = [];
    const { unmount } = renderListAt('/requests');
    expect(await screen.findByText('No requests yet')).toBeInTheDocument();
    unmount();

    server.use(
      http.get(
        '*/api/v1/companies/c1/requests',
        () => HttpResponse.json(apiError('internal_error', 'Something went wrong'), { status: 500 }),
        { once: true },
      ),
    );
    const user = setupUser();
    api.requests = [makeRequest(7)];
    renderListAt('/requests');
    expect(await screen.findByText('The requests could not be loaded')).toBeInTheDocument();
    await user.click(button('Retry'));
    expect(await screen.findByText('REQ-0007', { selector: 'a' })).toBeInTheDocument();
  });

  it('exports the requests of the current filters and sort, and says when the export fails', async () => {
    const urls = URL as unknown as { createObjectURL?: (b: Blob) => string; revokeObjectURL?: (u: string) => void };
    const [create, revoke] = [urls.createObjectURL, urls.revokeObjectURL];
    urls.createObjectURL = () => 'blob:export';
    urls.revokeObjectURL = () => undefined;
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      const user = setupUser();
      renderListAt('/requests?status=open&status=returned&sort=title&page=3&assigneeId=me');
      await screen.findByText('Firewall review', { selector: 'a' });
      await user.click(button('Export'));
      await user.click(await screen.findByText('Export CSV'));
      await waitFor(() =>
        expect(api.exportCalls).toEqual(['?format=csv&sort=title&status[]=open&status[]=returned&assigneeId=me']),
      );
      await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
      await waitFor(() => expect(button('Export')).toBeEnabled());

      server.use(
        http.get(
          '*/api/v1/companies/c1/requests/export',
          () => HttpResponse.json(apiError('forbidden', 'No'), { status: 403 }),
          { once: true },
        ),
      );
      await user.click(button('Export'));
      await user.click(await screen.findByText('Export XLSX'));
      expect(await screen.findByText('The export failed. Try again.')).toBeInTheDocument();
      expect(click).toHaveBeenCalledTimes(1);
      expect(api.toasts.some((t) => t.severity === 'error')).toBe(true);
    } finally {
      urls.createObjectURL = create;
      urls.revokeObjectURL = revoke;
      click.mockRestore();
    }
  });

  it("marks a request overdue by the user's own day, not the server's", async () => {
    const yesterday = new Date();
    yesterday.setDate(yesterday.getDate() - 1);
    api.requests = [
      // the server's day is still yesterday: it says "not overdue", but the day has passed here
      makeRequest(1, { title: 'Firewall review', dueDate: localDay(yesterday), overdue: false }),
      // the server's day is already tomorrow: it says "overdue", but here it is due today
      makeRequest(2, { title: 'Access list', dueDate: localDay(), overdue: true }),
    ];
    renderListAt('/requests');
    await screen.findByText('Firewall review', { selector: 'a' });
    expect(within(rowOf('REQ-0001')).getByText('Overdue')).toBeInTheDocument();
    expect(within(rowOf('REQ-0002')).queryByText('Overdue')).not.toBeInTheDocument();
  });

  it("drops the old company's project, people, team and page from the address when another company is chosen", async () => {
    const user = setupUser();
    const initech: Company = { ...acme, id: 'c3', name: 'Initech' };
    const initechCalls: string[] = [];
    server.use(
      http.get('*/api/v1/companies/c3/requests/assignees', () =>
        HttpResponse.json({ users: [], teams: [], requesters: [], projects: [] }),
      ),
      http.get('*/api/v1/companies/c3/requests', ({ request }) => {
        initechCalls.push(decodeURIComponent(new URL(request.url).search));
        return HttpResponse.json({
          results: [makeRequest(9, { companyId: 'c3', title: 'Badge logs' })],
          total: 1,
          page: 1,
          pageSize: 25,
        });
      }),
    );
    const { store } = renderListAt(
      '/requests?status=open&assigneeId=u2&teamId=tm1&requesterId=u1&projectId=p1&sort=dueDate&page=2',
      {
        ...staffSession,
        companies: [acme, globex, initech],
      },
    );
    await waitFor(() =>
      expect(api.listCalls).toEqual([
        '?page=2&pageSize=25&sort=dueDate&status[]=open&assigneeId=u2&teamId=tm1&requesterId=u1&projectId=p1',
      ]),
    );

    act(() => {
      store.dispatch(sessionActions.companySelected('c3'));
    });
    expect(await screen.findByText('Badge logs', { selector: 'a' })).toBeInTheDocument();
    expect(address()).toBe('/requests?status=open&sort=dueDate');
    // Initech's list was never asked for with Acme's project, people or page
    expect(initechCalls).toEqual(['?page=1&pageSize=25&sort=dueDate&status[]=open']);

    // the address was replaced: Back does not bring Acme's filters back
    await user.click(button('Browser back'));
    expect(address()).toBe('/requests?status=open&sort=dueDate');

    // "me" means the user in any company: it stays
    act(() => {
      store.dispatch(sessionActions.companySelected('c1'));
    });
    await user.click(screen.getByLabelText('Requester filter'));
    await user.click(await findOption('Requested by me'));
    await waitFor(() => expect(address()).toBe('/requests?status=open&requesterId=me&sort=dueDate'));
    act(() => {
      store.dispatch(sessionActions.companySelected('c3'));
    });
    await waitFor(() =>
      expect(initechCalls.at(-1)).toBe('?page=1&pageSize=25&sort=dueDate&status[]=open&requesterId=me'),
    );
    expect(address()).toBe('/requests?status=open&requesterId=me&sort=dueDate');
  });
});
