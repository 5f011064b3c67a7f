/** What the browser can tell about a task tracker file before sending it (the api checks again, and the content). */
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import { formatBytes } from '@portal/shared/core/files';
import { TASK_TRACKER_MAX_BYTES, taskTrackerFileProblem } from '@portal/shared/core/practices';

/** Why `file` cannot be imported, in the api's words where it has some, or null. */
export function trackerFileProblem(file: { name: string; size: number }): string | null {
  const code = taskTrackerFileProblem(file.name);
  if (code) return ERROR_MESSAGES[code];
  if (file.size === 0) return 'The file is empty: there is nothing to import.';
  if (file.size > TASK_TRACKER_MAX_BYTES) return `The file is larger than ${formatBytes(TASK_TRACKER_MAX_BYTES)}, the most a task tracker file may be.`;
  return null;
}

/** "1 task", "12 tasks". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
