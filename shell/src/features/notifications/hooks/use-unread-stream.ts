import { useEffect } from 'react';
import { useDispatch, useStore } from '@portal/shared/web/store';
import { API_BASE } from '@portal/shared/web/api';
import { BELL_PAGE, notificationsApi, setUnreadCount } from '../api/notifications-api';
import { reconnectDelay } from '../model/reconnect';

export const NOTIFICATIONS_STREAM_URL = `${API_BASE}/notifications/stream`;

/**
 * The store's dispatch as the thunks of injected endpoints need it: their state type names the
 * endpoints of their own injection only, which the store's full state type does not match.
 */
type ThunkDispatch = (
  action: { type: string } | ((dispatch: never, getState: never, extra: never) => unknown),
) => unknown;

export function streamSupported(): boolean {
  return typeof EventSource !== 'undefined';
}

/**
 * Keeps the bell's unread count live from the server-sent events of the api (event `unread`).
 * Reconnects with backoff after any error, and closes when `enabled` turns false (sign-out) or on unmount.
 */
export function useUnreadStream(enabled: boolean): void {
  const dispatch = useDispatch() as unknown as ThunkDispatch;
  const store = useStore();

  useEffect(() => {
    if (!enabled || !streamSupported()) return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;
    let stopped = false;

    const onUnread = (event: MessageEvent<string>) => {
      // The server sends the count first thing: a stream that opens and fails at once still backs off.
      attempt = 0;
      let unreadCount: unknown;
      try {
        unreadCount = (JSON.parse(event.data) as { unreadCount?: unknown }).unreadCount;
      } catch {
        return;
      }
      if (typeof unreadCount !== 'number') return;
      const cached = notificationsApi.endpoints.notificationsList.select(BELL_PAGE)(store.getState() as never).data;
      if (cached?.unreadCount === unreadCount) return;
      dispatch(setUnreadCount(unreadCount));
      // The count changed elsewhere (a new notification, another tab): the list follows.
      dispatch(notificationsApi.util.invalidateTags(['Notification']));
    };

    const connect = () => {
      source = new EventSource(NOTIFICATIONS_STREAM_URL, { withCredentials: true });
      source.addEventListener('unread', onUnread as EventListener);
      // The browser's own retry has no backoff: close and reconnect on our schedule instead.
      source.addEventListener('error', () => {
        source?.close();
        source = null;
        if (!stopped) retry = setTimeout(connect, reconnectDelay(attempt++));
      });
    };
    connect();

    return () => {
      stopped = true;
      source?.close();
      if (retry) clearTimeout(retry);
    };
  }, [enabled, dispatch, store]);
}
