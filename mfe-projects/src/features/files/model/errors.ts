import { ERROR_MESSAGES, isMappedErrorCode } from '@portal/shared/core/errors';

/** The api's message for a failed call: its catalogue text when the code is known. */
export function apiErrorMessage(error: unknown, fallback: string): string {
  const data = (error as { data?: { code?: unknown; message?: unknown } } | undefined)?.data;
  if (typeof data?.code === 'string' && isMappedErrorCode(data.code)) return ERROR_MESSAGES[data.code];
  return typeof data?.message === 'string' ? data.message : fallback;
}

/**
 * A refusal that names no field (a 409 or a 400 by code alone) as an error on `field`, so a FormModal
 * shows the api's reason under that field, inline, instead of only in the toast.
 */
export function onField(error: unknown, field: string): unknown {
  const e = error as { status?: unknown; data?: { details?: unknown[] } } | undefined;
  if (typeof e?.status !== 'number' || e.status >= 500 || e.data?.details?.length) return error;
  return { ...e, data: { ...e.data, details: [{ field, message: apiErrorMessage(error, 'The change was refused.') }] } };
}
