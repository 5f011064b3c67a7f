import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Practice, UserDetail } from '@portal/shared/core/settings';
import { renderWithProviders } from '@portal/shared/testing';
import { Route, Routes } from '@portal/shared/web/router';
import { button, findHeading, sessionFor, setupTestServer, setupUser } from '../../../testing/fixtures';
import { StaffUserPage } from './staff-user-page';

const practice = (id: string, name: string, status: Practice['status'] = 'active'): Practice => ({
  id,
  name,
  description: '',
  status,
});
const all = [
  practice('p1', 'PCI'),
  practice('p2', 'SOC 2'),
  practice('p3', 'HIPAA'),
  practice('p4', 'Legacy', 'retired'),
];
const ben: UserDetail = {
  id: 's2',
  firstName: 'Ben',
  lastName: 'Stone',
  email: 'ben@tevora.test',
  title: 'Consultant',
  primaryPhone: null,
  avatar: null,
  status: 'active',
  invited: false,
  isTevora: true,
  isAuditor: false,
  isAdmin: false,
  isFederated: false,
  lastSignInAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  companies: [],
};

let own: Practice[] = [];
const sent: unknown[] = [];
setupTestServer(
  http.get('*/api/v1/users/s2', () => HttpResponse.json(ben)),
  http.get('*/api/v1/practices', () => HttpResponse.json({ results: all })),
  http.get('*/api/v1/users/s2/practices', () => HttpResponse.json({ results: own })),
  http.put('*/api/v1/users/s2/practices', async ({ request }) => {
    const body = (await request.json()) as { practiceIds: string[] };
    sent.push(body);
    own = all.filter((p) => body.practiceIds.includes(p.id));
    return HttpResponse.json({ results: own });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  own = [all[0]];
});
afterEach(() => {
  sent.length = 0;
});

const renderPage = (session = sessionFor({ isTevora: true })) =>
  renderWithProviders(
    <Routes>
      <Route path="/settings/tevora/user/:userId" element={<StaffUserPage />} />
    </Routes>,
    { route: '/settings/tevora/user/s2', session: { ...session, brand: 'Tevora' } },
  );

describe('the staff user page', () => {
  it('has breadcrumbs Home, Settings, {brand}', async () => {
    renderPage();
    expect(await findHeading('Ben Stone')).toBeInTheDocument();
    expect(screen.getByText('Home').closest('a')).toHaveAttribute('href', '/');
    expect(screen.getByText('Settings').closest('a')).toHaveAttribute('href', '/settings');
    expect(screen.getByText('Tevora').closest('a')).toHaveAttribute('href', '/settings/tevora');
    expect(screen.getByText('ben@tevora.test')).toBeInTheDocument();
  });

  it('chooses the practices from all practices and saves them all at once', async () => {
    renderPage();
    await screen.findByText('PCI', { selector: '.ant-select-selection-item-content, .ant-select-selection-item *' });
    expect(button('Save practices')).toBeDisabled();
    await ue.click(screen.getByLabelText('Practices of Ben Stone'));
    await ue.click((await screen.findAllByText('SOC 2', { selector: '.ant-select-item-option-content' }))[0]);
    // a retired practice the user does not hold cannot be chosen
    expect(
      screen.getByText('Legacy (retired)', { selector: '.ant-select-item-option-content' }).closest('.ant-select-item'),
    ).toHaveClass('ant-select-item-option-disabled');
    await ue.click(button('Save practices'));
    await waitFor(() => expect(sent).toEqual([{ practiceIds: ['p1', 'p2'] }]));
    expect(await screen.findByText('The practices were saved.')).toBeInTheDocument();
  });

  it('shows the practices read-only without users.editPractices', async () => {
    renderPage(sessionFor({ isTevora: true, isAuditor: true }));
    expect(await screen.findByText(/needs the permission to edit practices/)).toBeInTheDocument();
    expect(screen.getByLabelText('Practices of Ben Stone')).toBeDisabled();
    expect(screen.queryByText('Save practices')).not.toBeInTheDocument();
  });
});
