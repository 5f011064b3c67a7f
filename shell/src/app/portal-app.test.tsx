import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { portalApi } from '@portal/shared/web/api';
import { createPortalStore } from '../store/store';
import { browserLocation } from '../session/sign-in';
import { PortalApp } from './portal-app';
import { loadedRemotes, PORTAL_REMOTES } from './testing-remotes';

// Remotes are served by a test double that renders its own nested routes like a real remote.
jest.mock('../federation/remotes', () => jest.requireActual('./testing-remotes'));

const allOn = { risks: true, projects: true, requests: true, reports: true, assets: true };
const acme = { id: 'acme', name: 'Acme Corp', logo: null, modulesAccess: allOn };
const globex = { id: 'globex', name: 'Globex Inc', logo: null, modulesAccess: { ...allOn, requests: false } };
const user = {
  id: 'u-both',
  firstName: 'Bo',
  lastName: 'Th',
  title: null,
  email: 'both@acme.test',
  login: 'both@acme.test',
  avatar: null,
  status: 'active',
  primaryPhone: null,
  isTevora: false,
  isAuditor: false,
  admin: { active: false },
  sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false },
  projectRoles: [],
  ldhmac: 'h',
};
const noSettings = {
  users: { editHelp: false, editTevoraAdmins: false, editModulesAccess: false, editPractices: false },
  company: { editInformation: false, editModulesAccess: false, editUsersAndTeams: false, addCompany: false },
  loaded: true,
};
const calls = { me: 0, companies: 0, config: 0, details: [] as string[], access: [] as string[] };
const failure = (status: number, requestId: string) =>
  HttpResponse.json({ code: status === 401 ? 'unauthorized' : 'internal_error', message: '', requestId }, { status });

const server = setupServer(
  http.get('*/api/v1/portal-config', () => {
    calls.config++;
    return HttpResponse.json({ brandName: 'Tevora', apiVersion: 'dev', uiVersion: 'dev', remotes: PORTAL_REMOTES });
  }),
  http.get('*/api/v1/users/profile/me', () => {
    calls.me++;
    return HttpResponse.json(user);
  }),
  http.get('*/api/v1/companies', () => {
    calls.companies++;
    return HttpResponse.json({ results: [acme, globex], total: 2, page: 1, pageSize: 2 });
  }),
  http.get('*/api/v1/companies/:id', ({ params }) => {
    calls.details.push(String(params.id));
    return HttpResponse.json(params.id === 'globex' ? globex : acme);
  }),
  http.get('*/api/v1/companies/:id/access-permissions', ({ params }) => {
    calls.access.push(String(params.id));
    const modulesAccess = params.id === 'globex' ? globex.modulesAccess : allOn;
    return HttpResponse.json({ modulesAccess, settingsPermissions: noSettings });
  }),
  // the header's flag client is tested on its own; here its service is down (502: silent) and the portal goes on
  http.all('*/api/v1/feature-flags*', () => new HttpResponse(null, { status: 502 })),
  // the banner and the bell are tested on their own (features/banner, features/notifications): none here
  http.get('*/api/v1/system-settings', () => HttpResponse.json({ data: [] })),
  http.get('*/api/v1/notifications', () =>
    HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 10, unreadCount: 0 }),
  ),
);

// The whole frame renders here, and its lazily loaded parts compile on first use: allow for that.
configure({ asyncUtilTimeout: 4000 });

let assign: jest.SpyInstance;
let post: jest.SpyInstance;
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
  post = jest.spyOn(browserLocation, 'post').mockImplementation(() => undefined);
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
  server.resetHandlers();
  Object.assign(calls, { me: 0, companies: 0, config: 0, details: [], access: [] });
  loadedRemotes.length = 0;
  document.cookie = 'pe_company_id=; Max-Age=0; Path=/';
  document.cookie = 'toUrl=; Max-Age=0; Path=/';
  window.localStorage.clear();
  window.sessionStorage.clear();
});
afterAll(() => server.close());

function renderPortal(path: string) {
  window.history.pushState({}, '', path);
  const store = createPortalStore();
  const view = render(<PortalApp store={store} />);
  return { store, ...view };
}

const nav = () => screen.getByRole('navigation', { name: 'Main' });
const openLink = async (name: string) => userEvent.click(await within(nav()).findByRole('link', { name }));

/** Only Date is faked (RTK Query dates its cache with it); timers, msw and React run for real. */
function fakeClock() {
  jest.useFakeTimers({
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  return { advance: (seconds: number) => jest.setSystemTime(Date.now() + seconds * 1000) };
}

describe('sign-in before every route', () => {
  it('loads the user before any signed-in route renders, with the portal config alongside', async () => {
    let releaseUser!: () => void;
    const userGate = new Promise<void>((resolve) => (releaseUser = resolve));
    server.use(
      http.get('*/api/v1/users/profile/me', async () => {
        calls.me++;
        await userGate;
        return HttpResponse.json(user);
      }),
    );
    renderPortal('/settings/personal');
    expect(await screen.findByRole('status', { name: 'Signing in' })).toBeInTheDocument();
    await waitFor(() => expect(calls.config).toBe(1));
    expect(calls.me).toBe(1);
    expect(calls.companies).toBe(0);
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(loadedRemotes).toEqual([]);

    releaseUser();
    expect(await screen.findByTestId('mfe-settings')).toHaveTextContent(
      'mfe-settings at /settings/personal (mounted at /settings) for Acme Corp',
    );
    expect(calls.me).toBe(1);
  });

  it('opens a public route without loading the user', async () => {
    renderPortal('/account-removed');
    expect(await screen.findByText('Your account has been removed')).toBeInTheDocument();
    await act(async () => new Promise((r) => setTimeout(r, 30)));
    expect(calls.me).toBe(0);
  });

  it('reuses the user for navigations within 300 s and loads it again after that', async () => {
    const clock = fakeClock();
    renderPortal('/settings/personal');
    await screen.findByTestId('mfe-settings');
    expect(calls.me).toBe(1);

    clock.advance(299);
    await openLink('Reports');
    expect(await screen.findByTestId('mfe-reports')).toHaveTextContent('mfe-reports at /reports');
    expect(calls.me).toBe(1);

    clock.advance(2);
    await openLink('Settings');
    expect(await screen.findByTestId('mfe-settings')).toHaveTextContent('at /settings');
    expect(calls.me).toBe(2);
  });

  it('cancels a navigation when the user cannot be loaded: the page stays and a toast says why', async () => {
    const clock = fakeClock();
    renderPortal('/settings/personal');
    await screen.findByTestId('mfe-settings');
    clock.advance(301);
    server.use(http.get('*/api/v1/users/profile/me', () => failure(500, 'req-me')));

    await openLink('Requests');
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByText(/Reference: req-me/)).toBeInTheDocument();
    expect(screen.getByTestId('mfe-settings')).toHaveTextContent('at /settings/personal');
    expect(screen.queryByTestId('mfe-requests')).not.toBeInTheDocument();
    expect(window.location.pathname).toBe('/settings/personal');
    expect(assign).not.toHaveBeenCalled();

    // once the server answers again, the same navigation goes through
    server.resetHandlers();
    await openLink('Requests');
    expect(await screen.findByTestId('mfe-requests')).toHaveTextContent('at /requests');
    expect(window.location.pathname).toBe('/requests');
  });

  it('undoes a back navigation that cannot load the user', async () => {
    const clock = fakeClock();
    renderPortal('/settings/personal');
    await screen.findByTestId('mfe-settings');
    await openLink('Reports');
    await screen.findByTestId('mfe-reports');
    clock.advance(301);
    server.use(http.get('*/api/v1/users/profile/me', () => failure(500, 'req-back')));

    act(() => window.history.back());
    expect(await screen.findByText(/Reference: req-back/)).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/reports'));
    expect(screen.getByTestId('mfe-reports')).toBeInTheDocument();
    expect(screen.queryByTestId('mfe-settings')).not.toBeInTheDocument();
  });

  it('remembers the address for 5 minutes and goes to sign-in when the user is not signed in', async () => {
    server.use(http.get('*/api/v1/users/profile/me', () => failure(401, 'r')));
    renderPortal('/requests/r-9?tab=files');
    await screen.findByRole('status', { name: 'Signing in' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/auth/saml/login'));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(decodeURIComponent(document.cookie)).toContain('toUrl=/requests/r-9?tab=files');
  });

  it('on a 401 during a navigation, remembers where the user was going and goes to sign-in', async () => {
    const clock = fakeClock();
    renderPortal('/settings/personal');
    await screen.findByTestId('mfe-settings');
    clock.advance(301);
    server.use(http.get('*/api/v1/users/profile/me', () => failure(401, 'r')));

    await openLink('Reports');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/auth/saml/login'));
    expect(decodeURIComponent(document.cookie)).toContain('toUrl=/reports');
    expect(screen.getByTestId('mfe-settings')).toBeInTheDocument();
    expect(screen.queryByText('Authorization error')).not.toBeInTheDocument();
  });
});

describe('the route loading indicator', () => {
  it('covers the page while a slow navigation is pending, and goes when it ends', async () => {
    const clock = fakeClock();
    renderPortal('/settings/personal');
    await screen.findByTestId('mfe-settings');
    clock.advance(301);
    server.use(
      http.get('*/api/v1/users/profile/me', async () => {
        await delay(400);
        return HttpResponse.json(user);
      }),
    );

    await openLink('Reports');
    expect(await screen.findByRole('status', { name: 'Loading page' })).toBeInTheDocument();
    expect(screen.getByTestId('mfe-settings')).toBeInTheDocument(); // the old page stays underneath
    expect(await screen.findByTestId('mfe-reports')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading page' })).not.toBeInTheDocument());
  });

  it('does not flash for a quick navigation', async () => {
    renderPortal('/settings/personal');
    await screen.findByTestId('mfe-settings');
    let seen = false;
    const observer = new MutationObserver(() => {
      seen ||= !!document.querySelector('[aria-label="Loading page"]');
    });
    observer.observe(document.body, { childList: true, subtree: true });
    await openLink('Reports');
    await screen.findByTestId('mfe-reports');
    await act(async () => new Promise((r) => setTimeout(r, 200)));
    observer.disconnect();
    expect(seen).toBe(false);
  });
});

describe('company selection', () => {
  it('shows the modules of the selected company and updates them and the mounted remote live', async () => {
    renderPortal('/settings/personal');
    expect(await screen.findByTestId('mfe-settings')).toHaveTextContent('for Acme Corp');
    expect(await within(nav()).findByRole('link', { name: 'Requests' })).toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'Reports' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /Company: Acme Corp/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Globex Inc' }));

    expect(await screen.findByRole('button', { name: /Company: Globex Inc/ })).toBeInTheDocument();
    expect(await screen.findByTestId('mfe-settings')).toHaveTextContent('for Globex Inc');
    await waitFor(() => expect(within(nav()).queryByRole('link', { name: 'Requests' })).not.toBeInTheDocument());
    expect(within(nav()).getByRole('link', { name: 'Reports' })).toBeInTheDocument();
    // details first, then access permissions, for each chosen company
    expect(calls.details).toEqual(['acme', 'globex']);
    expect(calls.access).toEqual(['acme', 'globex']);
    expect(document.cookie).toContain('pe_company_id=globex');
    // the same remote instance re-rendered: no reload, no second load
    expect(loadedRemotes).toEqual(['mfe-settings']);
    expect(assign).not.toHaveBeenCalled();
  });

  it('unmounts a gated remote when the new company does not have its module', async () => {
    renderPortal('/requests');
    expect(await screen.findByTestId('mfe-requests')).toHaveTextContent('for Acme Corp');
    await userEvent.click(screen.getByRole('button', { name: /Company: Acme Corp/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Globex Inc' }));
    expect(await screen.findByText('You do not have access to Requests')).toBeInTheDocument();
    expect(screen.queryByTestId('mfe-requests')).not.toBeInTheDocument();
  });

  it('can be switched with the keyboard', async () => {
    const user = userEvent.setup();
    renderPortal('/settings/personal');
    const switcher = await screen.findByRole('button', { name: /Company: Acme Corp/ });
    act(() => switcher.focus());
    await user.keyboard('{Enter}');
    const globexItem = await screen.findByRole('menuitem', { name: 'Globex Inc' });
    // focus moves into the menu, onto the selected company
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Acme Corp' })).toHaveFocus());
    // Arrow keys move between items in a browser; jsdom has no layout, so antd finds no visible item to
    // move to: focus the next item directly. antd reads the legacy `which` of Enter, which user-event omits.
    act(() => globexItem.focus());
    fireEvent.keyDown(globexItem, { key: 'Enter', keyCode: 13, which: 13 });
    expect(await screen.findByRole('button', { name: /Company: Globex Inc/ })).toBeInTheDocument();
  });

  it('selects the remembered company while the user still belongs to it', async () => {
    document.cookie = 'pe_company_id=globex; Path=/';
    renderPortal('/no/such/page');
    expect(await screen.findByRole('button', { name: /Company: Globex Inc/ })).toBeInTheDocument();
    await waitFor(() => expect(calls.access).toEqual(['globex']));
    expect(calls.details).toEqual(['globex']);
  });

  it('falls back to the first company when the remembered one is no longer the user’s', async () => {
    document.cookie = 'pe_company_id=initech; Path=/';
    renderPortal('/no/such/page');
    expect(await screen.findByRole('button', { name: /Company: Acme Corp/ })).toBeInTheDocument();
  });

  it('runs the selection again when the selected company leaves the user’s list', async () => {
    document.cookie = 'pe_company_id=globex; Path=/';
    const { store } = renderPortal('/settings');
    expect(await screen.findByTestId('mfe-settings')).toHaveTextContent('for Globex Inc');

    server.use(
      http.get('*/api/v1/companies', () => HttpResponse.json({ results: [acme], total: 1, page: 1, pageSize: 1 })),
    );
    act(() => {
      store.dispatch(portalApi.util.invalidateTags(['Company']));
    });
    expect(await screen.findByRole('button', { name: /Company: Acme Corp/ })).toBeInTheDocument();
    expect(await screen.findByTestId('mfe-settings')).toHaveTextContent('for Acme Corp');
    await waitFor(() => expect(calls.access).toEqual(['globex', 'acme']));
  });

  it('shows the no-data-access banner when the user has no company', async () => {
    server.use(
      http.get('*/api/v1/companies', () => HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 50 })),
    );
    renderPortal('/no/such/page');
    expect(await screen.findByText('You have no data access')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Company:/ })).not.toBeInTheDocument();
  });

  it('shows a user without a company where to go instead of a spinner that never ends', async () => {
    server.use(
      http.get('*/api/v1/companies', () => HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 50 })),
    );
    renderPortal('/requests');
    expect(await screen.findByRole('heading', { level: 1, name: 'Nothing to show yet' })).toBeInTheDocument();
    expect(screen.getByText('You have no data access')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('mfe-requests')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open your personal settings' })).toHaveAttribute(
      'href',
      '/settings/personal',
    );
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

describe('per-browser choices, brand and sign-out', () => {
  it('remembers the theme (applied to antd) and the detailed view across visits', async () => {
    const first = renderPortal('/settings/personal');
    expect(await screen.findByTestId('mfe-settings')).toHaveAttribute('data-bg', '#ffffff');

    await userEvent.click(screen.getByRole('button', { name: 'Toggle theme' }));
    expect(screen.getByRole('button', { name: 'Toggle theme' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('mfe-settings')).toHaveAttribute('data-bg', '#141414');
    expect(window.localStorage.getItem('portal.theme')).toBe('dark');

    await userEvent.click(screen.getByRole('button', { name: /User menu/ }));
    const detailed = await screen.findByRole('menuitemcheckbox', { name: /Detailed view/ });
    expect(detailed).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(detailed);
    expect(first.store.getState().session.detailedView).toBe(true);
    expect(window.localStorage.getItem('detailed-view')).toBe('true');
    first.unmount();

    const second = renderPortal('/settings/personal');
    expect(await screen.findByTestId('mfe-settings')).toHaveAttribute('data-bg', '#141414');
    expect(screen.getByRole('button', { name: 'Toggle theme' })).toHaveAttribute('aria-pressed', 'true');
    expect(second.store.getState().session.detailedView).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: /User menu/ }));
    expect(await screen.findByRole('menuitemcheckbox', { name: /Detailed view/ })).toHaveAttribute(
      'aria-checked',
      'true',
    );
  });

  it('shows the brand from /portal-config in the header and the page title, Tevora until it loads', async () => {
    let releaseConfig!: () => void;
    const configGate = new Promise<void>((resolve) => (releaseConfig = resolve));
    server.use(
      http.get('*/api/v1/portal-config', async () => {
        await configGate;
        return HttpResponse.json(
          { brandName: 'Contoso Assurance', apiVersion: '2.1.0', uiVersion: '5.0.0', remotes: PORTAL_REMOTES },
          { headers: { 'x-api-version': '2.1.0', 'x-ui-version': '5.0.0' } },
        );
      }),
    );
    const { store } = renderPortal('/settings/personal');
    expect(await screen.findByText('Tevora Portal')).toBeInTheDocument();
    expect(document.title).toBe('Tevora Portal');

    releaseConfig();
    expect(await screen.findByText('Contoso Assurance Portal')).toBeInTheDocument();
    expect(document.title).toBe('Contoso Assurance Portal');
    expect(store.getState().session).toMatchObject({
      brand: 'Contoso Assurance',
      apiVersion: '2.1.0',
      uiVersion: '5.0.0',
      lastKnownUiVersion: '5.0.0',
    });
  });

  it('narrows the sider to its icons below the lg breakpoint, keeping each name, and widens it again with the window', async () => {
    const listeners = new Set<() => void>();
    let narrow = true;
    jest.spyOn(window, 'matchMedia').mockImplementation(
      (media) =>
        ({
          get matches() {
            return media === '(max-width: 991.98px)' && narrow;
          },
          media,
          addEventListener: (_: string, listener: () => void) => listeners.add(listener),
          removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
        }) as unknown as MediaQueryList,
    );
    renderPortal('/settings/personal');
    const projects = await within(await screen.findByRole('navigation', { name: 'Main' })).findByRole('link', {
      name: 'Projects',
    });
    expect(projects).toHaveAttribute('title', 'Projects');
    expect(projects.closest('aside')).toHaveStyle({ width: '56px' });
    expect(screen.getByText('T')).toHaveAttribute('aria-hidden', 'true');

    narrow = false;
    act(() => listeners.forEach((listener) => listener()));
    expect(within(nav()).getByRole('link', { name: 'Projects' })).not.toHaveAttribute('title');
    expect(projects.closest('aside')).toHaveStyle({ width: '220px' });
    expect(screen.queryByText('T')).not.toBeInTheDocument();
  });

  it('keeps the versions the api announces in its headers', async () => {
    server.use(
      http.get('*/api/v1/users/profile/me', () =>
        HttpResponse.json(user, { headers: { 'x-api-version': '9.9.9', 'x-ui-version': '8.8.8' } }),
      ),
    );
    const { store } = renderPortal('/settings/personal');
    await screen.findByTestId('mfe-settings');
    expect(store.getState().session).toMatchObject({ apiVersion: '9.9.9', uiVersion: '8.8.8' });
  });

  it('signs out: clears the user, the logged-in flag and session storage, then posts to the sign-out address', async () => {
    const { store } = renderPortal('/settings/personal');
    await screen.findByTestId('mfe-settings');
    window.sessionStorage.setItem('draft', 'x');

    await userEvent.click(screen.getByRole('button', { name: /User menu/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Sign out/ }));

    expect(post).toHaveBeenCalledWith('/auth/saml/logout');
    expect(assign).not.toHaveBeenCalled();
    expect(window.sessionStorage.length).toBe(0);
    expect(store.getState().session).toMatchObject({
      user: null,
      loggedIn: false,
      companies: [],
      selectedCompanyId: null,
    });
    expect(portalApi.endpoints.usersMe.select()(store.getState()).data).toBeUndefined();
  });
});
