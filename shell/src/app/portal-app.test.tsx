import { act, screen, within } from '@testing-library/react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createPortalStore } from '../store/store';
import { PortalApp } from './portal-app';

const allOn = { risks: true, projects: true, requests: true, reports: true, assets: true };
const acme = { id: 'acme', name: 'Acme Corp', logo: null, modulesAccess: allOn };
const globex = { id: 'globex', name: 'Globex Inc', logo: null, modulesAccess: { ...allOn, requests: false } };
const user = {
  id: 'u-both', firstName: 'Bo', lastName: 'Th', title: null, email: 'both@acme.test', login: 'both@acme.test', avatar: null,
  status: 'active', primaryPhone: null, isTevora: false, isAuditor: false, admin: { active: false }, sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false }, projectRoles: [], ldhmac: 'h',
};
const noSettings = {
  users: { editHelp: false, editTevoraAdmins: false, editModulesAccess: false, editPractices: false },
  company: { editInformation: false, editModulesAccess: false, editUsersAndTeams: false, addCompany: false },
  loaded: true,
};
const accessRequests: string[] = [];

const server = setupServer(
  http.get('*/api/v1/users/profile/me', () => HttpResponse.json(user)),
  http.get('*/api/v1/companies', () => HttpResponse.json({ results: [acme, globex], total: 2, page: 1, pageSize: 2 })),
  http.get('*/api/v1/companies/:id/access-permissions', ({ params }) => {
    accessRequests.push(String(params.id));
    const modulesAccess = params.id === 'globex' ? globex.modulesAccess : allOn;
    return HttpResponse.json({ modulesAccess, settingsPermissions: noSettings });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  accessRequests.length = 0;
  document.cookie = 'pe_company_id=; Max-Age=0; Path=/';
  document.cookie = 'toUrl=; Max-Age=0; Path=/';
});
afterAll(() => server.close());

function renderPortal(path: string) {
  window.history.pushState({}, '', path);
  return render(<PortalApp store={createPortalStore()} />);
}

const nav = () => screen.getByRole('navigation', { name: 'Main' });

describe('the shell frame', () => {
  beforeEach(() => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('shows the modules of the selected company and updates them live when the company changes', async () => {
    renderPortal('/no/such/page');
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
    expect(await within(nav()).findByRole('link', { name: 'Requests' })).toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'Reports' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /Company: Acme Corp/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Globex Inc' }));

    expect(await screen.findByRole('button', { name: /Company: Globex Inc/ })).toBeInTheDocument();
    await act(async () => undefined);
    expect(within(nav()).queryByRole('link', { name: 'Requests' })).not.toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'Reports' })).toBeInTheDocument();
    expect(accessRequests).toEqual(['acme', 'globex']);
    expect(document.cookie).toContain('pe_company_id=globex');
  });

  it('selects the remembered company while the user still belongs to it', async () => {
    document.cookie = 'pe_company_id=globex; Path=/';
    renderPortal('/no/such/page');
    expect(await screen.findByRole('button', { name: /Company: Globex Inc/ })).toBeInTheDocument();
    expect(accessRequests).toEqual(['globex']);
  });

  it('falls back to the first company when the remembered one is no longer the user’s', async () => {
    document.cookie = 'pe_company_id=initech; Path=/';
    renderPortal('/no/such/page');
    expect(await screen.findByRole('button', { name: /Company: Acme Corp/ })).toBeInTheDocument();
  });

  it('remembers the address for 5 minutes and goes to sign-in when the user is not signed in', async () => {
    server.use(http.get('*/api/v1/users/profile/me', () => HttpResponse.json({ code: 'unauthorized', message: 'Sign in', requestId: 'r' }, { status: 401 })));
    renderPortal('/requests/r-9?tab=files');
    await screen.findByRole('status', { name: 'Signing in' });
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(decodeURIComponent(document.cookie)).toContain('toUrl=/requests/r-9?tab=files');
  });

  it('shows the no-data-access banner when the user has no company', async () => {
    server.use(http.get('*/api/v1/companies', () => HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 50 })));
    renderPortal('/no/such/page');
    expect(await screen.findByText('You have no data access')).toBeInTheDocument();
  });

  it('turns a failed call into a toast with the request reference, once', async () => {
    server.use(
      http.get('*/api/v1/companies/:id/access-permissions', () =>
        HttpResponse.json({ code: 'internal_error', message: '', requestId: 'req-42' }, { status: 500 }),
      ),
    );
    renderPortal('/no/such/page');
    expect(await screen.findByText('Your access for this company could not be loaded')).toBeInTheDocument();
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByText(/Reference: req-42/)).toBeInTheDocument();
    expect(screen.getAllByText('Something went wrong')).toHaveLength(1);
  });
});
