import { useEffect } from 'react';
import { notification } from '@portal/shared/ui/extra';
import { TOAST_LIFE_MS, type ToastMessage } from '@portal/shared/web/events';

/** Shows queued toasts in antd's notification group, themed by the surrounding ConfigProvider. */
export default function ToastView({ queue, onShown }: { queue: ToastMessage[]; onShown: (count: number) => void }) {
  const [api, contextHolder] = notification.useNotification({ placement: 'topRight', maxCount: 5 });
  useEffect(() => {
    if (!queue.length) return;
    for (const t of queue) {
      const kind = t.severity === 'warn' ? 'warning' : t.severity;
      api[kind]({ title: t.summary, description: t.detail, duration: (t.life ?? TOAST_LIFE_MS) / 1000 });
    }
    onShown(queue.length);
  }, [queue, api, onShown]);
  return contextHolder;
}
