import { API_BASE, CLIENT_HEADER, CLIENT_NAME } from '@portal/shared/web/api';
import { ERROR_MESSAGES, isMappedErrorCode } from '@portal/shared/core/errors';
import { publishSessionEvent } from '@portal/shared/web/events';

/**
 * The text to show for an api refusal (its error body, `data`): its first field's reason (the most
 * precise: "x.pdf is not a PDF"), else the catalogue's text for its code, else the api's message, else
 * `fallback`. The one rule the remotes' uploads, downloads and other calls read refusals with.
 */
export function apiErrorText(data: unknown, fallback: string): string {
  const body = (data ?? {}) as { code?: unknown; message?: unknown; details?: { message?: unknown }[] };
  const detail = Array.isArray(body.details) ? body.details[0]?.message : undefined;
  if (typeof detail === 'string' && detail) return detail;
  if (isMappedErrorCode(body.code)) return ERROR_MESSAGES[body.code];
  return typeof body.message === 'string' && body.message ? body.message : fallback;
}

/** A failed upload: the api's code and message (its first field error's when there is one, else the catalogue's text when the code is known), and field errors. */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly details: { field: string; message: string }[] = [],
    /** The api's own message (`message` may be a field's reason or the catalogue's text instead). */
    readonly serverMessage: string | null = null,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/**
 * The bytes of one file sent so far, from the progress of the request that carries it: the browser
 * counts the whole multipart body (boundaries, headers and text fields), which for a small file is
 * many times its size. Progress lists show the file's own bytes, so a 38-byte file never reads as
 * "457 B".
 */
export function fileBytesSent(loaded: number, total: number, fileSize: number): number {
  if (total <= 0) return 0;
  return Math.min(fileSize, Math.floor((loaded / total) * fileSize));
}

export interface UploadOptions {
  /** The verb: POST unless said (PUT replaces, e.g. a template's content). */
  method?: 'POST' | 'PUT' | 'PATCH';
  /** Bytes sent so far and the total, as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
  /** Aborting rejects with an AbortError (a DOMException), not an UploadError. */
  signal?: AbortSignal;
}

/**
 * Sends multipart form data to the api (POST unless `method` says) with upload progress (fetch has
 * none): credentials, the client header, and the api's error turned into an UploadError. `path` is
 * under /api/v1. Text fields must be appended to `form` before its files: the api reads them first.
 * Shared by the remotes that upload (moved here from mfe-projects/src/app/upload.ts).
 */
export function uploadForm<T>(
  path: string,
  form: FormData,
  { method = 'POST', onProgress, signal }: UploadOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was canceled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(method, `${API_BASE}${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader(CLIENT_HEADER, CLIENT_NAME);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded, event.total);
    };
    const canceled = () => {
      done();
      reject(new DOMException('The upload was canceled.', 'AbortError'));
    };
    // Settle at once: a browser fires `abort` only for a request already sent, and a canceled upload
    // must never wait on the network to say so.
    const onAbort = () => {
      xhr.abort();
      canceled();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.onabort = canceled;
    xhr.onerror = () => {
      done();
      reject(new UploadError(0, null, 'The upload failed: the connection was lost. Try again.'));
    };
    xhr.onload = () => {
      done();
      let body: unknown = null;
      try {
        body = xhr.responseText === '' ? null : JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as T);
        return;
      }
      // the session is gone: the shell sends the user to sign-in, as it does for the api's other calls
      if (xhr.status === 401) publishSessionEvent({ type: 'unauthorized' });
      const data = (body ?? {}) as { code?: string; message?: string; details?: { field: string; message: string }[] };
      const code = typeof data.code === 'string' ? data.code : null;
      const message = apiErrorText(
        data,
        xhr.status === 429
          ? 'Too Many Requests: Please wait a moment until you can send requests again.'
          : 'The upload failed. Try again.',
      );
      reject(
        new UploadError(
          xhr.status,
          code,
          message,
          data.details ?? [],
          typeof data.message === 'string' && data.message !== '' ? data.message : null,
        ),
      );
    };
    xhr.send(form);
  });
}
