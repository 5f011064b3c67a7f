import { useCallback, useEffect, useState } from 'react';
import { deferred } from '@portal/shared/web/deferred';
import {
  suppressDuplicates,
  TOAST_DUPLICATE_WINDOW_MS,
  toast$,
  toastKey,
  type ToastMessage,
} from '@portal/shared/web/events';

// The notification view comes with the extra UI kit: no first page pays for it until a toast is shown.
const ToastView = deferred(() => import('./toast-view'));

/**
 * Listens to the toast bus from the start; identical toasts within 5 s show once. Toasts that arrive
 * while the view is still loading wait in the queue and are shown when it is ready.
 */
export function ToastHost() {
  const [queue, setQueue] = useState<ToastMessage[]>([]);
  const [started, setStarted] = useState(false);
  useEffect(() => {
    const sub = toast$.pipe(suppressDuplicates(TOAST_DUPLICATE_WINDOW_MS, toastKey)).subscribe((t) => {
      setStarted(true);
      setQueue((q) => [...q, t]);
    });
    return () => sub.unsubscribe();
  }, []);
  const onShown = useCallback((n: number) => setQueue((q) => q.slice(n)), []);
  if (!started) return null;
  return <ToastView queue={queue} onShown={onShown} />;
}
