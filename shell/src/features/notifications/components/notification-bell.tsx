import { useRef, useState, type ComponentType, type ReactNode } from 'react';
import { moduleLoader, type ModuleLoader } from '@portal/shared/web/deferred';
import { BellOutlined } from '@portal/shared/ui';
import { FrameButton } from '@portal/shared/ui/components';
import { useFeatureFlag } from '@portal/shared/web/flags';
import { useLoadedAfterFirstContent } from '../../../app/after-first-content';
import { menusKit } from '../../../app/header-dropdown';
import type { LiveBellProps } from './live-bell';

/**
 * The bell's count, stream and dropdown: none of it is needed to show the first page, so it loads
 * once the page's first content is on screen (bench/bundle counts what loads before).
 */
/** The bell's icon, and the unread count over it when given: the stand-in and the live bell look alike. */
export function BellGlyph({ children }: { children?: ReactNode }) {
  return (
    <span style={{ position: 'relative', display: 'inline-flex' }}>
      <BellOutlined style={{ fontSize: 18 }} />
      {children}
    </span>
  );
}

type LiveBellLoader = ModuleLoader<ComponentType<LiveBellProps>>;
const liveBell: LiveBellLoader = moduleLoader(() => import('./live-bell').then((m) => m.default));

/**
 * The header's bell, unless the `notifications-bell` flag turns it off (then nothing is fetched), on
 * a given loader of the live bell (tests pass one of their own, fresh).
 */
export function notificationBell(loader: LiveBellLoader) {
  return function NotificationBell() {
    return useFeatureFlag('notifications-bell', true) ? <Bell loader={loader} /> : null;
  };
}

export const NotificationBell = notificationBell(liveBell);

/**
 * Until its code is there, a stand-in of the same look: pointing at or focusing it starts the load,
 * and a click opens the bell as soon as it is there. A stand-in with the focus hands it on.
 */
function Bell({ loader }: { loader: LiveBellLoader }) {
  const [openAtOnce, setOpenAtOnce] = useState(false);
  const [focusOnMount, setFocusOnMount] = useState(false);
  const standIn = useRef<HTMLButtonElement>(null);
  const [LiveBell, show] = useLoadedAfterFirstContent(loader, 'Notifications: the bell', {
    beforeShow: () => {
      if (standIn.current !== null && standIn.current === document.activeElement) setFocusOnMount(true);
    },
  });

  if (LiveBell) return <LiveBell openAtOnce={openAtOnce} focusOnMount={focusOnMount} />;
  const prefetch = () => void loader.load().catch(() => undefined);
  const openNow = () => {
    Promise.all([loader.load(), menusKit.load()]).then(
      ([loaded]) => {
        setOpenAtOnce(true);
        setFocusOnMount(true);
        show(loaded);
      },
      (error: unknown) => console.error('Notifications: the bell did not load; try again.', error),
    );
  };
  return (
    <FrameButton
      ref={standIn}
      variant="text"
      aria-label="Notifications"
      aria-haspopup="dialog"
      aria-expanded={false}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={openNow}
    >
      <BellGlyph />
    </FrameButton>
  );
}
