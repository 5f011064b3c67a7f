/**
 * The browser side of a download: the api serves stored files only through a short-lived signed
 * link, and the browser fetches that link as an attachment. Loaded with the screens that download,
 * never on the shell's first page.
 */
import type { SignedUrl } from '@portal/shared/core/files';

/** Lets the browser fetch a signed link (GET /files/:id/signed-url's reply) as an attachment named `name`. */
export function startDownload(signed: { url: string; name: string }): void {
  const link = document.createElement('a');
  link.href = signed.url;
  link.download = signed.name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** What a signed-link download may name besides the file: one of its earlier versions, a protected transfer's passphrase. */
export interface SignedDownloadOptions {
  versionId?: string;
  passphrase?: string;
}

const DOWNLOAD_NOT_STARTED = 'The download could not start';
const CONNECTION_LOST = 'The connection was lost. Try again.';

/**
 * Downloads a stored file the only way the api serves one: asks GET /files/:id/signed-url (access is
 * checked there), then lets the browser fetch the short-lived link as an attachment. Resolves with the
 * signed link once the download started. Rejects with an UploadError carrying the api's code and the
 * text to show (apiErrorText: a field's reason, the catalogue's text, the api's message), status 0 when
 * the connection was lost; a 401 also sends the user to sign-in. For screens that act on a refusal (a
 * transfer's passphrase asked again); downloadSignedFile reports it instead.
 */
export async function startSignedDownload(
  fileId: string,
  { versionId, passphrase }: SignedDownloadOptions = {},
): Promise<SignedUrl> {
  const [
    { API_BASE, CLIENT_HEADER, CLIENT_NAME },
    { publishSessionEvent },
    { UploadError, apiErrorText },
    { TRANSFER_PASSPHRASE_HEADER },
  ] = await Promise.all([
    import('@portal/shared/web/api'),
    import('@portal/shared/web/events'),
    import('@portal/shared/web/upload'),
    import('@portal/shared/core/files'),
  ]);
  const query = versionId ? `?versionId=${encodeURIComponent(versionId)}` : '';
  const headers: Record<string, string> = { [CLIENT_HEADER]: CLIENT_NAME, Accept: 'application/json' };
  if (passphrase) headers[TRANSFER_PASSPHRASE_HEADER] = passphrase;
  let res: Response;
  try {
    res = await fetch(`${API_BASE}/files/${encodeURIComponent(fileId)}/signed-url${query}`, {
      credentials: 'include',
      headers,
    });
  } catch {
    throw new UploadError(0, null, CONNECTION_LOST);
  }
  const body = (await res.json().catch(() => null)) as (SignedUrl & { code?: unknown; message?: unknown }) | null;
  if (res.status === 401) publishSessionEvent({ type: 'unauthorized' });
  if (!res.ok || typeof body?.url !== 'string') {
    const code = typeof body?.code === 'string' ? body.code : null;
    throw new UploadError(
      res.status,
      code,
      apiErrorText(res.ok ? null : body, 'The download could not start. Try again.'),
    );
  }
  startDownload(body);
  return body;
}

/**
 * startSignedDownload that reports a refusal itself, as the api's other errors are: a toast "The
 * download could not start" with the reason (none for a 401: the user is sent to sign-in). Resolves
 * true when the download started, false otherwise; never rejects.
 */
export async function downloadSignedFile(fileId: string, options: SignedDownloadOptions = {}): Promise<boolean> {
  try {
    await startSignedDownload(fileId, options);
    return true;
  } catch (error) {
    const [{ publishToast }, { UploadError }] = await Promise.all([
      import('@portal/shared/web/events'),
      import('@portal/shared/web/upload'),
    ]);
    if (!(error instanceof UploadError && error.status === 401)) {
      publishToast({
        severity: 'error',
        summary: DOWNLOAD_NOT_STARTED,
        detail: error instanceof Error ? error.message : CONNECTION_LOST,
      });
    }
    return false;
  }
}

/** The file name a Content-Disposition header gives (RFC 6266: `filename*` first), without path parts; null when none. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*(?:[\w-]+)?'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      name = decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*("((?:\\.|[^"\\])*)"|[^;]+)/i.exec(header);
    if (plain) name = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1].trim();
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

/**
 * Downloads what a GET of the api answers (`path` under /api/v1, e.g. an export) as a file: fetched
 * with the session's cookies and the client header, then handed to the browser under the server's
 * file name (Content-Disposition), else `fallbackName`. A refusal is toasted like every api error (the
 * catalogue's text; a 401 sends the user to sign-in instead), so a failed download never passes
 * silently. Resolves true when the download started, false otherwise (also when `signal` aborted it).
 */
export async function downloadFromApi(
  path: string,
  fallbackName: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<boolean> {
  const [{ API_BASE, CLIENT_HEADER, CLIENT_NAME }, { publishSessionEvent, publishToast }] = await Promise.all([
    import('@portal/shared/web/api'),
    import('@portal/shared/web/events'),
  ]);
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, {
      credentials: 'include',
      headers: { [CLIENT_HEADER]: CLIENT_NAME },
      signal,
    });
  } catch (e) {
    if (!(e instanceof DOMException && e.name === 'AbortError')) {
      publishToast({ severity: 'error', summary: 'Download failed', detail: 'The connection was lost. Try again.' });
    }
    return false;
  }
  if (!res.ok) {
    if (res.status === 401) {
      publishSessionEvent({ type: 'unauthorized' });
      return false;
    }
    const body = (await res.json().catch(() => null)) as { code?: string; message?: string; requestId?: string } | null;
    const { toastForError } = await import('@portal/shared/core/errors');
    const toast = toastForError({ status: res.status, body, requestId: res.headers.get('x-request-id') });
    if (toast) publishToast(toast);
    return false;
  }
  let blob: Blob;
  try {
    blob = await res.blob();
  } catch (e) {
    if (!(e instanceof DOMException && e.name === 'AbortError')) {
      publishToast({ severity: 'error', summary: 'Download failed', detail: 'The connection was lost. Try again.' });
    }
    return false;
  }
  const url = URL.createObjectURL(blob);
  startDownload({ url, name: fileNameFromDisposition(res.headers.get('content-disposition')) ?? fallbackName });
  // the browser has taken the link: the blob can go once the click is handled
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return true;
}
