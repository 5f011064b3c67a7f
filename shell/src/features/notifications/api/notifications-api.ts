import { portalApi } from '@portal/shared/web/api';
import type { NotificationList, UnreadCount } from '@portal/shared/core/schemas';

export interface NotificationsListArgs {
  page: number;
  pageSize: number;
}

/** What the bell shows: the most recent notifications and the unread count. */
export const BELL_PAGE: NotificationsListArgs = { page: 1, pageSize: 10 };

const api = portalApi.enhanceEndpoints({ addTagTypes: ['Notification'] });

export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    notificationsList: build.query<NotificationList, NotificationsListArgs>({
      query: (params) => ({ url: '/notifications', params }),
      providesTags: ['Notification'],
    }),
    notificationsMarkRead: build.mutation<UnreadCount, string>({
      query: (id) => ({ url: `/notifications/${encodeURIComponent(id)}/read`, method: 'POST' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const readAt = new Date().toISOString();
        const patch = dispatch(
          notificationsApi.util.updateQueryData('notificationsList', BELL_PAGE, (list) => {
            const item = list.results.find((n) => n.id === id);
            if (item && item.readAt === null) {
              item.readAt = readAt;
              list.unreadCount = Math.max(0, list.unreadCount - 1);
            }
          }),
        );
        try {
          const { data } = await queryFulfilled;
          dispatch(setUnreadCount(data.unreadCount));
        } catch {
          patch.undo();
        }
      },
    }),
    notificationsMarkAllRead: build.mutation<UnreadCount, void>({
      query: () => ({ url: '/notifications/read-all', method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const readAt = new Date().toISOString();
        const patch = dispatch(
          notificationsApi.util.updateQueryData('notificationsList', BELL_PAGE, (list) => {
            for (const n of list.results) n.readAt ??= readAt;
            list.unreadCount = 0;
          }),
        );
        try {
          const { data } = await queryFulfilled;
          dispatch(setUnreadCount(data.unreadCount));
        } catch {
          patch.undo();
        }
      },
    }),
  }),
});

/** The bell's count as the server last said it (a read call's reply or the live stream). */
export function setUnreadCount(unreadCount: number) {
  return notificationsApi.util.updateQueryData('notificationsList', BELL_PAGE, (list) => {
    list.unreadCount = unreadCount;
  });
}

export const { useNotificationsListQuery, useNotificationsMarkReadMutation, useNotificationsMarkAllReadMutation } =
  notificationsApi;
