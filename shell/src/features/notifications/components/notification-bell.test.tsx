import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { Notification, User } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { featureFlagsActions, featureFlagsSlice } from '@portal/shared/web/flags';
import { Provider } from '@portal/shared/web/store';
import { MemoryRouter, useLocation } from '@portal/shared/web/router';
import { sessionActions } from '@portal/shared/web/session';
import { createPortalStore, rootReducer } from '../../../store/store';
import { markFirstContentShown } from '../../../app/first-content';
import { NotificationBell } from './notification-bell';

/** A stand-in for the browser's EventSource (jsdom has none): tests push events into it. */
class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];
  closed = false;
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    super();
    FakeEventSource.instances.push(this);
  }
  close() {
    this.closed = true;
  }
  emitUnread(unreadCount: number) {
    this.dispatchEvent(new MessageEvent('unread', { data: JSON.stringify({ unreadCount }) }));
  }
  fail() {
    this.dispatchEvent(new Event('error'));
  }
}
const open = () => FakeEventSource.instances.filter((s) => !s.closed);

const user = { id: 'u1', firstName: 'Ann', lastName: 'Lee' } as User;
const item = (id: string, title: string, read = false): Notification => ({
  id,
  companyId: null,
  title,
  body: `${title} body`,
  link: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  readAt: read ? '2026-11-20T11:00:00.000Z' : null,
});

let notifications: Notification[] = [];
const calls: string[] = [];
const unreadCount = () => notifications.filter((n) => n.readAt === null).length;

const server = setupServer(
  http.get('*/api/v1/notifications', ({ request }) => {
    calls.push(`GET ${new URL(request.url).search}`);
    return HttpResponse.json({
      results: notifications,
      total: notifications.length,
      page: 1,
      pageSize: 10,
      unreadCount: unreadCount(),
    });
  }),
  http.post('*/api/v1/notifications/read-all', () => {
    calls.push('POST read-all');
    notifications = notifications.map((n) => ({ ...n, readAt: n.readAt ?? 'now' }));
    return HttpResponse.json({ unreadCount: 0 });
  }),
  http.post('*/api/v1/notifications/:id/read', ({ params }) => {
    calls.push(`POST read ${String(params.id)}`);
    notifications = notifications.map((n) => (n.id === params.id ? { ...n, readAt: 'now' } : n));
    return HttpResponse.json({ unreadCount: unreadCount() });
  }),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // the page's first content is on screen: the bell's code loads (notification-bell-stand-in.test covers before)
  markFirstContentShown();
});
beforeEach(() => {
  Object.assign(globalThis, { EventSource: FakeEventSource });
  notifications = [item('n1', 'Project activated'), item('n2', 'New request'), item('n3', 'Welcome', true)];
});
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
  FakeEventSource.instances = [];
  delete (globalThis as { EventSource?: unknown }).EventSource;
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const renderBell = () => renderWithProviders(<NotificationBell />, { session: { user, loggedIn: true } });
const bell = (unread: number) => screen.findByRole('button', { name: `Notifications, ${unread} unread` });

describe('the notification bell', () => {
  it('shows the unread count', async () => {
    renderBell();
    const button = await bell(2);
    expect(within(button).getByText('2')).toBeInTheDocument();
    expect(calls).toEqual(['GET ?page=1&pageSize=10']);
  });

  it('lists the recent notifications and marks all read', async () => {
    renderBell();
    await userEvent.click(await bell(2));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(await within(panel).findByText('Project activated')).toBeInTheDocument();
    expect(within(panel).getByText('New request body')).toBeInTheDocument();
    expect(within(panel).getAllByRole('listitem')).toHaveLength(3);
    await userEvent.click(within(panel).getByRole('button', { name: 'Mark all read' }));
    expect(await bell(0)).toBeInTheDocument();
    expect(calls).toContain('POST read-all');
    expect(within(panel).getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  });

  it('marks one read when it is clicked', async () => {
    renderBell();
    await userEvent.click(await bell(2));
    await userEvent.click(await screen.findByRole('button', { name: /Unread: Project activated/ }));
    expect(await bell(1)).toBeInTheDocument();
    expect(calls).toContain('POST read n1');
    expect(screen.getByRole('button', { name: /^Project activated/ })).toBeInTheDocument();
  });

  it('follows the link of a notification inside the portal and closes', async () => {
    notifications = [
      { ...item('n1', 'Request waiting'), link: '/requests/r-1' },
      { ...item('n2', 'Elsewhere'), link: 'javascript:alert(1)' },
    ];
    function Where() {
      return <output aria-label="path">{useLocation().pathname}</output>;
    }
    renderWithProviders(
      <>
        <NotificationBell />
        <Where />
      </>,
      { session: { user, loggedIn: true } },
    );
    await userEvent.click(await bell(2));
    await userEvent.click(await screen.findByRole('button', { name: /Elsewhere/ }));
    expect(screen.getByRole('status', { name: 'path' })).toHaveTextContent('/');
    await userEvent.click(screen.getByRole('button', { name: /Request waiting/ }));
    expect(screen.getByRole('status', { name: 'path' })).toHaveTextContent('/requests/r-1');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument());
    expect(calls).toEqual(expect.arrayContaining(['POST read n1', 'POST read n2']));
  });

  it('says so when there are no notifications', async () => {
    notifications = [];
    renderBell();
    await userEvent.click(await bell(0));
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  });

  it('shows a loading state, then an error with a retry when the list cannot be loaded', async () => {
    let fail = true;
    let release = () => undefined as void;
    const held = new Promise<void>((r) => (release = r));
    server.use(
      http.get('*/api/v1/notifications', async () => {
        await held;
        return fail
          ? HttpResponse.json({ code: 'internal_error', message: '', requestId: 'r' }, { status: 500 })
          : HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 10, unreadCount: 0 });
      }),
    );
    renderBell();
    await userEvent.click(await bell(0));
    expect(await screen.findByRole('status', { name: 'Loading notifications' })).toBeInTheDocument();
    release();
    expect(await screen.findByText('Notifications could not be loaded.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
  });

  it('updates the count live from the stream and refreshes the list when it changes', async () => {
    renderBell();
    await bell(2);
    expect(open()).toHaveLength(1);
    expect(open()[0].url).toBe('/api/v1/notifications/stream');
    notifications = [item('n0', 'Brand new'), ...notifications];
    act(() => open()[0].emitUnread(3));
    expect(await bell(3)).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.startsWith('GET'))).toHaveLength(2));
    // The same count again changes nothing.
    act(() => open()[0].emitUnread(3));
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.filter((c) => c.startsWith('GET'))).toHaveLength(2);
  });

  it('reconnects after an error, with a delay', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0);
    renderBell();
    await bell(2);
    const first = open()[0];
    act(() => first.fail());
    expect(first.closed).toBe(true);
    expect(open()).toHaveLength(0);
    await waitFor(() => expect(open()).toHaveLength(1), { timeout: 2000 });
    expect(FakeEventSource.instances).toHaveLength(2);
  });

  it('is not shown, and fetches nothing, while the notifications-bell flag is off', async () => {
    featureFlagsSlice.injectInto(rootReducer);
    const store = createPortalStore();
    store.dispatch(sessionActions.userLoaded(user));
    store.dispatch(featureFlagsActions.flagsReady({ 'notifications-bell': false }));
    render(
      <Provider store={store}>
        <MemoryRouter>
          <NotificationBell />
        </MemoryRouter>
      </Provider>,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: /Notifications/ })).not.toBeInTheDocument();
    expect(calls).toEqual([]);
    expect(FakeEventSource.instances).toEqual([]);
    act(() => {
      store.dispatch(featureFlagsActions.flagsChanged({ 'notifications-bell': true }));
    });
    expect(await bell(2)).toBeInTheDocument();
  });

  it('closes the stream on sign-out and on unmount', async () => {
    const { store, unmount } = renderBell();
    await bell(2);
    act(() => {
      store.dispatch(sessionActions.loggedOut());
    });
    expect(open()).toHaveLength(0);
    unmount();

    const again = renderBell();
    await bell(2);
    expect(open()).toHaveLength(1);
    again.unmount();
    expect(open()).toHaveLength(0);
  });
});
