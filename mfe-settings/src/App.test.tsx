import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from '@portal/shared/web/router';
import { renderWithProviders } from '@portal/shared/testing';
import SettingsApp from './App';
import { sessionFor, setupTestServer, staffAdmin } from './testing/fixtures';

const mounted = (
  <Routes>
    <Route path="/settings/*" element={<SettingsApp basePath="/settings" />} />
  </Routes>
);
const memberSession = sessionFor({ companyRole: 'member' });
const staffAdminSession = sessionFor({ isTevora: true, isStaffAdmin: true, companyRole: null }, staffAdmin);

setupTestServer(
  http.get('*/api/v1/companies/:id/password-policy', () => HttpResponse.json({ minimumLength: 12, rotationInDays: 0 })),
  http.get('*/api/v1/users/:id', () =>
    HttpResponse.json({ code: 'user_not_found', message: 'User not found.', requestId: 'r' }, { status: 404 }),
  ),
  http.get('*/api/v1/practices', () => HttpResponse.json({ results: [] })),
);

async function menuTabs(): Promise<string[]> {
  const nav = await screen.findByRole('navigation', { name: 'Settings' });
  await within(nav).findAllByRole('link');
  return within(nav)
    .getAllByRole('link')
    .map((a) => a.textContent ?? '');
}

describe('mfe-settings routes', () => {
  it.each(['/settings', '/settings/personal'])('shows the editable personal settings at %s', async (route) => {
    renderWithProviders(mounted, { route, session: memberSession });
    expect(await screen.findByText('ada@acme.test')).toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
    expect(screen.getByLabelText('First name')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Save profile' })).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toBeInTheDocument();
  });

  it('shows a company member only the Personal tab', async () => {
    renderWithProviders(mounted, { route: '/settings', session: memberSession });
    expect(await menuTabs()).toEqual(['Personal']);
  });

  it('shows a staff administrator every tab, the staff tab named by the brand', async () => {
    renderWithProviders(mounted, { route: '/settings', session: staffAdminSession });
    expect(await menuTabs()).toEqual([
      'Personal',
      'Company',
      'Clients',
      'Teams',
      'Tevora',
      'Practices & Templates',
      'System Admin',
    ]);
  });

  it.each(['/settings/clients', '/settings/company', '/settings/teams', '/settings/system'])(
    'tells a member following a direct link to %s that they may not view it',
    async (route) => {
      renderWithProviders(mounted, { route, session: memberSession });
      expect(await screen.findByText('You do not have permission to view this page')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to your settings' })).toHaveAttribute('href', '/settings');
    },
  );

  it('redirects the templates alias to practices', async () => {
    renderWithProviders(mounted, { route: '/settings/templates', session: staffAdminSession });
    expect(await screen.findByRole('heading', { name: 'Practices & Templates' })).toBeInTheDocument();
  });

  it('gives company user details breadcrumbs Home, Settings, Company', async () => {
    renderWithProviders(mounted, { route: '/settings/company/user/u9', session: staffAdminSession });
    const main = await screen.findByTestId('settings-company-user');
    expect(within(main).getByRole('link', { name: 'Home' })).toBeInTheDocument();
    expect(within(main).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(within(main).getByRole('link', { name: 'Company' })).toHaveAttribute('href', '/settings/company');
    expect(await screen.findByText('User not found')).toBeInTheDocument();
  });
});
