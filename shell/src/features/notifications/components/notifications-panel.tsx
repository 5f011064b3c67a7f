import { useEffect, useRef } from 'react';
import type { Notification } from '@portal/shared/core/schemas';
import { formatDateTime } from '@portal/shared/core/dates';
import { Spin, theme } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Empty, Typography } from '@portal/shared/ui/extra';
import { useNavigate } from '@portal/shared/web/router';
import {
  BELL_PAGE,
  useNotificationsListQuery,
  useNotificationsMarkAllReadMutation,
  useNotificationsMarkReadMutation,
} from '../api/notifications-api';

/** Only paths inside the portal are followed (the api stores no other links; this keeps it so). */
const isPortalPath = (link: string | null): link is string => !!link && /^\/(?![/\\])/.test(link);

function NotificationItem({ notification, onOpen }: { notification: Notification; onOpen: (n: Notification) => void }) {
  const { token } = theme.useToken();
  const unread = notification.readAt === null;
  return (
    <li>
      <Button
        type="text"
        block
        onClick={() => onOpen(notification)}
        style={{
          height: 'auto',
          padding: '8px 12px',
          display: 'flex',
          alignItems: 'flex-start',
          gap: 8,
          whiteSpace: 'normal',
          textAlign: 'left',
        }}
      >
        <span
          aria-hidden
          style={{
            flex: 'none',
            width: 8,
            height: 8,
            marginTop: 7,
            borderRadius: 4,
            background: unread ? token.colorPrimary : 'transparent',
          }}
        />
        <span style={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
          <span style={{ fontWeight: unread ? 600 : 400, color: token.colorText }}>
            {unread ? (
              <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clipPath: 'inset(50%)' }}>
                Unread:{' '}
              </span>
            ) : null}
            {notification.title}
          </span>
          {notification.body ? <span style={{ color: token.colorTextSecondary }}>{notification.body}</span> : null}
          <span style={{ color: token.colorTextTertiary, fontSize: token.fontSizeSM }}>
            {formatDateTime(notification.createdAt)}
          </span>
        </span>
      </Button>
    </li>
  );
}

/** The bell's dropdown: recent notifications, newest first; opening one marks it read. */
export default function NotificationsPanel({ onDone }: { onDone: () => void }) {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { data, isLoading, isError, refetch } = useNotificationsListQuery(BELL_PAGE);
  const [markRead] = useNotificationsMarkReadMutation();
  const [markAllRead, { isLoading: markingAll }] = useNotificationsMarkAllReadMutation();
  const dialog = useRef<HTMLDivElement>(null);

  // Keyboard users land in the panel they opened.
  useEffect(() => dialog.current?.focus(), []);

  const open = (n: Notification) => {
    if (n.readAt === null) void markRead(n.id);
    if (isPortalPath(n.link)) {
      onDone();
      navigate(n.link);
    }
  };

  let content;
  if (data && data.results.length > 0) {
    content = (
      <ul
        style={{ listStyle: 'none', margin: 0, padding: 4, maxHeight: 400, overflowY: 'auto' }}
        aria-label="Recent notifications"
      >
        {data.results.map((n) => (
          <NotificationItem key={n.id} notification={n} onOpen={open} />
        ))}
      </ul>
    );
  } else if (data) {
    content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No notifications" style={{ padding: 16 }} />;
  } else if (isError) {
    content = (
      <div role="alert" style={{ padding: 16, textAlign: 'center' }}>
        <Typography.Paragraph>Notifications could not be loaded.</Typography.Paragraph>
        <Button onClick={() => void refetch()}>Try again</Button>
      </div>
    );
  } else {
    content = (
      <div role="status" aria-label="Loading notifications" style={{ padding: 24, textAlign: 'center' }}>
        <Spin spinning={isLoading || !data} />
      </div>
    );
  }

  return (
    <div
      ref={dialog}
      role="dialog"
      aria-label="Notifications"
      tabIndex={-1}
      style={{
        width: 360,
        background: token.colorBgElevated,
        borderRadius: token.borderRadiusLG,
        boxShadow: token.boxShadowSecondary,
        outline: 'none',
      }}
    >
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          padding: '8px 12px',
          borderBottom: `1px solid ${token.colorSplit}`,
        }}
      >
        <Typography.Text strong>Notifications</Typography.Text>
        <Button
          type="link"
          size="small"
          loading={markingAll}
          disabled={!data || data.unreadCount === 0}
          onClick={() => void markAllRead()}
        >
          Mark all read
        </Button>
      </div>
      {content}
    </div>
  );
}
