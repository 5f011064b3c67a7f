/**
 * Where uploaded spreadsheets are read: a pool of worker threads (piscina), so reading a large file
 * (a second or more of CPU) never holds up the event loop that answers every other request. The
 * worker (spreadsheet-worker.ts, entered through spreadsheet-worker-entry.cjs) runs the same readers
 * as this thread would, and hands back plain data: the content read, or the HttpError's fields, made
 * into an HttpError again here.
 *
 * The pool is created at the first file read and closed with the app (app.ts, onClose): an api that
 * imports nothing starts no thread.
 */
import os from 'node:os';
import path from 'node:path';
import Piscina from 'piscina';
import { HttpError, type ErrorDetail } from './http-error';
import { workSlots } from './slots';

/** What a worker reads: a file of one kind, by name and bytes. */
export type ParseTask =
  | { kind: 'taskTracker'; fileName: string; bytes: Uint8Array; externalParents: boolean }
  | { kind: 'request'; fileName: string; bytes: Uint8Array };

/** What a worker hands back: plain data only (structured clone), never class instances. */
export type ParseOutcome<T = unknown> =
  | { ok: true; content: T }
  | { ok: false; error: { statusCode: number; code: string; message: string; details?: ErrorDetail[] } };

/**
 * Parse worker threads: half the cores, at least one. Reading is CPU-bound, so more threads than cores
 * would only slow each other down; half leaves the other half to the event loop, the database driver
 * and the rest of the process.
 */
export const PARSE_THREADS = Math.max(1, Math.floor(os.availableParallelism() / 2));

/** Files parsed at once in this process, across every import route: one per thread, the others wait their turn. */
export const PARALLEL_PARSES = PARSE_THREADS;

/** Runs `work` once fewer than PARALLEL_PARSES others run; the others wait their turn, first come first served. */
export const withParseSlot = workSlots(PARALLEL_PARSES);

/**
 * Heap of one worker. The largest workbooks the limits let through (30 MB unpacked: 100,000 rows, or
 * a million cells in fewer rows) take exceljs well under this; a file that takes more is refused
 * rather than taking the server's memory.
 */
const WORKER_HEAP_GB = 1;

/** The worker's entry: plain CommonJS, so Node loads it however the api runs (tsx, jest, node). */
const WORKER_ENTRY = path.join(__dirname, 'spreadsheet-worker-entry.cjs');

let pool: Piscina | null = null;

function parsePool(): Piscina {
  pool ??= new Piscina({
    filename: WORKER_ENTRY,
    minThreads: PARSE_THREADS,
    maxThreads: PARSE_THREADS,
    // A worker stays once started (starting one loads tsx and exceljs: about a second); idle ones do not keep the process alive.
    idleTimeout: Infinity,
    // No flags of this process (tsx's loader, --inspect): the entry registers what the worker needs itself.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_GB * 1024 },
    // Tasks are few and long, and await streams: workers wait on their event loop, not in Atomics.wait.
    atomics: 'disabled',
  });
  return pool;
}

/**
 * Reads `task` in a parse worker, in a parse slot: resolves with the content, or throws the HttpError
 * the reader threw. A worker that runs out of memory is a 400 of the kind's code (`code`); any other
 * failure of a worker is thrown as it is (a 500).
 */
export async function parseInWorker<T>(task: ParseTask, code: string): Promise<T> {
  const outcome = await withParseSlot(async () => {
    try {
      return (await parsePool().run(task)) as ParseOutcome<T>;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new HttpError(
          400,
          code,
          `The file takes more than ${WORKER_HEAP_GB} GB of memory to read: split it into smaller files.`,
        );
      }
      throw error;
    }
  });
  if (outcome.ok) return outcome.content;
  const { statusCode, code: errorCode, message, details } = outcome.error;
  throw new HttpError(statusCode, errorCode, message, details);
}

/** Closes the pool, once the files being read are done (the app's onClose). The next read starts a new one. */
export async function closeParsePool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.close();
}
