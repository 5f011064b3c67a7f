import { isRejectedWithValue, type Middleware } from '@portal/shared/web/store';
import type { FetchBaseQueryError, FetchBaseQueryMeta } from '@portal/shared/web/store';
import type { ApiErrorBody } from '@portal/shared/core/errors';
import { publishSessionEvent, publishToast } from '@portal/shared/web/events';

function statusOf(error: FetchBaseQueryError): number {
  if (typeof error.status === 'number') return error.status;
  if (error.status === 'PARSING_ERROR') return error.originalStatus;
  return 0;
}

/**
 * The one HTTP error path of the web: every failed api call becomes a toast through the error catalogue
 * (shared/src/core/errors.ts), unless the page shows the refusal beside a form's fields; a 401 sends the
 * user to sign-in instead; cancelled requests are ignored. The
 * catalogue loads with the first failure, not with the first page (bench/bundle's budget).
 */
export const errorToastMiddleware: Middleware = (store) => (next) => (action) => {
  if (isRejectedWithValue(action)) {
    const error = action.payload as FetchBaseQueryError;
    const meta = action.meta as { aborted?: boolean; baseQueryMeta?: FetchBaseQueryMeta };
    const status = statusOf(error);
    const cancelled = meta.aborted === true || (error.status === 'FETCH_ERROR' && /abort/i.test(String(error.error)));
    if (status === 401) publishSessionEvent({ type: 'unauthorized' });
    const body =
      'data' in error && error.data && typeof error.data === 'object' ? (error.data as Partial<ApiErrorBody>) : null;
    const input = {
      status,
      body,
      requestId: meta.baseQueryMeta?.response?.headers.get('x-request-id') ?? null,
      cancelled,
      brand: (store.getState() as { session?: { brand?: string } }).session?.brand,
    };
    if (!cancelled && status !== 401 && status !== 502) {
      // none when the page shows the refusal beside a form's fields (showOnForm in core/errors)
      void import('@portal/shared/core/errors').then((e) => e.publishErrorToast(error, input, publishToast));
    }
  }
  return next(action);
};
