import { ERROR_MESSAGES, isMappedErrorCode } from '@portal/shared/core/errors';

/** The api's message for a failed call: its catalogue text when the code is known. */
export function apiErrorMessage(error: unknown, fallback: string): string {
  const data = (error as { data?: { code?: unknown; message?: unknown } } | undefined)?.data;
  if (typeof data?.code === 'string' && isMappedErrorCode(data.code)) return ERROR_MESSAGES[data.code];
  return typeof data?.message === 'string' ? data.message : fallback;
}

/**
 * A refusal that names no field (a 409 or a 400 by code alone) as an error on `field`, so a FormModal
 * shows the api's reason under that field, inline, instead of only in the toast. With `always`, a
 * refusal that names another field goes on `field` too: the form has only that one (a move's "Move to",
 * while folder_already_exist names `name`).
 */
export function onField(error: unknown, field: string, { always = false }: { always?: boolean } = {}): unknown {
  const e = error as { status?: unknown; data?: { code?: unknown; details?: { message?: unknown }[] } } | undefined;
  if (typeof e?.status !== 'number' || e.status >= 500) return error;
  const details = e.data?.details ?? [];
  if (details.length && !always) return error;
  const detail = details[0]?.message;
  const message =
    e.data?.code === 'validation_failed' && typeof detail === 'string'
      ? detail
      : apiErrorMessage(error, typeof detail === 'string' ? detail : 'The change was refused.');
  return { ...e, data: { ...e.data, details: [{ field, message }] } };
}
