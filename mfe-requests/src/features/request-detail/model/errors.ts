/** Reading the api's refusals on the detail page. */
import { apiErrorText } from '@portal/shared/web/upload';

/** The api's code of a failed RTK call, if any. */
export function errorCode(error: unknown): string | null {
  const code = (error as { data?: { code?: unknown } } | undefined)?.data?.code;
  return typeof code === 'string' ? code : null;
}

export function errorStatus(error: unknown): number | null {
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? status : null;
}

/** The text to show for a failed RTK call: the shared rule (its first field's reason, the catalogue's text, the api's message), else `fallback`. */
export function apiErrorMessage(error: unknown, fallback: string): string {
  return apiErrorText((error as { data?: unknown } | undefined)?.data, fallback);
}
