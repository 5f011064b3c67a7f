/**
 * The portal's event buses (rxjs). The shell subscribes; remotes only publish.
 * One instance across the federation: @portal/shared is a shared singleton.
 */
import { Observable, Subject } from 'rxjs';

export type ToastSeverity = 'success' | 'info' | 'warn' | 'error';
export interface ToastMessage {
  severity: ToastSeverity;
  summary: string;
  detail?: string;
  /** milliseconds; default TOAST_LIFE_MS */
  life?: number;
}

export const TOAST_LIFE_MS = 5000;
export const TOAST_DUPLICATE_WINDOW_MS = 5000;

const toasts = new Subject<ToastMessage>();
export const toast$: Observable<ToastMessage> = toasts.asObservable();
export function publishToast(message: ToastMessage): void {
  toasts.next(message);
}

export type SessionEvent =
  { type: 'unauthorized' } | { type: 'companyChanged'; companyId: string | null } | { type: 'logout' };

const session = new Subject<SessionEvent>();
export const session$: Observable<SessionEvent> = session.asObservable();
export function publishSessionEvent(event: SessionEvent): void {
  session.next(event);
}

export function toastKey(t: ToastMessage): string {
  return `${t.severity}\u0000${t.summary}\u0000${t.detail ?? ''}`;
}

/**
 * Drops an item whose key was already let through less than `windowMs` ago: identical toasts
 * within the window show once. `now` is injectable for tests.
 */
export function suppressDuplicates<T>(
  windowMs: number,
  keyOf: (item: T) => string,
  now: () => number = () => Date.now(),
): (source: Observable<T>) => Observable<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const lastShown = new Map<string, number>();
      return source.subscribe({
        next(item) {
          const key = keyOf(item);
          const t = now();
          const last = lastShown.get(key);
          if (last !== undefined && t - last < windowMs) return;
          lastShown.set(key, t);
          for (const [k, at] of lastShown) if (t - at >= windowMs) lastShown.delete(k);
          subscriber.next(item);
        },
        error: (e) => subscriber.error(e),
        complete: () => subscriber.complete(),
      });
    });
}
