import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { Notification, User } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { moduleLoader } from '@portal/shared/web/deferred';
import { markFirstContentShown } from '../../../app/first-content';
import { notificationBell } from './notification-bell';

// The bell before its code is there (it loads once the page's first content is on screen). The tests
// run in order: the first content is marked shown in the second one, for the rest of the file.

const user = { id: 'u1', firstName: 'Ann', lastName: 'Lee' } as User;
const unread: Notification = {
  id: 'n1',
  companyId: null,
  title: 'Project activated',
  body: 'Project activated body',
  link: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  readAt: null,
};
let listCalls = 0;
const server = setupServer(
  http.get('*/api/v1/notifications', () => {
    listCalls += 1;
    return HttpResponse.json({ results: [unread], total: 1, page: 1, pageSize: 10, unreadCount: 1 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  listCalls = 0;
});
afterAll(() => server.close());

/** A bell whose code has not been loaded yet. */
const freshBell = () => notificationBell(moduleLoader(() => import('./live-bell').then((m) => m.default)));
const renderBell = () => {
  const Bell = freshBell();
  return renderWithProviders(<Bell />, { session: { user, loggedIn: true } });
};

describe('the notification bell before its code is there', () => {
  it('is a stand-in that fetches nothing; a click opens the bell as soon as it has loaded', async () => {
    renderBell();
    const standIn = screen.getByRole('button', { name: 'Notifications' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(listCalls).toBe(0);

    await userEvent.click(standIn);
    expect(await screen.findByRole('dialog', { name: 'Notifications' })).toBeInTheDocument();
    expect(await screen.findByText('Project activated')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Notifications, 1 unread' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('becomes the live bell once the first content is on screen, keeping the focus it had', async () => {
    renderBell();
    const standIn = screen.getByRole('button', { name: 'Notifications' });
    act(() => standIn.focus());

    markFirstContentShown();
    const live = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await waitFor(() => expect(live).toHaveFocus());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(listCalls).toBe(1);
  });
});
