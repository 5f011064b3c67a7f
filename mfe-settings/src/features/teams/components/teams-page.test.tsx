import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { CompanyUser, Team } from '@portal/shared/core/settings';
import { renderWithProviders } from '@portal/shared/testing';
import {
  AddressQuery,
  button,
  findDialog,
  findHeading,
  sessionFor,
  setupTestServer,
  setupUser,
} from '../../../testing/fixtures';
import { TeamsPage } from './teams-page';

const inherit = { risks: null, projects: null, requests: null, reports: null, assets: null };
const team = (id: string, name: string, extra: Partial<Team> = {}): Team => ({
  id,
  companyId: 'c1',
  name,
  users: [],
  modulesAccess: { ...inherit },
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});
const person = (id: string, firstName: string, extra: Partial<CompanyUser> = {}): CompanyUser => ({
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

let teams: Team[] = [];
const sent: string[] = [];
/** The teams whose assigned objects the page asked for, in order. */
let objectReads: string[] = [];
const record = async (request: Request) => {
  const url = new URL(request.url);
  const body = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
  sent.push(
    `${request.method} ${url.pathname.replace('/api/v1/companies/c1', '')}${decodeURIComponent(url.search)}${body ? ` ${body}` : ''}`,
  );
};
setupTestServer(
  http.get('*/api/v1/companies/c1/teams', () => HttpResponse.json({ results: teams })),
  http.get('*/api/v1/companies/c1/users', ({ request }) => {
    expect(new URL(request.url).searchParams.get('ignorePagination')).toBe('true');
    return HttpResponse.json({
      results: [
        person('u2', 'Ann'),
        person('u3', 'Bob'),
        person('u4', 'Cid'),
        person('u5', 'Dee', { accessRevoked: true }),
      ],
      total: 4,
      page: 1,
      pageSize: 4,
    });
  }),
  http.get('*/api/v1/companies/c1/teams/:teamId/assigned-objects', ({ params }) => {
    objectReads.push(String(params.teamId));
    // as the api answers for a team that no longer exists
    if (!teams.some((t) => t.id === params.teamId))
      return HttpResponse.json(
        { code: 'not_found', message: 'Team not found', requestId: 'r', details: [] },
        { status: 404 },
      );
    return HttpResponse.json({
      results:
        params.teamId === 't1'
          ? [{ module: 'projects', objectId: 'p1', name: 'SOC 2 audit', companyId: 'c1', role: null, removable: true }]
          : [],
    });
  }),
  http.post('*/api/v1/companies/c1/teams', async ({ request }) => {
    await record(request.clone());
    const { name } = (await request.json()) as { name: string };
    if (name === 'Auditors') {
      return HttpResponse.json(
        {
          code: 'team_name_taken',
          message: 'A team with this name already exists in this company.',
          requestId: 'r',
          details: [{ field: 'name', message: 'name is already used by another team of this company' }],
        },
        { status: 409 },
      );
    }
    const created = team('t9', name);
    teams = [...teams, created];
    return HttpResponse.json(created, { status: 201 });
  }),
  http.patch('*/api/v1/companies/c1/teams/:teamId', async ({ request, params }) => {
    await record(request.clone());
    const { name } = (await request.json()) as { name: string };
    teams = teams.map((t) => (t.id === params.teamId ? { ...t, name } : t));
    return HttpResponse.json(teams.find((t) => t.id === params.teamId));
  }),
  http.delete('*/api/v1/companies/c1/teams/:teamId', async ({ request, params }) => {
    await record(request);
    teams = teams.filter((t) => t.id !== params.teamId);
    return new HttpResponse(null, { status: 204 });
  }),
  http.put('*/api/v1/companies/c1/teams/:teamId/users', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 204 });
  }),
  http.put('*/api/v1/companies/c1/teams/:teamId/users/:userId', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 204 });
  }),
  http.delete('*/api/v1/companies/c1/teams/:teamId/users/:userId', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 204 });
  }),
  http.put('*/api/v1/companies/c1/teams/:teamId/modules-access', async ({ request }) => {
    await record(request.clone());
    return HttpResponse.json({ modulesAccess: await request.json() });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  teams = [
    team('t1', 'Auditors', {
      users: [{ id: 'u2', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' }],
      modulesAccess: { ...inherit, risks: true },
    }),
    team('t2', 'Finance'),
  ];
});
afterEach(() => {
  sent.length = 0;
});

const renderTeams = (route = '/settings/teams', session = sessionFor({ isTevora: true })) =>
  renderWithProviders(
    <>
      <TeamsPage />
      <AddressQuery />
    </>,
    { route, session },
  );

async function chooseUsers(...names: string[]) {
  await ue.click(screen.getByLabelText('Users to add'));
  for (const name of names) {
    const options = await screen.findAllByText(`${name} Lee (${name.toLowerCase()}@acme.test)`, {
      selector: '.ant-select-item-option-content',
    });
    await ue.click(options[0]);
  }
}

describe('teams', () => {
  it('shows the teams beside the selected one, kept in the address', async () => {
    renderTeams('/settings/teams?team=t2');
    expect(await findHeading('Finance')).toBeInTheDocument();
    expect(screen.getByText('No members yet.')).toBeInTheDocument();
    await ue.click(screen.getByText('Auditors'));
    expect(await findHeading('Auditors')).toBeInTheDocument();
    expect(screen.getByLabelText('query')).toHaveTextContent('?team=t1');
    expect(screen.getByText('ann@acme.test')).toBeInTheDocument();
    expect(await screen.findByText('SOC 2 audit')).toBeInTheDocument();
  });

  it('says when the company has no teams', async () => {
    teams = [];
    renderTeams();
    expect(await screen.findByText(/Acme has no teams yet/)).toBeInTheDocument();
  });

  it('creates a team, with a taken name shown on the name field', async () => {
    renderTeams();
    await findHeading('Auditors');
    await ue.click(button('Create team'));
    const dialog = await findDialog();
    await ue.click(button('Create', dialog));
    expect(await within(dialog).findByText('Is required')).toBeInTheDocument();
    expect(sent).toEqual([]);

    await ue.type(within(dialog).getByLabelText('Team name'), ' Auditors ');
    await ue.click(button('Create', dialog));
    expect(
      await within(dialog).findByText('A team with this name already exists in this company.'),
    ).toBeInTheDocument();
    expect(sent).toEqual(['POST /teams {"name":"Auditors"}']);

    await ue.clear(within(dialog).getByLabelText('Team name'));
    await ue.type(within(dialog).getByLabelText('Team name'), 'Legal');
    await ue.click(button('Create', dialog));
    expect(await findHeading('Legal')).toBeInTheDocument();
    expect(screen.getByLabelText('query')).toHaveTextContent('?team=t9');
  });

  it('renames and deletes a team after confirmation', async () => {
    renderTeams('/settings/teams?team=t2');
    await findHeading('Finance');
    await ue.click(button('Rename'));
    const dialog = await findDialog();
    const name = within(dialog).getByLabelText('Team name');
    await waitFor(() => expect(name).toHaveValue('Finance'));
    await ue.clear(name);
    await ue.type(name, 'Treasury');
    await ue.click(button('Rename', dialog));
    expect(await findHeading('Treasury')).toBeInTheDocument();
    expect(sent).toEqual(['PATCH /teams/t2 {"name":"Treasury"}']);

    await ue.click(button('Delete team'));
    const confirm = await findDialog();
    expect(sent).toHaveLength(1);
    objectReads = [];
    await ue.click(button('Delete team', confirm));
    await waitFor(() => expect(sent).toContain('DELETE /teams/t2'));
    expect(await findHeading('Auditors')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('query')).toBeEmptyDOMElement());
    // the deleted team's objects are not asked for again (that answered 404, shown as an error)
    expect(objectReads).not.toContain('t2');
    expect(screen.queryByText(/not found/i)).not.toBeInTheDocument();
  });

  it('adds several members at once with userIds[], one member alone, and removes one after confirmation', async () => {
    renderTeams();
    await findHeading('Auditors');
    await chooseUsers('Bob', 'Cid');
    // members already in the team and those whose access is revoked are not offered
    expect(
      screen.queryByText('Ann Lee (ann@acme.test)', { selector: '.ant-select-item-option-content' }),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByText('Dee Lee (dee@acme.test)', { selector: '.ant-select-item-option-content' }),
    ).not.toBeInTheDocument();
    await ue.click(button('Add 2 members'));
    await waitFor(() => expect(sent).toEqual(['PUT /teams/t1/users?userIds[]=u3&userIds[]=u4']));

    await chooseUsers('Bob');
    await ue.click(button('Add member'));
    await waitFor(() => expect(sent).toContain('PUT /teams/t1/users/u3'));

    await ue.click(screen.getByLabelText('Remove Ann Lee from the team'));
    await ue.click(button('Remove', await findDialog()));
    await waitFor(() => expect(sent).toContain('DELETE /teams/t1/users/u2'));
  });

  it('sets module access Inherit, On or Off, sending all five modules', async () => {
    renderTeams();
    const risks = await screen.findByLabelText('Risks access');
    expect(within(risks).getByLabelText('On')).toBeChecked();
    await ue.click(within(screen.getByLabelText('Projects access')).getByLabelText('Off'));
    await waitFor(() =>
      expect(sent).toEqual([
        'PUT /teams/t1/modules-access {"risks":true,"projects":false,"requests":null,"reports":null,"assets":null}',
      ]),
    );
    await ue.click(within(risks).getByLabelText('Inherit'));
    await waitFor(() =>
      expect(sent[1]).toBe(
        'PUT /teams/t1/modules-access {"risks":null,"projects":null,"requests":null,"reports":null,"assets":null}',
      ),
    );
  });

  it('disables module access without company.editModulesAccess', async () => {
    renderTeams('/settings/teams', sessionFor({ companyRole: 'admin' }));
    const projects = await screen.findByLabelText('Projects access');
    expect(within(projects).getByLabelText('Off')).toBeDisabled();
    expect(screen.getByText(/needs the permission to edit the company’s module access/)).toBeInTheDocument();
  });
});
