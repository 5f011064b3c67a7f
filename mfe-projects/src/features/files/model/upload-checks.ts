/** What the browser can tell before sending a file (the api stays the authority: it checks again, and the content). */
import { fileDisplayName, formatBytes, UPLOAD_MAX_BYTES_DEFAULT } from '@portal/shared/core/files';

export function uploadProblem(file: { name: string; size: number }): string | null {
  if (file.size === 0) return 'The file is empty: there is nothing to upload.';
  if (file.size > UPLOAD_MAX_BYTES_DEFAULT)
    return `The file is larger than ${formatBytes(UPLOAD_MAX_BYTES_DEFAULT)}, the most a file may be.`;
  return null;
}

/** Two names the api counts as the same in one folder (it keeps the display name and compares without case). */
export function sameFileName(a: string, b: string): boolean {
  return fileDisplayName(a).toLocaleLowerCase() === fileDisplayName(b).toLocaleLowerCase();
}
