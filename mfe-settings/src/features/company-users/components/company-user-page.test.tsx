import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { AssignedObject, UserDetail, UserModulesAccess } from '@portal/shared/core/settings';
import { renderWithProviders } from '@portal/shared/testing';
import { Route, Routes } from '@portal/shared/web/router';
import { button, findDialog, findHeading, sessionFor, setupTestServer, setupUser } from '../../../testing/fixtures';
import { CompanyUserPage } from './company-user-page';

const detail = (extra: Partial<UserDetail> = {}): UserDetail => ({
  id: 'u2',
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@acme.test',
  title: 'CFO',
  primaryPhone: null,
  avatar: null,
  status: 'active',
  invited: false,
  isTevora: false,
  isAuditor: false,
  isAdmin: false,
  isFederated: false,
  lastSignInAt: '2026-03-04T15:05:00',
  createdAt: '2026-01-02T10:00:00',
  companies: [{ id: 'c1', name: 'Acme', role: 'member', accessRevoked: false }],
  ...extra,
});
const modules = (): UserModulesAccess => ({
  modulesAccess: { risks: true, projects: null, requests: false, reports: null, assets: null },
  effective: { risks: true, projects: true, requests: false, reports: false, assets: true },
  company: { risks: true, projects: true, requests: true, reports: false, assets: true },
});
const objects: AssignedObject[] = [
  { module: 'projects', objectId: 'p1', name: 'SOC 2 audit', companyId: 'c1', role: 'Consultant', removable: true },
  { module: 'projects', objectId: 'p2', name: 'ISO review', companyId: 'c1', role: 'Client Lead', removable: false },
];

let user = detail();
const sent: unknown[] = [];
const server = setupTestServer(
  http.get('*/api/v1/users/u2', () => HttpResponse.json(user)),
  http.get('*/api/v1/companies/c1/users/u2/modules-access', () => HttpResponse.json(modules())),
  http.get('*/api/v1/users/u2/assigned-objects', ({ request }) => {
    sent.push(`GET objects ${new URL(request.url).search}`);
    return HttpResponse.json({ results: objects });
  }),
  http.patch('*/api/v1/users/u2', async ({ request }) => {
    const body = (await request.json()) as Partial<UserDetail>;
    sent.push({ PATCH: body });
    user = { ...user, ...body };
    return HttpResponse.json(user);
  }),
  http.patch('*/api/v1/companies/c1/users/u2/modules-access', async ({ request }) => {
    sent.push({ modules: await request.json() });
    return HttpResponse.json(modules());
  }),
  http.post('*/api/v1/users/u2/unsuspend', () => {
    sent.push('unsuspend');
    user = { ...user, status: 'active' };
    return new HttpResponse(null, { status: 204 });
  }),
  http.delete('*/api/v1/users/u2/object-access/:objectId', ({ request, params }) => {
    sent.push(`DELETE ${String(params.objectId)}${new URL(request.url).search}`);
    return new HttpResponse(null, { status: 204 });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  user = detail();
});
afterEach(() => {
  sent.length = 0;
});

const renderPage = (session = sessionFor({ isTevora: true })) =>
  renderWithProviders(
    <Routes>
      <Route path="/settings/company/user/:userId" element={<CompanyUserPage />} />
    </Routes>,
    { route: '/settings/company/user/u2', session },
  );

describe('the company user page', () => {
  it('has breadcrumbs Home, Settings, Company and shows the user', async () => {
    renderPage();
    expect(await findHeading('Ann Lee')).toBeInTheDocument();
    expect(screen.getByText('Home').closest('a')).toHaveAttribute('href', '/');
    expect(screen.getByText('Settings').closest('a')).toHaveAttribute('href', '/settings');
    expect(screen.getByText('Company').closest('a')).toHaveAttribute('href', '/settings/company');
    expect(screen.getByText('ann@acme.test')).toBeInTheDocument();
    expect(screen.getByText('3:05PM 3/4/2026')).toBeInTheDocument();
    expect(screen.getByText('1/2/2026')).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('CFO');
  });

  it('saves edited names, title and phone, checked first with the api schema', async () => {
    renderPage();
    const first = await screen.findByLabelText('First name');
    await waitFor(() => expect(first).toHaveValue('Ann'));
    await ue.clear(first);
    await ue.click(button('Save details'));
    expect(await screen.findByText('Is required')).toBeInTheDocument();
    expect(sent.filter((s) => typeof s === 'object' && 'PATCH' in (s as object))).toEqual([]);

    await ue.type(first, 'Anna');
    await ue.clear(screen.getByLabelText('Title'));
    await ue.type(screen.getByLabelText('Phone'), '+1 555 0100');
    await ue.click(button('Save details'));
    await waitFor(() =>
      expect(sent).toContainEqual({
        PATCH: { firstName: 'Anna', lastName: 'Lee', title: null, primaryPhone: '+1 555 0100' },
      }),
    );
    expect(await findHeading('Anna Lee')).toBeInTheDocument();
  });

  it('suspends after confirmation and unsuspends', async () => {
    renderPage();
    await findHeading('Ann Lee');
    await ue.click(button('Suspend'));
    const dialog = await findDialog();
    expect(sent).toEqual(['GET objects ?companyId=c1']);
    await ue.click(button('Suspend', dialog));
    await waitFor(() => expect(sent).toContainEqual({ PATCH: { status: 'suspended' } }));
    await ue.click(await screen.findByText('Unsuspend'));
    await waitFor(() => expect(sent).toContain('unsuspend'));
    expect(await screen.findByText('Ann Lee can sign in again.')).toBeInTheDocument();
  });

  it('resets the password after confirmation, and shows the catalogue message when it fails', async () => {
    server.use(
      http.post('*/api/v1/users/u2/reset-password', () =>
        HttpResponse.json(
          {
            code: 'reset_password_failed',
            message: 'Unable to Reset Password: Please contact your Tevora Portal admin',
            requestId: 'r',
          },
          { status: 503 },
        ),
      ),
    );
    renderPage();
    await findHeading('Ann Lee');
    await ue.click(button('Reset password'));
    await ue.click(button('Send reset link', await findDialog()));
    expect(
      await screen.findByText('Unable to Reset Password: Please contact your Tevora Portal admin'),
    ).toBeInTheDocument();
  });

  it('cannot reset the password of a single sign-on user', async () => {
    user = detail({ isFederated: true });
    renderPage();
    expect(await screen.findByText(/signs in with the company's single sign-on/)).toBeInTheDocument();
    expect(button('Reset password')).toBeDisabled();
  });

  it('sets each module to Inherit, On or Off, showing the effective value and the company ceiling', async () => {
    renderPage();
    const projects = await screen.findByLabelText('Projects access');
    expect(within(projects).getByLabelText('Inherit')).toBeChecked();
    const reportsRow = screen.getByLabelText('Reports access').closest('tr')!;
    expect(within(reportsRow).getByText('Off for the company')).toBeInTheDocument();
    expect(
      within(screen.getByLabelText('Requests access').closest('tr')!).getByText('Off', { selector: '.ant-tag' }),
    ).toBeInTheDocument();
    expect(within(projects.closest('tr')!).getByText('On', { selector: '.ant-tag' })).toBeInTheDocument();

    await ue.click(within(projects).getByLabelText('Off'));
    await waitFor(() => expect(sent).toContainEqual({ modules: { projects: false } }));
    await ue.click(within(screen.getByLabelText('Risks access')).getByLabelText('Inherit'));
    await waitFor(() => expect(sent).toContainEqual({ modules: { risks: null } }));
    await ue.click(within(screen.getByLabelText('Requests access')).getByLabelText('On'));
    await waitFor(() => expect(sent).toContainEqual({ modules: { requests: true } }));
  });

  it('does not let a user without users.editModulesAccess change module access', async () => {
    renderPage(sessionFor({ companyRole: 'admin' }));
    const projects = await screen.findByLabelText('Projects access');
    expect(within(projects).getByLabelText('Off')).toBeDisabled();
    expect(screen.getByText(/needs the permission to edit module access/)).toBeInTheDocument();
  });

  it('lists assigned objects and removes access after confirmation; lead roles say why they stay', async () => {
    renderPage();
    expect(await screen.findByText('SOC 2 audit')).toBeInTheDocument();
    const lead = screen.getByText('ISO review').closest('tr')!;
    expect(within(lead).getByText('Lead role: reassign it before removing access')).toBeInTheDocument();
    await ue.click(screen.getByLabelText('Remove access to SOC 2 audit'));
    await ue.click(button('Remove access', await findDialog()));
    await waitFor(() => expect(sent).toContain('DELETE p1?module=projects'));
  });

  it('says when the user does not exist', async () => {
    server.use(
      http.get('*/api/v1/users/u2', () =>
        HttpResponse.json({ code: 'user_not_found', message: 'User not found.', requestId: 'r' }, { status: 404 }),
      ),
    );
    renderPage();
    expect(await screen.findByText('User not found')).toBeInTheDocument();
    expect(screen.getByText('Company').closest('a')).toHaveAttribute('href', '/settings/company');
  });
});
