import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { AuditEntry } from '@portal/shared/core/settings';
import { renderWithProviders } from '@portal/shared/testing';
import { AddressQuery, button, sessionFor, setupTestServer, setupUser } from '../../../testing/fixtures';
import { SystemPage } from './system-page';

const entry: AuditEntry = {
  id: 'a1',
  createdAt: '2026-05-06T14:07:00',
  actor: { id: 'u1', email: 'ada@tevora.test' },
  action: 'team.update',
  targetType: 'team',
  targetId: 't1',
  targetLabel: 'Treasury',
  companyId: 'c1',
  before: { name: 'Finance' },
  after: { name: 'Treasury' },
  requestId: 'r1',
};

const calls: URLSearchParams[] = [];
setupTestServer(
  http.get('*/api/v1/audit-log', ({ request }) => {
    calls.push(new URL(request.url).searchParams);
    return HttpResponse.json({ results: [entry], total: 1, page: 1, pageSize: 50 });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
});
afterEach(() => {
  calls.length = 0;
});

const renderAudit = (route = '/settings/system?tab=audit') =>
  renderWithProviders(
    <>
      <SystemPage />
      <AddressQuery />
    </>,
    { route, session: sessionFor({ isTevora: true, isStaffAdmin: true }) },
  );

describe('the audit log', () => {
  it('shows time, actor, action, target and company, with before and after side by side', async () => {
    renderAudit();
    const row = (await screen.findByText('ada@tevora.test')).closest('tr')!;
    expect(within(row).getByText('2:07PM 5/6/2026')).toBeInTheDocument();
    expect(within(row).getByText('team.update')).toBeInTheDocument();
    expect(within(row).getByText('Treasury')).toBeInTheDocument();
    expect(within(row).getByText('Acme')).toBeInTheDocument();
    expect(Object.fromEntries(calls[0])).toEqual({ page: '1', pageSize: '50' });

    await ue.click(within(row).getByLabelText('Expand row'));
    expect(await screen.findByLabelText('Before')).toHaveTextContent('"name": "Finance"');
    expect(screen.getByLabelText('After')).toHaveTextContent('"name": "Treasury"');
  });

  it('sends the filters, with the dates as ISO instants, and keeps them in the address', async () => {
    renderAudit();
    await screen.findByText('ada@tevora.test');
    await ue.type(screen.getByLabelText('Search'), 'ada');
    await ue.type(screen.getByLabelText('Action'), 'team.update');
    await ue.type(screen.getByLabelText('Target type'), 'team');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-05-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-05-31' } });
    await ue.click(button('Apply filters'));
    await waitFor(() =>
      expect(screen.getByLabelText('query')).toHaveTextContent(
        '?tab=audit&search=ada&action=team.update&targetType=team&from=2026-05-01&to=2026-05-31',
      ),
    );
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(Object.fromEntries(calls[1])).toEqual({
      search: 'ada',
      action: 'team.update',
      targetType: 'team',
      from: new Date(2026, 4, 1).toISOString(),
      to: new Date(2026, 4, 31, 23, 59, 59, 999).toISOString(),
      page: '1',
      pageSize: '50',
    });

    await ue.click(button('Clear'));
    await waitFor(() => expect(screen.getByLabelText('query')).toHaveTextContent(/^\?tab=audit$/));
    expect(screen.getByLabelText('Search')).toHaveValue('');
  });

  it('restores the filters from the address', async () => {
    renderAudit('/settings/system?tab=audit&action=user.invite&page=3');
    expect(await screen.findByLabelText('Action')).toHaveValue('user.invite');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(Object.fromEntries(calls[0])).toEqual({ action: 'user.invite', page: '3', pageSize: '50' });
  });

  it('refuses a date range that ends before it starts', async () => {
    renderAudit();
    await screen.findByText('ada@tevora.test');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-05-31' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-05-01' } });
    await ue.click(button('Apply filters'));
    expect(await screen.findByText('To must be on or after From')).toBeInTheDocument();
    expect(screen.getByLabelText('query')).toHaveTextContent(/^\?tab=audit$/);
  });
});
