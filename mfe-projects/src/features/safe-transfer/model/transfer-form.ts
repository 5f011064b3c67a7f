/** The "New transfer" form's rules that are not the api's schema: which files may go, and the multipart body. */
import { fileDisplayName, formatBytes, TRANSFER_MAX_FILES, UPLOAD_MAX_BYTES_DEFAULT } from '@portal/shared/core/files';

export interface TransferFormValues {
  recipientIds: string[];
  message?: string;
  expiresInDays: number;
  passphrase?: string;
}

/**
 * The files after adding `added` to `current`: empty files, files over the limit and files past
 * TRANSFER_MAX_FILES are turned away, each with a message that names it. The api checks again.
 */
export function addFiles(
  current: File[],
  added: File[],
  maxBytes = UPLOAD_MAX_BYTES_DEFAULT,
): { files: File[]; rejected: string[] } {
  const files = [...current];
  const rejected: string[] = [];
  for (const file of added) {
    const name = fileDisplayName(file.name);
    if (file.size === 0) rejected.push(`${name} is empty.`);
    else if (file.size > maxBytes) rejected.push(`${name} is larger than ${formatBytes(maxBytes)}.`);
    else if (files.length >= TRANSFER_MAX_FILES)
      rejected.push(`${name} was not added: a transfer takes at most ${TRANSFER_MAX_FILES} files.`);
    else if (files.some((f) => f.name === file.name && f.size === file.size && f.lastModified === file.lastModified))
      continue;
    else files.push(file);
  }
  return { files, rejected };
}

/** The multipart body of POST /companies/:id/transfers: the text fields first (the api reads them before the files). */
export function transferForm(values: TransferFormValues, files: File[]): FormData {
  const form = new FormData();
  for (const id of values.recipientIds) form.append('recipientIds', id);
  const message = values.message?.trim();
  if (message) form.append('message', message);
  form.append('expiresInDays', String(values.expiresInDays));
  if (values.passphrase) form.append('passphrase', values.passphrase);
  for (const file of files) form.append('files', file, file.name);
  return form;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** "Expires in 3 days", "Expires in 5 hours"… from now. */
export function expiryLabel(expiresAt: string, now = Date.now()): string {
  const left = Date.parse(expiresAt) - now;
  if (!(left > 0)) return 'Expired';
  if (left < HOUR) return 'Expires within the hour';
  if (left < DAY) {
    const hours = Math.floor(left / HOUR);
    return `Expires in ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  }
  // A transfer sent for 7 days a few minutes ago still reads "7 days".
  const days = Math.round(left / DAY);
  return `Expires in ${days} ${days === 1 ? 'day' : 'days'}`;
}
