import { act, render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { OpenFeature } from '@openfeature/web-sdk';
import type { FeatureFlagsPayload } from '@portal/shared/core/feature-flags';
import type { User } from '@portal/shared/core/schemas';
import { useFeatureFlag } from '@portal/shared/web/flags';
import { MemoryRouter } from '@portal/shared/web/router';
import { initialSessionState, sessionActions } from '@portal/shared/web/session';
import { Provider } from '@portal/shared/web/store';
import { markFirstContentShown } from '../../app/first-content';
import { PortalFrame } from '../../app/layout';
import { createPortalStore, type PortalStore } from '../../store/store';
import { FakeEventSource } from './fake-event-source';

const user: User = {
  id: 'u-member',
  firstName: 'Marcus',
  lastName: 'Bell',
  title: null,
  email: 'member@acme.test',
  login: 'member@acme.test',
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
const flags = (helpLink: boolean, version: string): FeatureFlagsPayload => ({
  flags: {
    'notifications-bell': { value: true, reason: 'STATIC' },
    'header-help-link': { value: helpLink, reason: 'STATIC' },
    'help-url': { value: 'https://help.example/portal', reason: 'STATIC' },
  },
  version,
});

let flagsReply: () => Response = () => HttpResponse.json(flags(false, '1'));
const flagRequests: Request[] = [];
const server = setupServer(
  http.get('*/api/v1/feature-flags', ({ request }) => {
    flagRequests.push(request);
    return flagsReply();
  }),
  // the frame's other pieces may ask for their own data: not this test's concern
  http.all('*/api/v1/*', () => HttpResponse.json({ code: 'not_found', message: 'n/a' }, { status: 404 })),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // the flag client starts once the page's content is shown (no remote is mounted here)
  markFirstContentShown();
});
beforeEach(() => {
  FakeEventSource.reset();
  flagRequests.length = 0;
  flagsReply = () => HttpResponse.json(flags(false, '1'));
  Object.assign(globalThis, { EventSource: FakeEventSource });
});
afterEach(async () => {
  server.resetHandlers();
  delete (globalThis as { EventSource?: unknown }).EventSource;
  jest.restoreAllMocks();
  await OpenFeature.clearProviders();
});
afterAll(() => server.close());

function signedInStore(): PortalStore {
  return createPortalStore({ session: { ...initialSessionState, user, loggedIn: true } });
}

function renderFrame(store: PortalStore, extra?: ReactNode) {
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/']}>
        <PortalFrame noCompanies={false}>
          <p>Page content</p>
          {extra}
        </PortalFrame>
      </MemoryRouter>
    </Provider>,
  );
}

const FLAGS_STREAM = '/api/v1/feature-flags/stream';
/** The flags' stream (the frame's bell opens the notifications' stream too). */
const stream = async () => {
  const flagStreams = () => FakeEventSource.instances.filter((s) => s.url === FLAGS_STREAM);
  await waitFor(() => expect(flagStreams().length).toBeGreaterThan(0));
  return flagStreams()[flagStreams().length - 1];
};

describe('feature flags in the shell', () => {
  it('shows the header Help link when header-help-link turns on through a stream message, without a reload', async () => {
    const store = signedInStore();
    renderFrame(store);
    await waitFor(() => expect(store.getState()).toMatchObject({ featureFlags: { status: 'ready' } }));
    expect(screen.queryByRole('link', { name: 'Help' })).not.toBeInTheDocument();
    // fetched with the session cookie and the portal's client header
    expect(flagRequests[0].headers.get('x-portal-client')).toBe('web');
    expect(flagRequests[0].credentials).toBe('include');

    const source = await stream();
    act(() => {
      source.open();
      source.emit('flags', flags(true, '2'));
    });
    const help = await screen.findByRole('link', { name: 'Help' });
    expect(help).toHaveAttribute('href', 'https://help.example/portal');
    expect(screen.getByText('Page content')).toBeInTheDocument();

    act(() => source.emit('flags', flags(false, '3')));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Help' })).not.toBeInTheDocument());
  });

  it('logs a failed start to the console, shows no message, and keeps the portal working with defaults', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    flagsReply = () => HttpResponse.json({ code: 'internal_error', message: 'Internal server error' }, { status: 500 });
    function BellProbe() {
      return <span>bell {String(useFeatureFlag('notifications-bell', true))}</span>;
    }
    const store = signedInStore();
    renderFrame(store, <BellProbe />);

    await waitFor(() => expect(store.getState()).toMatchObject({ featureFlags: { status: 'failed' } }));
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining('Feature flags: the flag service did not start'),
      expect.any(Error),
    );
    expect(screen.getByText('Page content')).toBeInTheDocument();
    expect(screen.getByText('bell true')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Help' })).not.toBeInTheDocument();
    expect(screen.queryByText(/feature flag/i)).not.toBeInTheDocument();

    // the stream still connects: when the api answers again, the flags arrive and the client is ready
    const source = await stream();
    act(() => source.emit('flags', flags(true, '2')));
    await screen.findByRole('link', { name: 'Help' });
    expect(store.getState()).toMatchObject({ featureFlags: { status: 'ready' } });
  });

  it('stops the stream and forgets the values on logout', async () => {
    const store = signedInStore();
    renderFrame(store);
    await waitFor(() => expect(store.getState()).toMatchObject({ featureFlags: { status: 'ready' } }));
    const source = await stream();
    act(() => source.emit('flags', flags(true, '2')));
    await screen.findByRole('link', { name: 'Help' });

    act(() => {
      store.dispatch(sessionActions.loggedOut());
    });
    await waitFor(() => expect(source.closed).toBe(true));
    expect(store.getState()).toMatchObject({ featureFlags: { status: 'idle', values: {} } });
    expect(screen.queryByRole('link', { name: 'Help' })).not.toBeInTheDocument();
  });
});
