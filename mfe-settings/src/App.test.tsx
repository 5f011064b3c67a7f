import { screen } from '@testing-library/react';
import { Route, Routes } from '@portal/shared/web/router';
import { renderWithProviders } from '@portal/shared/testing';
import SettingsApp from './App';

const mounted = <Routes><Route path="/settings/*" element={<SettingsApp basePath="/settings" />} /></Routes>;
const user = {
  id: 'u1', firstName: 'Ada', lastName: 'Lovelace', title: 'CISO', email: 'ada@acme.test', login: 'ada@acme.test', avatar: null,
  status: 'active' as const, primaryPhone: null, isTevora: false, isAuditor: false, admin: { active: false }, sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false }, projectRoles: [], ldhmac: 'x',
};

describe('mfe-settings routes', () => {
  it('shows personal settings by default and under the personal alias', async () => {
    renderWithProviders(mounted, { route: '/settings', session: { user, loggedIn: true } });
    expect(await screen.findByText('ada@acme.test')).toBeInTheDocument();
  });

  it('redirects the templates alias to practices', async () => {
    renderWithProviders(mounted, { route: '/settings/templates' });
    expect(await screen.findByRole('heading', { name: 'Practices & Templates' })).toBeInTheDocument();
  });

  it('gives company user details breadcrumbs Home, Settings, Company', async () => {
    renderWithProviders(mounted, { route: '/settings/company/user/u9' });
    expect(await screen.findByRole('link', { name: 'Home' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.getByRole('link', { name: 'Company' })).toHaveAttribute('href', '/settings/company');
  });
});
