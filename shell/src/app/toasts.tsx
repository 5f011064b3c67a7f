import { useEffect } from 'react';
import { App } from '@portal/shared/ui';
import { suppressDuplicates, TOAST_DUPLICATE_WINDOW_MS, TOAST_LIFE_MS, toast$, toastKey } from '@portal/shared/web/events';

/** Shows the toast bus in antd's notification group; identical toasts within 5 s show once. */
export function ToastHost() {
  const { notification } = App.useApp();
  useEffect(() => {
    const sub = toast$.pipe(suppressDuplicates(TOAST_DUPLICATE_WINDOW_MS, toastKey)).subscribe((t) => {
      const kind = t.severity === 'warn' ? 'warning' : t.severity;
      notification[kind]({
        title: t.summary,
        description: t.detail,
        duration: (t.life ?? TOAST_LIFE_MS) / 1000,
        placement: 'topRight',
      });
    });
    return () => sub.unsubscribe();
  }, [notification]);
  return null;
}
