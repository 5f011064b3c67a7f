import { API_BASE, CLIENT_HEADER, CLIENT_NAME } from '@portal/shared/web/api';
import { TRANSFER_PASSPHRASE_HEADER, type SignedUrl } from '@portal/shared/core/files';
import { startDownload } from '@portal/shared/web/download';
import { UploadError } from './upload';

/**
 * Downloads a stored file the only way the api serves one: asks GET /files/:id/signed-url (access is
 * checked there), then lets the browser fetch the short-lived link as an attachment. Rejects with an
 * UploadError carrying the api's code and message (e.g. transfer_passphrase_incorrect).
 */
export async function downloadFile(fileId: string, options: { versionId?: string; passphrase?: string } = {}): Promise<SignedUrl> {
  const query = options.versionId ? `?versionId=${encodeURIComponent(options.versionId)}` : '';
  const headers: Record<string, string> = { [CLIENT_HEADER]: CLIENT_NAME, Accept: 'application/json' };
  if (options.passphrase) headers[TRANSFER_PASSPHRASE_HEADER] = options.passphrase;
  const res = await fetch(`${API_BASE}/files/${encodeURIComponent(fileId)}/signed-url${query}`, { credentials: 'include', headers });
  const body = (await res.json().catch(() => null)) as (SignedUrl & { code?: string; message?: string }) | null;
  if (!res.ok || !body) throw new UploadError(res.status, body?.code ?? null, body?.message ?? 'The download could not start. Try again.');
  startDownload(body);
  return body;
}
