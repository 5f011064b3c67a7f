/**
 * What a parse worker runs (spreadsheet-pool.ts): one file read by the reader of its kind, in this
 * thread. The answer is plain data, as a worker's answer must be: the content read (plain objects
 * already), or the fields of the HttpError the reader threw. Any other error is a bug: it is thrown,
 * and the pool passes it on.
 */
import { HttpError } from './http-error';
import { parseRequestFile } from '../modules/imports/request-file';
import type { ParseOutcome, ParseTask } from './spreadsheet-pool';
import { parseTaskTrackerFile } from '../modules/task-trackers/task-tracker-file';

export async function parseSpreadsheet(task: ParseTask): Promise<ParseOutcome> {
  // The bytes arrive as a Uint8Array (a Buffer loses its class on the way): the same memory, as a Buffer.
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  try {
    const content =
      task.kind === 'taskTracker'
        ? await parseTaskTrackerFile(task.fileName, bytes, { externalParents: task.externalParents })
        : await parseRequestFile(task.fileName, bytes);
    return { ok: true, content };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const { statusCode, code, message, details } = error;
    return { ok: false, error: { statusCode, code, message, ...(details ? { details } : {}) } };
  }
}
