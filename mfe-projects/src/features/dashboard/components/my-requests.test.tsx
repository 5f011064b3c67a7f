import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ProjectsSummary } from '@portal/shared/core/projects';
import type { RequestSummary } from '@portal/shared/core/requests';
import type { AccessPermissions, Company, User } from '@portal/shared/core/schemas';
import { localDay } from '@portal/shared/core/requests';
import { portalApi } from '@portal/shared/web/api';
import { renderWithProviders } from '@portal/shared/testing';
import { sessionActions, type SessionState } from '@portal/shared/web/session';
import { DashboardPage } from './dashboard-page';

// chart.js needs a real canvas; Home's charts are not what these tests look at.
jest.mock('./chart-canvas', () => ({
  ChartCanvas: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

// The section's chunk: loading it fails while mockChunkFailures > 0 (as a deploy or a dropped network would).
let mockChunkFailures = 0;
jest.mock('./my-requests', () => {
  const actual = jest.requireActual('./my-requests');
  return {
    __esModule: true,
    get MyRequests() {
      if (mockChunkFailures > 0) {
        mockChunkFailures -= 1;
        // webpack's error for a chunk that did not arrive (the server still has it: the network dropped)
        throw Object.assign(new Error('Loading chunk 42 failed.'), {
          name: 'ChunkLoadError',
          request: 'http://localhost/remotes/mfe-projects/42.js',
        });
      }
      return actual.MyRequests;
    },
  };
});

// Home renders its charts and list beside the section (antd in jsdom is slow on a busy machine): each
// step may wait longer than the usual 5 s.
configure({ asyncUtilTimeout: 15_000 });

const ALL_ON = { risks: true, projects: true, requests: true, reports: true, assets: true };
const acme: Company = { id: 'c1', name: 'Acme Corp', logo: null, modulesAccess: ALL_ON };
const baseUser: User = {
  id: 'u2',
  firstName: 'Lea',
  lastName: 'Lead',
  title: null,
  email: 'lead@acme.test',
  login: 'lead@acme.test',
  avatar: null,
  status: 'active',
  primaryPhone: null,
  isTevora: false,
  isAuditor: false,
  admin: { active: false },
  sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false },
  projectRoles: [],
  ldhmac: 'x',
};
const client = baseUser;
const staff: User = {
  ...baseUser,
  id: 'u1',
  firstName: 'Sam',
  lastName: 'Staff',
  email: 'consultant@demo.test',
  login: 'consultant@demo.test',
  isTevora: true,
};
const auditor: User = {
  ...staff,
  id: 'u3',
  firstName: 'Aud',
  lastName: 'Itor',
  email: 'auditor@demo.test',
  login: 'auditor@demo.test',
  isAuditor: true,
};
const accessOf = (modulesAccess: AccessPermissions['modulesAccess']): AccessPermissions => ({
  modulesAccess,
  settingsPermissions: {} as AccessPermissions['settingsPermissions'],
});
const sessionFor = (user: User, extra: Partial<SessionState> = {}): Partial<SessionState> => ({
  user,
  loggedIn: true,
  companies: [acme],
  companiesLoaded: true,
  selectedCompanyId: 'c1',
  company: acme,
  access: accessOf(ALL_ON),
  ...extra,
});

const summary: ProjectsSummary = {
  projectsByStatus: { pending: 0, active: 0, on_hold: 0, completed: 0, canceled: 0 },
  tasksByStatus: { OPEN: 0, IN_PROGRESS: 0, INCOMPLETE: 0, IN_REVIEW: 0, COMPLETED: 0, NOT_APPLICABLE: 0 },
  overdueByProject: [],
  overdueTotal: 0,
  dueThisWeek: 0,
  practices: [],
  canCreate: false,
};

function request(id: string, reference: string, title: string, extra: Partial<RequestSummary> = {}): RequestSummary {
  return {
    id,
    companyId: 'c1',
    reference,
    title,
    status: 'open',
    priority: 'medium',
    dueDate: null,
    overdue: false,
    project: null,
    requester: null,
    assignees: [],
    teams: [],
    fileCount: 0,
    commentCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

/** The query strings of the requests calls, decoded. */
let requestCalls: string[];
let requests: RequestSummary[];
let failures: number;

const server = setupServer(
  // the failure panel asks again for a chunk that did not arrive: out of reach still
  http.head('*/remotes/mfe-projects/42.js', () => HttpResponse.error()),
  http.get('*/api/v1/companies/c1/projects/summary', () => HttpResponse.json(summary)),
  http.get('*/api/v1/companies/c1/projects', () => HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 10 })),
  http.get('*/api/v1/companies/c1/requests', ({ request: call }) => {
    requestCalls.push(decodeURIComponent(new URL(call.url).search));
    if (failures > 0) {
      failures--;
      return HttpResponse.json(
        { code: 'internal_error', message: 'The server could not answer.', requestId: 'r1' },
        { status: 500 },
      );
    }
    return HttpResponse.json({ results: requests, total: requests.length, page: 1, pageSize: 5 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

beforeEach(() => {
  requestCalls = [];
  requests = [];
  failures = 0;
  mockChunkFailures = 0;
});

/** The local day `days` from today (YYYY-MM-DD). */
function localDayFromToday(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return localDay(d);
}

const section = () => screen.getByRole('region', { name: 'My requests' });
const items = () => within(screen.getByRole('list', { name: 'Requests waiting for you' })).getAllByRole('listitem');

describe('My requests on Home', () => {
  it('shows a client what waits for their evidence, overdue first, with a link to all of theirs', async () => {
    // the reply's order is the due date's; an overdue request still comes first
    requests = [
      request('r2', 'REQ-0002', 'Access review', { dueDate: '2099-01-15' }),
      request('r1', 'REQ-0001', 'Firewall rules', { status: 'returned', dueDate: '2026-01-10', overdue: true }),
      request('r3', 'REQ-0003', 'Security policy'),
    ];
    renderWithProviders(<DashboardPage />, { session: sessionFor(client) });
    expect(await screen.findByRole('heading', { name: 'My requests' })).toBeInTheDocument();
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(requestCalls).toEqual(['?assigneeId=me&status[]=open&status[]=returned&sort=dueDate&page=1&pageSize=5']);

    const [first, second, third] = items();
    const firewall = within(first).getByRole('link', { name: 'REQ-0001 Firewall rules' });
    expect(firewall).toHaveAttribute('href', '/requests/r1');
    expect(within(first).getByText('Returned')).toBeInTheDocument();
    expect(within(first).getByText('Due 1/10/2026')).toBeInTheDocument();
    expect(within(first).getByText('Overdue')).toBeInTheDocument();

    expect(within(second).getByRole('link', { name: 'REQ-0002 Access review' })).toHaveAttribute(
      'href',
      '/requests/r2',
    );
    expect(within(second).getByText('Open')).toBeInTheDocument();
    expect(within(second).getByText('Due 1/15/2099')).toBeInTheDocument();
    expect(within(second).queryByText('Overdue')).not.toBeInTheDocument();

    expect(within(third).getByRole('link', { name: 'REQ-0003 Security policy' })).toBeInTheDocument();
    expect(within(third).queryByText(/^Due /)).not.toBeInTheDocument();

    expect(within(section()).getByRole('link', { name: 'View all' })).toHaveAttribute(
      'href',
      '/requests?assigneeId=me',
    );
  });

  it('shows staff the active requests they asked for, and says when nothing waits', async () => {
    renderWithProviders(<DashboardPage />, { session: sessionFor(staff) });
    expect(
      await within(await screen.findByRole('region', { name: 'My requests' })).findByText(
        'Nothing needs your attention',
      ),
    ).toBeInTheDocument();
    expect(requestCalls).toEqual([
      '?requesterId=me&status[]=open&status[]=submitted&status[]=returned&sort=dueDate&page=1&pageSize=5',
    ]);
    expect(within(section()).queryByRole('list')).not.toBeInTheDocument();
    expect(within(section()).getByRole('link', { name: 'View all' })).toHaveAttribute(
      'href',
      '/requests?requesterId=me',
    );
  });

  it('follows changes made in the requests module', async () => {
    requests = [request('r1', 'REQ-0001', 'Firewall rules')];
    const { store } = renderWithProviders(<DashboardPage />, { session: sessionFor(client) });
    await screen.findByRole('link', { name: 'REQ-0001 Firewall rules' });
    // the client submits it in the requests module: its mutations invalidate the 'Requests' tag
    requests = [];
    act(() => {
      store.dispatch(portalApi.util.invalidateTags(['Requests' as never]));
    });
    expect(await screen.findByText('Nothing needs your attention')).toBeInTheDocument();
    expect(requestCalls).toHaveLength(2);
  });

  it('says when the requests could not be loaded and tries again on Retry', async () => {
    failures = 1;
    requests = [request('r1', 'REQ-0001', 'Firewall rules')];
    renderWithProviders(<DashboardPage />, { session: sessionFor(client) });
    expect(await screen.findByText('Your requests could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The server could not answer.')).toBeInTheDocument();
    await userEvent.click(within(section()).getByText('Retry', { selector: 'button, button *' }));
    expect(await screen.findByRole('link', { name: 'REQ-0001 Firewall rules' })).toHaveAttribute(
      'href',
      '/requests/r1',
    );
    expect(screen.queryByText('Your requests could not be loaded')).not.toBeInTheDocument();
    expect(requestCalls).toHaveLength(2);
  });

  it('is not there when the requests module is off for the company, and calls nothing', async () => {
    const globex: Company = { id: 'c1', name: 'Globex Inc', logo: null, modulesAccess: { ...ALL_ON, requests: false } };
    renderWithProviders(<DashboardPage />, {
      session: sessionFor(client, { companies: [globex], company: globex, access: accessOf(globex.modulesAccess) }),
    });
    expect(await screen.findByText(/You are working in Globex Inc/)).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Projects by status counts' });
    expect(screen.queryByRole('region', { name: 'My requests' })).not.toBeInTheDocument();
    expect(requestCalls).toEqual([]);
  });

  it('is not there when the user has no access to the requests module in the company', async () => {
    renderWithProviders(<DashboardPage />, {
      session: sessionFor(client, { access: accessOf({ ...ALL_ON, requests: false }) }),
    });
    await screen.findByRole('table', { name: 'Projects by status counts' });
    expect(screen.queryByRole('region', { name: 'My requests' })).not.toBeInTheDocument();
    expect(screen.queryByText('My requests')).not.toBeInTheDocument();
    expect(requestCalls).toEqual([]);
  });

  it('stays when the projects module is off: only the projects part says it is not available', async () => {
    requests = [request('r1', 'REQ-0001', 'Firewall rules')];
    const noProjects = { ...ALL_ON, projects: false };
    const company: Company = { ...acme, modulesAccess: noProjects };
    renderWithProviders(<DashboardPage />, {
      session: sessionFor(client, { companies: [company], company, access: accessOf(noProjects) }),
    });
    expect(await screen.findByText('Projects are not available')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'REQ-0001 Firewall rules' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Projects' })).not.toBeInTheDocument();
  });

  it("marks overdue by the user's own day, not the server's", async () => {
    requests = [
      // the server's day is still yesterday's: it says "not overdue", but the day has passed here
      request('r1', 'REQ-0001', 'Firewall rules', { dueDate: localDayFromToday(-1), overdue: false }),
      // the server's day is already tomorrow: it says "overdue", but here it is due today
      request('r2', 'REQ-0002', 'Access review', { dueDate: localDay(), overdue: true }),
    ];
    renderWithProviders(<DashboardPage />, { session: sessionFor(client) });
    await waitFor(() => expect(items()).toHaveLength(2));
    const [first, second] = items();
    expect(within(first).getByRole('link', { name: 'REQ-0001 Firewall rules' })).toBeInTheDocument();
    expect(within(first).getByText('Overdue')).toBeInTheDocument();
    expect(within(second).getByRole('link', { name: 'REQ-0002 Access review' })).toBeInTheDocument();
    expect(within(second).queryByText('Overdue')).not.toBeInTheDocument();
  });

  it("never shows the previous company's requests after a switch, while the new company's load", async () => {
    const initech: Company = { id: 'c3', name: 'Initech', logo: null, modulesAccess: ALL_ON };
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get('*/api/v1/companies/c3/projects/summary', () => HttpResponse.json(summary)),
      http.get('*/api/v1/companies/c3/projects', () =>
        HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 10 }),
      ),
      http.get('*/api/v1/companies/c3/requests', async () => {
        await answered;
        return HttpResponse.json({
          results: [{ ...request('r9', 'REQ-0009', 'Badge logs'), companyId: 'c3' }],
          total: 1,
          page: 1,
          pageSize: 5,
        });
      }),
    );
    requests = [request('r1', 'REQ-0001', 'Firewall rules')];
    const { store } = renderWithProviders(<DashboardPage />, {
      session: sessionFor(client, { companies: [acme, initech] }),
    });
    await screen.findByRole('link', { name: 'REQ-0001 Firewall rules' });

    act(() => {
      store.dispatch(sessionActions.companySelected('c3'));
    });
    expect(await screen.findByText(/You are working in Initech/)).toBeInTheDocument();
    expect(within(section()).getByRole('status', { name: 'Loading requests' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'REQ-0001 Firewall rules' })).not.toBeInTheDocument();
    answer();
    expect(await screen.findByRole('link', { name: 'REQ-0009 Badge logs' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'REQ-0001 Firewall rules' })).not.toBeInTheDocument();
  });

  it('is not there for auditors, and calls nothing', async () => {
    renderWithProviders(<DashboardPage />, { session: sessionFor(auditor) });
    await screen.findByRole('table', { name: 'Projects by status counts' });
    expect(screen.queryByRole('region', { name: 'My requests' })).not.toBeInTheDocument();
    expect(requestCalls).toEqual([]);
  });

  it('offers a Retry when its code cannot be loaded, and the rest of Home stays', async () => {
    mockChunkFailures = 1;
    requests = [request('r1', 'REQ-0001', 'Firewall rules')];
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      renderWithProviders(<DashboardPage />, { session: sessionFor(client) });
      expect(
        await within(await screen.findByRole('region', { name: 'My requests' })).findByText(
          'My requests is unavailable right now',
        ),
      ).toBeInTheDocument();
      expect(screen.getByText(/You are working in Acme Corp/)).toBeInTheDocument();
      await screen.findByRole('table', { name: 'Projects by status counts' });
      await userEvent.click(within(section()).getByText('Retry', { selector: 'button, button *' }));
      expect(await screen.findByRole('link', { name: 'REQ-0001 Firewall rules' })).toHaveAttribute(
        'href',
        '/requests/r1',
      );
    } finally {
      error.mockRestore();
    }
  });
});
