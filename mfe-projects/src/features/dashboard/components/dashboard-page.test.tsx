import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { Project, ProjectsSummary } from '@portal/shared/core/projects';
import type { Company, User } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { toast$, type ToastMessage } from '@portal/shared/web/events';
import { Route, Routes, useLocation } from '@portal/shared/web/router';
import type { SessionState } from '@portal/shared/web/session';
import { BackButton } from '../../projects/testing/fixtures';
import { DashboardPage, ProjectsListPage } from './dashboard-page';

// chart.js needs a real canvas: the charts are drawn by chart.js, the numbers beside them are ours.
jest.mock('./chart-canvas', () => ({
  ChartCanvas: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

const ALL_ON = { risks: true, projects: true, requests: true, reports: true, assets: true };
const acme: Company = { id: 'c1', name: 'Acme Corp', logo: null, modulesAccess: ALL_ON };
const staff: User = {
  id: 'u1',
  firstName: 'Sam',
  lastName: 'Staff',
  title: null,
  email: 'consultant@demo.test',
  login: 'consultant@demo.test',
  avatar: null,
  status: 'active',
  primaryPhone: null,
  isTevora: true,
  isAuditor: false,
  admin: { active: false },
  sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false },
  projectRoles: [],
  ldhmac: 'x',
};
const session: Partial<SessionState> = {
  user: staff,
  loggedIn: true,
  companies: [acme],
  companiesLoaded: true,
  selectedCompanyId: 'c1',
  company: acme,
};

const person = (id: string, firstName: string, lastName: string) => ({
  id,
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}@demo.test`,
});

function project(id: string, title: string, extra: Partial<Project> = {}): Project {
  return {
    id,
    companyId: 'c1',
    title,
    description: null,
    type: 'Assessment',
    status: 'active',
    practice: { id: 'pr1', name: 'SOC' },
    startDate: null,
    dueDate: '2026-03-31',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    tasksTotal: 10,
    tasksDone: 3,
    tasksOverdue: 2,
    leadConsultant: person('u1', 'Sam', 'Staff'),
    clientLead: person('u2', 'Lea', 'Lead'),
    permissions: { manage: true, write: true, manageRoster: true },
    myRole: 'Lead Consultant',
    ...extra,
  };
}

let projects: Project[];
let summary: ProjectsSummary;
let listRequests: string[];
let statusCalls: { id: string; body: unknown }[];
let created: unknown[];
/** Holds the create call's answer back while the test looks at the dialog. */
let createGate: Promise<void>;

const server = setupServer(
  http.get('*/api/v1/companies/c1/projects/summary', () => HttpResponse.json(summary)),
  // Home's "My requests" (the requests module is on in Acme; my-requests.test.tsx looks at it)
  http.get('*/api/v1/companies/c1/requests', () => HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 5 })),
  // every practice, for staff's New project form (a retired one is not offered)
  http.get('*/api/v1/practices', () =>
    HttpResponse.json({
      results: [
        { id: 'pr1', name: 'SOC', status: 'active' },
        { id: 'pr9', name: 'Old Practice', status: 'retired' },
      ],
    }),
  ),
  http.get('*/api/v1/companies/c1/projects', ({ request }) => {
    const url = new URL(request.url);
    listRequests.push(decodeURIComponent(url.search));
    const statuses = url.searchParams.getAll('status[]');
    const results = projects.filter((p) => !statuses.length || statuses.includes(p.status));
    return HttpResponse.json({
      results,
      total: results.length,
      page: Number(url.searchParams.get('page')),
      pageSize: 10,
    });
  }),
  http.post('*/api/v1/projects/:id/status', async ({ params, request }) => {
    const body = (await request.json()) as { status: Project['status'] };
    statusCalls.push({ id: String(params.id), body });
    const p = projects.find((x) => x.id === params.id)!;
    if (!p.clientLead) {
      return HttpResponse.json(
        {
          code: 'client_lead_missing_in_project',
          message: 'Client Lead Role must be set to activate the project.',
          requestId: 'r1',
        },
        { status: 409 },
      );
    }
    projects = projects.map((x) => (x.id === p.id ? { ...x, status: body.status } : x));
    return HttpResponse.json({ ...p, status: body.status });
  }),
  http.post('*/api/v1/companies/c1/projects', async ({ request }) => {
    const body = (await request.json()) as { title: string };
    created.push(body);
    await createGate;
    if (projects.some((p) => p.title === body.title)) {
      return HttpResponse.json(
        {
          code: 'project_already_exist',
          message: 'A project with this title already exists.',
          requestId: 'r2',
          details: [{ field: 'title', message: 'title is already used by another project' }],
        },
        { status: 409 },
      );
    }
    return HttpResponse.json(project('p-new', body.title, { status: 'pending' }), { status: 201 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let toasts: ToastMessage[];
let unsubscribe: () => void;
beforeEach(() => {
  projects = [
    project('p1', 'Acme SOC 2 Type II 2026'),
    project('p2', 'Acme PCI DSS Assessment', { status: 'pending', clientLead: null, tasksOverdue: 0 }),
    project('p3', 'Acme Vendor Review', { status: 'pending', type: 'Advisory', practice: null }),
    project('p4', 'Acme ISO Readiness', {
      status: 'on_hold',
      permissions: { manage: false, write: true, manageRoster: false },
    }),
  ];
  summary = {
    projectsByStatus: { pending: 2, active: 1, on_hold: 1, completed: 0, canceled: 0 },
    tasksByStatus: { OPEN: 12, IN_PROGRESS: 5, INCOMPLETE: 1, IN_REVIEW: 2, COMPLETED: 9, NOT_APPLICABLE: 0 },
    overdueByProject: [{ projectId: 'p1', title: 'Acme SOC 2 Type II 2026', overdue: 4 }],
    overdueTotal: 4,
    dueThisWeek: 3,
    practices: [{ id: 'pr1', name: 'SOC' }],
    canCreate: false,
  };
  listRequests = [];
  statusCalls = [];
  created = [];
  createGate = Promise.resolve();
  toasts = [];
  const sub = toast$.subscribe((t) => toasts.push(t));
  unsubscribe = () => sub.unsubscribe();
});
afterEach(() => unsubscribe());

function Address() {
  const { pathname, search } = useLocation();
  return <output aria-label="address">{pathname + decodeURIComponent(search)}</output>;
}

function renderAt(route: string, sessionState: Partial<SessionState> = session) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/" element={<DashboardPage />} />
        <Route path="/v2/projects" element={<ProjectsListPage />} />
        <Route path="/v2/projects/:projectId" element={<p>Project detail</p>} />
      </Routes>
      <Address />
      <BackButton />
    </>,
    { route, session: sessionState },
  );
}

const ue = () => userEvent.setup({ delay: null, pointerEventsCheck: 0 });
const address = () => screen.getByLabelText('address');
/** The list's row of a project (the overdue chart's table names projects too). */
const rowOf = (title: string) => screen.getByText(title, { selector: '.ant-table-row a' }).closest('tr') as HTMLElement;
/** A button by its text: role queries with a name are slow over antd's large DOM. */
const button = (text: string, container: HTMLElement = document.body) =>
  within(container).getByText(text, { selector: 'button, button *' }).closest('button') as HTMLButtonElement;

describe('Home', () => {
  it('lists the projects of the selected company with the chart numbers of its summary', async () => {
    renderAt('/');
    const soc = await screen.findByText('Acme SOC 2 Type II 2026', { selector: '.ant-table-row a' });
    expect(soc).toHaveAttribute('href', '/v2/projects/p1');
    const row = rowOf('Acme SOC 2 Type II 2026');
    for (const text of ['Active', 'Assessment', 'SOC', 'Sam Staff', 'Lea Lead', '3/10', '3/31/2026'])
      expect(within(row).getByText(text)).toBeInTheDocument();
    expect(within(rowOf('Acme Vendor Review')).getByText('Pending')).toBeInTheDocument();
    // Activation is offered to managers of pending or on-hold projects only.
    expect(within(rowOf('Acme Vendor Review')).getByText('Activate')).toBeInTheDocument();
    expect(within(row).queryByText('Activate')).not.toBeInTheDocument();
    expect(within(rowOf('Acme ISO Readiness')).queryByText('Activate')).not.toBeInTheDocument();
    expect(listRequests).toEqual(['?page=1&pageSize=10&sort=title']);

    const projectCounts = await screen.findByRole('table', { name: 'Projects by status counts' });
    expect(within(projectCounts).getByRole('row', { name: 'Pending 2' })).toBeInTheDocument();
    expect(within(projectCounts).getByRole('row', { name: 'Active 1' })).toBeInTheDocument();
    expect(within(projectCounts).getByRole('row', { name: 'Total 4' })).toBeInTheDocument();
    const taskCounts = screen.getByRole('table', { name: 'Tasks by status counts' });
    expect(within(taskCounts).getByRole('row', { name: 'Open 12' })).toBeInTheDocument();
    expect(within(taskCounts).getByRole('row', { name: 'Total 29' })).toBeInTheDocument();
    const overdue = screen.getByRole('region', { name: 'Overdue work' });
    expect(within(overdue).getByRole('row', { name: 'Acme SOC 2 Type II 2026 4' })).toBeInTheDocument();
    expect(within(overdue).getByText('Due in the next 7 days').closest('.ant-statistic')).toHaveTextContent('3');
    expect(within(overdue).getByText('Overdue tasks').closest('.ant-statistic')).toHaveTextContent('4');
    // canCreate is false for this caller
    expect(screen.queryByText('New project')).not.toBeInTheDocument();
  });

  it('asks for a company when none is selected, without calling the api', async () => {
    renderAt('/', { ...session, selectedCompanyId: null, company: null });
    expect(await screen.findByText('No company selected')).toBeInTheDocument();
    expect(listRequests).toEqual([]);
  });
});

describe('the projects list', () => {
  it('filters by status through the address, from the first page', async () => {
    const user = ue();
    renderAt('/v2/projects?page=2&sort=-dueDate');
    expect(await screen.findByText('Projects', { selector: 'h1' })).toBeInTheDocument();
    await screen.findByText('Acme SOC 2 Type II 2026');
    await user.click(screen.getByLabelText('Filter by status'));
    await user.click((await screen.findAllByText('Pending', { selector: '.ant-select-item-option-content' }))[0]);
    await waitFor(() => expect(address()).toHaveTextContent('/v2/projects?sort=-dueDate&status=pending'));
    await waitFor(() => expect(screen.queryByText('Acme SOC 2 Type II 2026')).not.toBeInTheDocument());
    expect(screen.getByText('Acme PCI DSS Assessment')).toBeInTheDocument();
    expect(listRequests).toEqual([
      '?page=2&pageSize=10&sort=-dueDate',
      '?page=1&pageSize=10&sort=-dueDate&status[]=pending',
    ]);
  });

  it('restores the filters from the address and clears them when nothing matches', async () => {
    const user = ue();
    renderAt('/v2/projects?status=completed&q=soc&practice=pr1');
    expect(await screen.findByText('No projects match these filters')).toBeInTheDocument();
    expect(screen.getByLabelText('Search projects')).toHaveValue('soc');
    expect(listRequests).toEqual(['?page=1&pageSize=10&sort=title&status[]=completed&practiceId=pr1&search=soc']);
    await user.click(button('Clear filters'));
    await waitFor(() => expect(address()).toHaveTextContent(/^\/v2\/projects$/));
    expect(await screen.findByText('Acme SOC 2 Type II 2026')).toBeInTheDocument();
    expect(screen.getByLabelText('Search projects')).toHaveValue('');
  });

  it('offers Activate only when it can work; a refusal leaves the row as it was', async () => {
    const user = ue();
    renderAt('/v2/projects');
    await screen.findByText('Acme PCI DSS Assessment');

    // no Client Lead: activation is sure to be refused, so it is not offered
    expect(button('Activate', rowOf('Acme PCI DSS Assessment'))).toBeDisabled();

    // a refusal the row cannot foresee (a lead suspended since): the row stays as it was
    server.use(
      http.post(
        '*/api/v1/projects/:id/status',
        () =>
          HttpResponse.json(
            { code: 'client_lead_missing_in_project', message: 'Client Lead missing', requestId: 'r2' },
            { status: 409 },
          ),
        { once: true },
      ),
    );
    await user.click(button('Activate', rowOf('Acme Vendor Review')));
    await waitFor(() => expect(button('Activate', rowOf('Acme Vendor Review'))).toBeEnabled());
    expect(within(rowOf('Acme Vendor Review')).getByText('Pending')).toBeInTheDocument();
    // the shell shows the api's message; nothing here adds a second one
    expect(toasts).toEqual([]);

    await user.click(button('Activate', rowOf('Acme Vendor Review')));
    await waitFor(() => expect(within(rowOf('Acme Vendor Review')).getByText('Active')).toBeInTheDocument());
    expect(within(rowOf('Acme Vendor Review')).queryByText('Activate')).not.toBeInTheDocument();
    expect(statusCalls).toEqual([{ id: 'p3', body: { status: 'active' } }]);
    expect(toasts).toEqual([{ severity: 'success', summary: 'Acme Vendor Review is active' }]);
  });

  it('creates a project from the dialog and opens it', async () => {
    summary.canCreate = true;
    const user = ue();
    renderAt('/v2/projects');
    await screen.findByText('Acme SOC 2 Type II 2026');
    await user.click(button('New project'));
    const dialog = await screen.findByRole('dialog');
    const title = within(dialog).getByLabelText('Title');
    await waitFor(() => expect(title).toHaveFocus());

    // checked with the contract's schema before anything is sent
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText('Is required')).toBeInTheDocument();
    expect(created).toEqual([]);

    // the api's field error lands under its field
    await user.type(title, 'Acme SOC 2 Type II 2026{Enter}');
    expect(await within(dialog).findByText('A project with this title already exists.')).toBeInTheDocument();

    // native date inputs, as in the edit forms: their 'YYYY-MM-DD' goes out as it is
    fireEvent.change(within(dialog).getByLabelText('Start date'), { target: { value: '2026-02-01' } });
    fireEvent.change(within(dialog).getByLabelText('Due date'), { target: { value: '2026-06-30' } });
    let release = () => undefined as void;
    createGate = new Promise((resolve) => {
      release = resolve;
    });
    await user.clear(title);
    await user.type(title, 'Acme HIPAA Review{Enter}');
    await waitFor(() => expect(created).toHaveLength(2));
    // while it is being created the dialog cannot be closed
    expect(button('Cancel', dialog)).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(dialog).toBeVisible();
    release();
    await waitFor(() => expect(address()).toHaveTextContent(/^\/v2\/projects\/p-new$/));
    expect(screen.getByText('Project detail')).toBeInTheDocument();
    expect(created).toEqual([
      { title: 'Acme SOC 2 Type II 2026', type: 'Assessment', practiceId: null },
      {
        title: 'Acme HIPAA Review',
        type: 'Assessment',
        practiceId: null,
        startDate: '2026-02-01',
        dueDate: '2026-06-30',
      },
    ]);
  });

  it('says when the addressed page is past the last one, and goes to the first page', async () => {
    server.use(
      http.get('*/api/v1/companies/c1/projects', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return HttpResponse.json({ results: page === 1 ? projects : [], total: projects.length, page, pageSize: 10 });
      }),
    );
    const user = ue();
    renderAt('/v2/projects?page=5&sort=-dueDate');
    expect(await screen.findByText('There is no page 5')).toBeInTheDocument();
    expect(screen.queryByText('No projects yet')).not.toBeInTheDocument();
    await user.click(button('Go to the first page'));
    await waitFor(() => expect(address()).toHaveTextContent(/^\/v2\/projects\?sort=-dueDate$/));
    expect(await screen.findByText('Acme SOC 2 Type II 2026')).toBeInTheDocument();
  });

  it('makes one history entry of a typing burst: Back returns to the list before the search', async () => {
    const user = ue();
    renderAt('/v2/projects?status=pending');
    await screen.findByText('Acme PCI DSS Assessment');
    const search = screen.getByLabelText('Search projects');
    await user.type(search, 'acme');
    await waitFor(() => expect(address()).toHaveTextContent(/q=acme(&|$)/));
    await user.type(search, ' pci');
    await waitFor(() => expect(address()).toHaveTextContent(/q=acme\+pci/));
    await user.click(button('Browser back'));
    await waitFor(() => expect(address()).toHaveTextContent(/^\/v2\/projects\?status=pending$/));
    expect(search).toHaveValue('');
  });
});
