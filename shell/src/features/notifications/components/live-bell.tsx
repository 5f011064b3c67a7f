import { useLayoutEffect, useRef, useState } from 'react';
import { deferred } from '@portal/shared/web/deferred';
import { useSelector } from '@portal/shared/web/store';
import { Spin, theme } from '@portal/shared/ui';
import { FrameButton } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { BELL_PAGE, useNotificationsListQuery } from '../api/notifications-api';
import { streamSupported, useUnreadStream } from '../hooks/use-unread-stream';
import { HeaderDropdown } from '../../../app/header-dropdown';
import { BellGlyph } from './notification-bell';

type Root = { session: SessionState };

// The list, its states and the extra UI kit load when the bell is first opened.
const NotificationsPanel = deferred(() => import('./notifications-panel'));

/** Without a live stream (old browsers), the count is polled instead. */
const FALLBACK_POLL_MS = 60_000;

function PanelLoading() {
  const { token } = theme.useToken();
  return (
    <div
      style={{
        width: 360,
        padding: 24,
        textAlign: 'center',
        background: token.colorBgElevated,
        borderRadius: token.borderRadiusLG,
        boxShadow: token.boxShadowSecondary,
      }}
    >
      <Spin aria-label="Loading notifications" />
    </div>
  );
}

/**
 * The count bubble on the bell: antd's Badge would add ~3.5 KB gzip to every first page for this one
 * use. Hidden from assistive technology: the button's label says the count.
 */
function UnreadCount({ count }: { count: number }) {
  const { token } = theme.useToken();
  return (
    <span
      aria-hidden="true"
      data-testid="unread-count"
      style={{
        position: 'absolute',
        top: -6,
        insetInlineEnd: -10,
        minWidth: 16,
        height: 16,
        padding: '0 4px',
        borderRadius: 8,
        background: token.colorError,
        color: token.colorTextLightSolid,
        fontSize: 11,
        lineHeight: '16px',
        textAlign: 'center',
        boxShadow: `0 0 0 1px ${token.colorBgContainer}`,
      }}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}

export interface LiveBellProps {
  /** Opened at once: the bell was clicked before its code was there. */
  openAtOnce?: boolean;
  /** Takes the focus when it appears: its stand-in had it. */
  focusOnMount?: boolean;
}

/**
 * The unread count, live, and the recent notifications on click. Loads once the first page is on
 * screen (notification-bell.tsx), with its api and its stream.
 */
export default function LiveBell({ openAtOnce = false, focusOnMount = false }: LiveBellProps) {
  const signedIn = useSelector((s: Root) => sessionSelectors.selectUser(s)) !== null;
  const live = streamSupported();
  const { data } = useNotificationsListQuery(BELL_PAGE, {
    skip: !signedIn,
    pollingInterval: live ? 0 : FALLBACK_POLL_MS,
  });
  useUnreadStream(signedIn);
  const [open, setOpen] = useState(openAtOnce);
  const unread = data?.unreadCount ?? 0;
  // the dropdown gives its trigger a ref of its own, so the button is found inside this wrapper
  const wrapper = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    if (focusOnMount) wrapper.current?.querySelector('button')?.focus();
  }, [focusOnMount]);

  return (
    <span ref={wrapper} style={{ display: 'contents' }}>
      <HeaderDropdown
        trigger={['click']}
        open={open}
        onOpenChange={setOpen}
        placement="bottomRight"
        autoFocus={openAtOnce}
        destroyOnHidden
        popupRender={() => <NotificationsPanel fallback={<PanelLoading />} onDone={() => setOpen(false)} />}
      >
        <FrameButton
          variant="text"
          aria-label={`Notifications, ${unread} unread`}
          aria-haspopup="dialog"
          aria-expanded={open}
          data-testid="notification-bell"
        >
          <BellGlyph>{unread > 0 ? <UnreadCount count={unread} /> : null}</BellGlyph>
        </FrameButton>
      </HeaderDropdown>
    </span>
  );
}
