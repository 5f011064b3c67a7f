import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StaffUser } from '@portal/shared/core/settings';
import { renderWithProviders } from '@portal/shared/testing';
import type { SessionState } from '@portal/shared/web/session';
import { toast$, type ToastMessage } from '@portal/shared/web/events';
import { AddressQuery, button, findDialog, sessionFor, setupTestServer, setupUser } from '../../../testing/fixtures';
import { StaffPage } from './staff-page';

const staff = (id: string, firstName: string, extra: Partial<StaffUser> = {}): StaffUser => ({
  id,
  firstName,
  lastName: 'Stone',
  email: `${firstName.toLowerCase()}@tevora.test`,
  title: null,
  avatar: null,
  status: 'active',
  isAdmin: false,
  isAuditor: false,
  practices: [],
  lastSignInAt: null,
  ...extra,
});

const calls: string[] = [];
const server = setupTestServer(
  http.get('*/api/v1/users/staff', ({ request }) => {
    calls.push(`GET ${decodeURIComponent(new URL(request.url).search)}`);
    return HttpResponse.json({
      results: [
        staff('u1', 'Ada', { isAdmin: true }),
        staff('s2', 'Ben', { isAuditor: true, practices: [{ id: 'p1', name: 'PCI' }] }),
        staff('s3', 'Cleo', { isAdmin: true }),
      ],
      total: 3,
      page: 1,
      pageSize: 25,
    });
  }),
  http.put('*/api/v1/users/admin/:id', async ({ request, params }) => {
    calls.push(`PUT ${String(params.id)} ${JSON.stringify(await request.json())}`);
    return HttpResponse.json(staff(String(params.id), 'Ben', { isAdmin: true }));
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
});
afterEach(() => {
  calls.length = 0;
});

const staffAdmin = { ...sessionFor({ isTevora: true, isStaffAdmin: true }), brand: 'Northwind' };
const renderStaff = (session: Partial<SessionState> = staffAdmin, route = '/settings/tevora') =>
  renderWithProviders(
    <>
      <StaffPage />
      <AddressQuery />
    </>,
    { route, session },
  );

describe('the staff list', () => {
  it('is titled with the brand and shows admin and auditor tags and practices', async () => {
    renderStaff();
    expect(screen.getByText('Northwind', { selector: 'h1' })).toBeInTheDocument();
    expect(screen.getByText('Settings').closest('a')).toHaveAttribute('href', '/settings');
    const ben = await screen.findByText('Ben Stone');
    expect(ben).toHaveAttribute('href', '/settings/tevora/user/s2');
    const row = ben.closest('tr')!;
    expect(within(row).getByText('Auditor')).toBeInTheDocument();
    expect(within(row).getByText('PCI')).toBeInTheDocument();
    expect(within(screen.getByText('Cleo Stone').closest('tr')!).getByText('Admin')).toBeInTheDocument();
    expect(calls).toEqual(['GET ?page=1&pageSize=25']);
  });

  it('searches through the address', async () => {
    renderStaff();
    await screen.findByText('Ben Stone');
    await ue.type(screen.getByLabelText('Search staff'), 'ben{Enter}');
    await waitFor(() => expect(screen.getByLabelText('query')).toHaveTextContent('?search=ben'));
    await waitFor(() => expect(calls).toContain('GET ?search=ben&page=1&pageSize=25'));
  });

  it('lets a staff admin toggle the admin role of others after confirmation, never their own', async () => {
    const toasts: ToastMessage[] = [];
    const subscription = toast$.subscribe((t) => toasts.push(t));
    renderStaff();
    await screen.findByText('Ben Stone');
    expect(screen.getByLabelText('Administrator: Ada Stone')).toBeDisabled();
    const ben = screen.getByLabelText('Administrator: Ben Stone');
    expect(ben).toBeEnabled();
    await ue.click(ben);
    const dialog = await findDialog();
    expect(calls).toHaveLength(1);
    await ue.click(button('Make administrator', dialog));
    await waitFor(() => expect(calls).toContain('PUT s2 {"role":"admin"}'));

    await ue.click(screen.getByLabelText('Administrator: Cleo Stone'));
    await ue.click(button('Remove administrator', await findDialog()));
    await waitFor(() => expect(calls).toContain('PUT s3 {"role":"staff"}'));
    // each change says it was made
    await waitFor(() =>
      expect(toasts).toEqual([
        { severity: 'success', summary: 'Ben Stone is now an administrator' },
        { severity: 'success', summary: 'Cleo Stone is no longer an administrator' },
      ]),
    );
    subscription.unsubscribe();
  });

  it('disables the admin toggle for staff who are not admins', async () => {
    renderStaff(sessionFor({ isTevora: true, isStaffAdmin: false }));
    await screen.findByText('Ben Stone');
    for (const name of ['Ada', 'Ben', 'Cleo'])
      expect(screen.getByLabelText(`Administrator: ${name} Stone`)).toBeDisabled();
  });

  it('shows an error with a retry', async () => {
    server.use(
      http.get('*/api/v1/users/staff', () =>
        HttpResponse.json({ code: 'internal_error', message: '', requestId: 'r' }, { status: 500 }),
      ),
    );
    renderStaff();
    expect(await screen.findByText('The staff could not be loaded.')).toBeInTheDocument();
  });
});
