import { useEffect, useState } from 'react';
import { Spin, theme } from '@portal/shared/ui';
import { useNavigationPending } from './portal-router';

/** Quick navigations (a cached user, a loaded page) end before this: they show no indicator at all. */
export const INDICATOR_DELAY_MS = 150;

/**
 * The full-screen route loading indicator: shown from the start of a route
 * change to its end, over the page the user is still on, once the change takes longer than 150 ms.
 */
export function RouteLoadingIndicator({ delayMs = INDICATOR_DELAY_MS }: { delayMs?: number }) {
  const pending = useNavigationPending();
  const [late, setLate] = useState(false);
  const { token } = theme.useToken();

  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setLate(true), delayMs);
    return () => {
      clearTimeout(timer);
      setLate(false);
    };
  }, [pending, delayMs]);

  if (!pending || !late) return null;
  return (
    <div
      role="status"
      aria-label="Loading page"
      aria-live="polite"
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: token.zIndexPopupBase + 100,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      <div style={{ position: 'absolute', inset: 0, background: token.colorBgLayout, opacity: 0.6 }} />
      <Spin size="large" />
    </div>
  );
}
