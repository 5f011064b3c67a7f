import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { settingsPermissionsFor, type PermissionSubject } from '@portal/shared/core/modules';
import type { Company, User } from '@portal/shared/core/schemas';
import { Route, Routes } from '@portal/shared/web/router';
import { renderWithProviders } from '@portal/shared/testing';
import type { SessionState } from '@portal/shared/web/session';
// antd's Form needs MessageChannel, which jest-fixed-jsdom lacks: the personal feature's fixtures add it.
import './features/personal/testing/fixtures';
import SettingsApp from './App';

jest.setTimeout(30_000);

const mounted = <Routes><Route path="/settings/*" element={<SettingsApp basePath="/settings" />} /></Routes>;
const member: User = {
  id: 'u1', firstName: 'Ada', lastName: 'Lovelace', title: 'CISO', email: 'ada@acme.test', login: 'ada@acme.test', avatar: null,
  status: 'active' as const, primaryPhone: null, isTevora: false, isAuditor: false, admin: { active: false }, sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false }, projectRoles: [], ldhmac: 'x',
};
const staffAdmin: User = { ...member, id: 's1', firstName: 'Sam', email: 'admin@demo.test', login: 'admin@demo.test', isTevora: true, admin: { active: true } };
const acme: Company = { id: 'c1', name: 'Acme Corp', logo: null, modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true } };

function sessionOf(user: User, who: PermissionSubject): Partial<SessionState> {
  return {
    user,
    loggedIn: true,
    companies: [acme],
    companiesLoaded: true,
    selectedCompanyId: acme.id,
    access: { modulesAccess: acme.modulesAccess, settingsPermissions: settingsPermissionsFor(who) },
    brand: 'Tevora',
  };
}
const memberSession = sessionOf(member, { isTevora: false, isAuditor: false, isStaffAdmin: false, companyRole: 'member' });
const staffAdminSession = sessionOf(staffAdmin, { isTevora: true, isAuditor: false, isStaffAdmin: true, companyRole: null });

const server = setupServer(
  http.get('*/api/v1/companies/:id/password-policy', () => HttpResponse.json({ minimumLength: 12, rotationInDays: 0 })),
  http.get('*/api/v1/users/:id', () => HttpResponse.json({ code: 'user_not_found', message: 'User not found.', requestId: 'r' }, { status: 404 })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

async function menuTabs(): Promise<string[]> {
  const nav = await screen.findByRole('navigation', { name: 'Settings' });
  await within(nav).findAllByRole('link');
  return within(nav).getAllByRole('link').map((a) => a.textContent ?? '');
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
    expect(await menuTabs()).toEqual(['Personal', 'Company', 'Clients', 'Teams', 'Tevora', 'Practices & Templates', 'System Admin']);
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
