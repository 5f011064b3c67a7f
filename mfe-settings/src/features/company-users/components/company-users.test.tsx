import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { CompanyUser } from '@portal/shared/core/settings';
import { renderWithProviders } from '@portal/shared/testing';
import { AddressQuery, button, findDialog, sessionFor, setupTestServer, setupUser } from '../../../testing/fixtures';
import { CompanyUsers } from './company-users';

const session = sessionFor();

// antd renders slowly in jsdom

const member = (id: string, firstName: string, extra: Partial<CompanyUser> = {}): CompanyUser => ({
  id,
  firstName,
  lastName: 'Lee',
  email: `${firstName.toLowerCase()}@acme.test`,
  title: null,
  avatar: null,
  role: 'member',
  status: 'active',
  invited: false,
  accessRevoked: false,
  isFederated: false,
  teams: [],
  lastSignInAt: null,
  joinedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

let users: CompanyUser[] = [];
const calls: string[] = [];
const bodies: unknown[] = [];
const server = setupTestServer(
  http.get('*/api/v1/companies/c1/users', ({ request }) => {
    calls.push(`GET ${decodeURIComponent(new URL(request.url).search)}`);
    return HttpResponse.json({ results: users, total: users.length, page: 1, pageSize: 25 });
  }),
);

beforeEach(() => {
  users = [
    member('u2', 'Ann', {
      role: 'admin',
      teams: [{ id: 't1', name: 'Auditors' }],
      lastSignInAt: '2026-03-04T15:05:00',
    }),
    member('u3', 'Bob', { status: 'suspended' }),
    member('u4', 'Cid', { invited: true, accessRevoked: true }),
  ];
});
afterEach(() => {
  calls.length = 0;
  bodies.length = 0;
});

const renderUsers = (route = '/settings/company?tab=users') =>
  renderWithProviders(
    <>
      <CompanyUsers companyId="c1" />
      <AddressQuery />
    </>,
    { route, session },
  );

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
});

async function choose(label: string, option: string) {
  await ue.click(screen.getByLabelText(label));
  const options = await screen.findAllByTitle(option);
  await ue.click(options[options.length - 1]);
}

describe('company users', () => {
  it('lists the members with their role, status tags, teams and a link to each user', async () => {
    renderUsers();
    const ann = await screen.findByText('Ann Lee');
    expect(ann).toHaveAttribute('href', '/settings/company/user/u2');
    const annRow = ann.closest('tr')!;
    expect(within(annRow).getByText('Admin')).toBeInTheDocument();
    expect(within(annRow).getByText('Auditors')).toBeInTheDocument();
    expect(within(annRow).getByText('3:05PM 3/4/2026')).toBeInTheDocument();
    const bobRow = screen.getByText('Bob Lee').closest('tr')!;
    expect(within(bobRow).getByText('Suspended')).toBeInTheDocument();
    const cidRow = screen.getByText('Cid Lee').closest('tr')!;
    expect(within(cidRow).getByText('Invited')).toBeInTheDocument();
    expect(within(cidRow).getByText('Access revoked')).toBeInTheDocument();
    expect(calls).toEqual(['GET ?sort=name&page=1&pageSize=25']);
  });

  it('puts search, filters and sorting in the address and the request, keeping the Company tab', async () => {
    renderUsers();
    await screen.findByText('Ann Lee');
    await ue.type(screen.getByLabelText('Search users'), 'ann{Enter}');
    await waitFor(() => expect(screen.getByLabelText('query')).toHaveTextContent('?tab=users&search=ann'));
    await waitFor(() => expect(calls).toContain('GET ?search=ann&sort=name&page=1&pageSize=25'));

    await choose('Role filter', 'Admin');
    await waitFor(() => expect(screen.getByLabelText('query')).toHaveTextContent('?tab=users&search=ann&role=admin'));
    await waitFor(() => expect(calls).toContain('GET ?search=ann&role=admin&sort=name&page=1&pageSize=25'));

    await choose('Status filter', 'Suspended');
    await waitFor(() =>
      expect(calls).toContain('GET ?search=ann&role=admin&status=suspended&sort=name&page=1&pageSize=25'),
    );

    await ue.click(screen.getByText('Email', { selector: 'th *' }));
    await waitFor(() => expect(screen.getByLabelText('query')).toHaveTextContent('sort=email'));
    await waitFor(() =>
      expect(calls).toContain('GET ?search=ann&role=admin&status=suspended&sort=email&page=1&pageSize=25'),
    );
  });

  it('restores the list state from the address', async () => {
    renderUsers('/settings/company?tab=users&search=bob&status=suspended&sort=-lastSignInAt&page=2');
    expect(await screen.findByLabelText('Search users')).toHaveValue('bob');
    await waitFor(() =>
      expect(calls).toEqual(['GET ?search=bob&status=suspended&sort=-lastSignInAt&page=2&pageSize=25']),
    );
  });

  it('shows an empty state and an error state with a retry', async () => {
    users = [];
    renderUsers();
    expect(await screen.findByText('This company has no users yet.')).toBeInTheDocument();

    server.use(
      http.get('*/api/v1/companies/c1/users', () =>
        HttpResponse.json({ code: 'internal_error', message: '', requestId: 'r' }, { status: 500 }),
      ),
    );
    await ue.type(screen.getByLabelText('Search users'), 'zed{Enter}');
    expect(await screen.findByText('The users could not be loaded.')).toBeInTheDocument();
    server.resetHandlers();
    await ue.click(button('Try again'));
    expect(await screen.findByText('No users match these filters.')).toBeInTheDocument();
  });

  it('adds a user, and shows a duplicate email on the email field', async () => {
    server.use(
      http.post('*/api/v1/companies/c1/users', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        if (body.email === 'ann@acme.test') {
          return HttpResponse.json(
            {
              code: 'email_already_taken',
              message: 'Email address already in use.',
              requestId: 'r',
              details: [{ field: 'email', message: 'Email address already in use.' }],
            },
            { status: 409 },
          );
        }
        return HttpResponse.json(member('u9', String(body.firstName), { email: String(body.email), invited: true }), {
          status: 201,
        });
      }),
    );
    renderUsers();
    await screen.findByText('Ann Lee');
    await ue.click(button('Add user'));
    const dialog = await findDialog();

    // checked in the browser with the api's schema first: nothing is sent
    await ue.click(button('Add user', dialog));
    expect((await within(dialog).findAllByText('Is required')).length).toBeGreaterThan(0);
    expect(bodies).toEqual([]);

    await ue.type(within(dialog).getByLabelText('Email'), 'Ann@Acme.test');
    await ue.type(within(dialog).getByLabelText('First name'), 'Ann');
    await ue.type(within(dialog).getByLabelText('Last name'), 'Again');
    await ue.click(within(dialog).getByLabelText('Admin'));
    await ue.click(button('Add user', dialog));
    expect(await within(dialog).findByText('Email address already in use.')).toBeInTheDocument();
    expect(bodies).toEqual([
      { email: 'ann@acme.test', firstName: 'Ann', lastName: 'Again', title: null, role: 'admin' },
    ]);

    await ue.clear(within(dialog).getByLabelText('Email'));
    await ue.type(within(dialog).getByLabelText('Email'), 'new@acme.test');
    await ue.click(button('Add user', dialog));
    expect(
      await screen.findByText('new@acme.test was added and an invitation e-mail was sent to choose a password.'),
    ).toBeInTheDocument();
  });

  it('tells the admin that users of a federated company sign in with single sign-on', async () => {
    server.use(
      http.post('*/api/v1/companies/c1/users', () =>
        HttpResponse.json(member('u9', 'Fed', { email: 'fed@acme.test', isFederated: true }), { status: 201 }),
      ),
    );
    renderUsers();
    await screen.findByText('Ann Lee');
    await ue.click(button('Add user'));
    const dialog = await findDialog();
    await ue.type(within(dialog).getByLabelText('Email'), 'fed@acme.test');
    await ue.type(within(dialog).getByLabelText('First name'), 'Fed');
    await ue.type(within(dialog).getByLabelText('Last name'), 'Lee');
    await ue.click(button('Add user', dialog));
    expect(await screen.findByText(/sign in with your company's single sign-on/)).toBeInTheDocument();
  });

  it('changes a role, and revokes and restores access', async () => {
    server.use(
      http.patch('*/api/v1/companies/c1/users/:userId/role', async ({ request, params }) => {
        bodies.push({ [`role ${String(params.userId)}`]: await request.json() });
        return new HttpResponse(null, { status: 204 });
      }),
      http.delete('*/api/v1/companies/c1/users/:userId/revoke-access', ({ params }) => {
        bodies.push(`revoke ${String(params.userId)}`);
        return new HttpResponse(null, { status: 204 });
      }),
      http.post('*/api/v1/companies/c1/users/:userId/restore-access', ({ params }) => {
        bodies.push(`restore ${String(params.userId)}`);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderUsers();
    await ue.click(await screen.findByLabelText('Actions for Bob Lee'));
    await ue.click(await screen.findByText('Make admin'));
    await waitFor(() => expect(bodies).toEqual([{ 'role u3': { role: 'admin' } }]));

    await ue.click(screen.getByLabelText('Actions for Bob Lee'));
    await ue.click(await screen.findByText('Revoke access'));
    // nothing happens before the confirmation
    expect(bodies).toHaveLength(1);
    await ue.click(button('Revoke access', await findDialog()));
    await waitFor(() => expect(bodies).toContain('revoke u3'));

    await ue.click(screen.getByLabelText('Actions for Cid Lee'));
    await ue.click(await screen.findByText('Restore access'));
    await waitFor(() => expect(bodies).toContain('restore u4'));
  });

  it('removes a member after confirmation, and shows why a lead user cannot be removed', async () => {
    server.use(
      http.delete('*/api/v1/companies/c1/users/:userId', ({ params }) => {
        bodies.push(`remove ${String(params.userId)}`);
        return HttpResponse.json(
          {
            code: 'lead_user_can_not_be_revoked',
            message: 'Ann Lee is Lead Consultant of Audit 2026: reassign the role first.',
            requestId: 'r',
          },
          { status: 409 },
        );
      }),
    );
    renderUsers();
    await ue.click(await screen.findByLabelText('Actions for Ann Lee'));
    await ue.click(await screen.findByText('Remove from company'));
    const confirm = await findDialog();
    expect(within(confirm).getAllByText('Remove Ann Lee from the company?').length).toBeGreaterThan(0);
    await ue.click(button('Remove', confirm));
    expect(
      await screen.findByText('Ann Lee is Lead Consultant of Audit 2026: reassign the role first.'),
    ).toBeInTheDocument();
    expect(bodies).toEqual(['remove u2']);
  });
});
