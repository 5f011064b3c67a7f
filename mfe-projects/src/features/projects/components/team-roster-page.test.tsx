import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { AssignableUser, Project, ProjectMember, ProjectRole } from '@portal/shared/core/projects';
import { renderWithProviders } from '@portal/shared/testing';
import { Route, Routes } from '@portal/shared/web/router';
import {
  apiError,
  button,
  findDialog,
  findHeading,
  findOption,
  isClosed,
  makeProject,
  member,
  optionTexts,
  person,
  session,
  setupTestServer,
  setupUser,
} from '../testing/fixtures';
import { TeamRosterPage } from './team-roster-page';

const sam = person('u1', 'Sam', 'Staff');
const ann = person('u2', 'Ann');
const bob = person('u3', 'Bob');
const cara = person('u4', 'Cara', 'Staff');
const dan = person('u5', 'Dan', 'Staff');

let project: Project;
let members: ProjectMember[];
let assignable: AssignableUser[];
let rosterFetches: number;
let patches: string[];
let refuse: boolean;

const givable = (user: typeof sam, isTevora: boolean, roles: ProjectRole[]): AssignableUser => ({
  ...user,
  isTevora,
  roles,
});

setupTestServer(
  http.get('*/api/v1/projects/p1', () => HttpResponse.json(project)),
  http.get('*/api/v1/projects/p1/users', () => {
    rosterFetches += 1;
    return HttpResponse.json({ results: members });
  }),
  http.get('*/api/v1/projects/p1/assignable-users', () => HttpResponse.json({ results: assignable })),
  http.patch('*/api/v1/projects/roles/:userId/assignments', async ({ params, request }) => {
    const body = (await request.json()) as { projectId: string; role: ProjectRole | null };
    patches.push(`${params.userId} ${JSON.stringify(body)}`);
    if (refuse) {
      const e = apiError(404, 'user_not_in_project', 'The user is not on this project.');
      return HttpResponse.json(e.body, { status: e.status });
    }
    const user = [sam, ann, bob, cara, dan].find((u) => u.id === params.userId)!;
    members = [...members.filter((m) => m.id !== user.id), ...(body.role ? [member(user, body.role)] : [])];
    return HttpResponse.json({ userId: user.id, projectId: 'p1', role: body.role });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  project = makeProject();
  members = [member(sam, 'Lead Consultant', true)];
  // As the api computes them for a staff manager: a lead keeps their role until it is given to someone
  // else, the Lead Consultant is not made Project Manager, a client is not given staff roles.
  assignable = [
    givable(ann, false, ['Project Manager', 'Client Lead']),
    givable(bob, false, ['Project Manager']),
    givable(sam, true, ['Lead Consultant']),
  ];
  rosterFetches = 0;
  patches = [];
  refuse = false;
});

const renderRoster = () =>
  renderWithProviders(
    <Routes>
      <Route path="/v2/projects/:projectId/team-roster" element={<TeamRosterPage />} />
    </Routes>,
    { route: '/v2/projects/p1/team-roster', session },
  );

const rowOf = (email: string) => screen.getByText(email).closest('tr') as HTMLElement;

/** A full roster: two leads, a staff Consultant, a client Project Manager and a suspended staff Consultant. */
function fullRoster() {
  members = [
    member(sam, 'Lead Consultant', true),
    member(cara, 'Consultant', true),
    member(bob, 'Project Manager'),
    member(ann, 'Client Lead'),
    { ...member(dan, 'Consultant', true), status: 'suspended' },
  ];
  // dan is suspended: the api does not list him
  assignable = [
    givable(ann, false, ['Client Lead']),
    givable(bob, false, ['Project Manager', 'Client Lead']),
    givable(cara, true, ['Lead Consultant', 'Consultant', 'Project Manager']),
    givable(sam, true, ['Lead Consultant']),
  ];
}

describe('team roster', () => {
  it('shows the roster without add, role or remove controls to users who cannot manage it, and tags suspended members', async () => {
    project = makeProject({ permissions: { manage: false, write: true, manageRoster: false } });
    members = [member(sam, 'Lead Consultant', true), { ...member(dan, 'Consultant', true), status: 'suspended' }];
    renderRoster();
    await findHeading('Team roster');
    const row = (await screen.findByText('sam@acme.test')).closest('tr')!;
    expect(within(row).getByText('Lead Consultant')).toBeInTheDocument();
    expect(within(row).getByText('Staff')).toBeInTheDocument();
    expect(within(row).queryByText('Suspended')).not.toBeInTheDocument();
    expect(within(rowOf('dan@acme.test')).getByText('Suspended')).toBeInTheDocument();
    expect(screen.queryByText('Add member')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Role of Sam Staff')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Remove Sam Staff')).not.toBeInTheDocument();
  });

  it('adds a member with one of the roles offered for that user', async () => {
    renderRoster();
    await screen.findByText('sam@acme.test');
    expect(button('Add member')).toBeDisabled();
    await ue.click(screen.getByLabelText('User to add'));
    await ue.click(await findOption('Ann Lee (ann@acme.test)'));
    await ue.click(screen.getByLabelText('Role of the new member'));
    await waitFor(() => expect(optionTexts()).toEqual(['Project Manager', 'Client Lead']));
    await ue.click(await findOption('Client Lead'));
    // nobody holds Client Lead: nothing to confirm
    await ue.click(button('Add member'));
    await waitFor(() => expect(patches).toEqual(['u2 {"projectId":"p1","role":"Client Lead"}']));
    expect(await screen.findByText('ann@acme.test')).toBeInTheDocument();
  });

  it('offers each member only the roles the caller can give, and no removal of a lead', async () => {
    fullRoster();
    renderRoster();
    await screen.findByText('dan@acme.test');
    // leads: their role as text, Remove off with the reason
    await waitFor(() => expect(screen.getByLabelText('Role of Cara Staff')).toBeInTheDocument());
    for (const [email, name, role] of [
      ['sam@acme.test', 'Sam Staff', 'Lead Consultant'],
      ['ann@acme.test', 'Ann Lee', 'Client Lead'],
    ]) {
      expect(within(rowOf(email)).getByText(role)).toBeInTheDocument();
      expect(screen.queryByLabelText(`Role of ${name}`)).not.toBeInTheDocument();
      expect(screen.getByLabelText(`Remove ${name}`)).toBeDisabled();
    }
    await ue.hover(screen.getByLabelText('Remove Ann Lee').parentElement!);
    expect(await screen.findByText('Give the role to someone else first')).toBeInTheDocument();
    // a member the api does not list (suspended): the role as text, and removal still offered
    expect(screen.queryByLabelText('Role of Dan Staff')).not.toBeInTheDocument();
    expect(within(rowOf('dan@acme.test')).getByText('Consultant')).toBeInTheDocument();
    expect(screen.getByLabelText('Remove Dan Staff')).toBeEnabled();

    await ue.click(screen.getByLabelText('Role of Cara Staff'));
    await waitFor(() => expect(optionTexts()).toEqual(['Lead Consultant', 'Consultant', 'Project Manager']));
  });

  it('asks before giving a role someone else holds, naming them and what happens to them', async () => {
    fullRoster();
    renderRoster();
    await screen.findByText('dan@acme.test');
    await ue.click(await screen.findByLabelText('Role of Cara Staff'));
    await ue.click(await findOption('Lead Consultant'));
    let dialog = await findDialog();
    expect(dialog).toHaveTextContent('Give Lead Consultant to Cara Staff?');
    expect(dialog).toHaveTextContent('Sam Staff holds it now and will become Consultant.');
    await ue.click(button('Cancel', dialog));
    await waitFor(() => expect(isClosed(dialog)).toBe(true));
    expect(patches).toEqual([]);
    expect(within(rowOf('cara@acme.test')).getByTitle('Consultant')).toBeInTheDocument();

    await ue.click(screen.getByLabelText('Role of Bob Lee'));
    await ue.click(await findOption('Client Lead'));
    dialog = await findDialog();
    expect(dialog).toHaveTextContent('Ann Lee holds it now and will leave the project.');
    await ue.click(button('Give Client Lead', dialog));
    await waitFor(() => expect(patches).toEqual(['u3 {"projectId":"p1","role":"Client Lead"}']));
  });

  it('asks before removing, and keeps showing the server’s roster when a change is refused', async () => {
    fullRoster();
    refuse = true;
    renderRoster();
    await screen.findByText('dan@acme.test');
    await ue.click(screen.getByLabelText('Remove Dan Staff'));
    expect(patches).toEqual([]);
    await ue.click(await screen.findByText('Remove', { selector: '.ant-modal-confirm button *' }));
    await waitFor(() => expect(patches).toEqual(['u5 {"projectId":"p1","role":null}']));
    await waitFor(() => expect(rosterFetches).toBe(2));
    expect(screen.getByText('dan@acme.test')).toBeInTheDocument();
  });
});
