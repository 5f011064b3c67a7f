/**
 * The logic both task tracker imports of the web share (Settings' "Import template" / "Replace from
 * file", Projects' "Import tasks"): the file check before sending, the report of a refusal, the
 * template download links and the upload's phases. The components are @portal/shared/ui/task-tracker-import.
 * Loaded with those dialogs only, never on the first page.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  ERROR_MESSAGES,
  isMappedErrorCode,
  MALFORMED_TASK_TRACKER,
  MALFORMED_TASK_TRACKER_CODE,
} from '@portal/shared/core/errors';
import { formatBytes } from '@portal/shared/core/files';
import { TASK_TRACKER_MAX_BYTES, taskTrackerFileProblem, type TaskTrackerFormat } from '@portal/shared/core/practices';
import { API_BASE, portalApi } from '@portal/shared/web/api';
import { UploadError, type UploadOptions } from '@portal/shared/web/upload';

/** Why `file` cannot be imported (the api's words for a wrong name), or null. The api checks again, and the content. */
export function trackerFileProblem(file: { name: string; size: number }): string | null {
  const code = taskTrackerFileProblem(file.name);
  if (code) return ERROR_MESSAGES[code];
  if (file.size === 0) return `${file.name} is empty: there is nothing to import.`;
  if (file.size > TASK_TRACKER_MAX_BYTES)
    return `${file.name} is larger than ${formatBytes(TASK_TRACKER_MAX_BYTES)}, the most a task tracker file may be.`;
  return null;
}

/** The downloadable file with the expected columns and two example rows (a plain GET: a link downloads it). */
export function fileTemplateUrl(format: TaskTrackerFormat): string {
  return `${API_BASE}/task-trackers/file-template?format=${format}`;
}

/** Row problems listed at once; the rest are counted ("and N more"). */
export const SHOWN_PROBLEMS = 10;

export interface ProblemReport {
  /** The headline. */
  title: string;
  /** The rows or tasks the server named, at most SHOWN_PROBLEMS. */
  problems: string[];
  /** How many more the server named. */
  more: number;
}

/**
 * What a refused import or apply tells the user (the error catalogue, core/errors.ts): for a malformed file the server's
 * message (it names the first problem), else "Malformed Task Tracker File"; the catalogue's text for a
 * known code; otherwise the server's message, else `fallback`. The details follow (up to
 * SHOWN_PROBLEMS), without repeating the headline.
 */
export function problemReport(
  { code, message, details = [] }: { code?: unknown; message?: unknown; details?: readonly { message: string }[] },
  fallback: string,
): ProblemReport {
  const text = typeof message === 'string' ? message : '';
  const title =
    code === MALFORMED_TASK_TRACKER_CODE
      ? text || MALFORMED_TASK_TRACKER
      : isMappedErrorCode(code)
        ? ERROR_MESSAGES[code]
        : text || fallback;
  const all = details.map((d) => d.message).filter((m) => typeof m === 'string' && m !== '');
  const listed = all[0] === title ? all.slice(1) : all;
  return { title, problems: listed.slice(0, SHOWN_PROBLEMS), more: Math.max(0, listed.length - SHOWN_PROBLEMS) };
}

/**
 * The report of a failed upload (uploadForm's UploadError, whose `message` puts the first detail
 * first): the headline is read from the server's own message; a reply without one (a bare 429, a lost
 * connection) keeps the upload's text. Details on `skipFields` (the form's own fields) are left out.
 */
export function uploadProblemReport(
  error: unknown,
  fallback: string,
  skipFields: readonly string[] = [],
): ProblemReport {
  if (!(error instanceof UploadError)) return { title: fallback, problems: [], more: 0 };
  const details = error.details.filter((d) => !skipFields.includes(d.field));
  const message =
    error.serverMessage ?? (error.code === MALFORMED_TASK_TRACKER_CODE || error.details.length ? '' : error.message);
  return problemReport({ code: error.code, message, details }, fallback);
}

/** The report of a failed RTK Query call (`{ status, data: { code, message, details } }`). */
export function apiProblemReport(error: unknown, fallback: string): ProblemReport {
  const e = error as { status?: unknown; data?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
  if (e?.status === 'FETCH_ERROR') return { title: 'The connection was lost. Try again.', problems: [], more: 0 };
  const data = e?.data && typeof e.data === 'object' ? e.data : {};
  const details = Array.isArray(data.details) ? (data.details as { message: string }[]) : [];
  return problemReport({ code: data.code, message: data.message, details }, fallback);
}

type Tag = string | { type: string; id?: string | number };
interface CacheEntry {
  status?: string;
  requestId?: string;
}
interface StoreLike {
  dispatch: (action: never) => unknown;
  getState: () => unknown;
  subscribe: (listener: () => void) => () => void;
}

/**
 * Invalidates `tags` and resolves once every query they made stale has been fetched again (or was
 * dropped, or failed), at most `timeoutMs` later: for "the list is back" after an import the dialog
 * stopped waiting for.
 */
export function invalidateAndWait(store: StoreLike, tags: readonly Tag[], timeoutMs = 15_000): Promise<void> {
  const api = portalApi as unknown as {
    reducerPath: string;
    util: {
      selectInvalidatedBy: (state: unknown, tags: readonly Tag[]) => { queryCacheKey: string }[];
      invalidateTags: (tags: readonly Tag[]) => never;
    };
  };
  const queries = () =>
    (store.getState() as Record<string, { queries?: Record<string, CacheEntry | undefined> } | undefined>)[
      api.reducerPath
    ]?.queries ?? {};
  const before = new Map(
    api.util
      .selectInvalidatedBy(store.getState(), tags)
      .map(({ queryCacheKey }) => [queryCacheKey, queries()[queryCacheKey]?.requestId]),
  );
  store.dispatch(api.util.invalidateTags(tags));
  const back = () => {
    const now = queries();
    return [...before].every(([key, requestId]) => {
      const entry = now[key];
      return !entry || (entry.requestId !== requestId && entry.status !== 'pending');
    });
  };
  return new Promise<void>((resolve) => {
    if (back()) {
      resolve();
      return;
    }
    const finish = () => {
      unsubscribe();
      clearTimeout(timer);
      resolve();
    };
    const unsubscribe = store.subscribe(() => {
      if (back()) finish();
    });
    const timer = setTimeout(finish, timeoutMs);
  });
}

/**
 * The upload's phases: `uploading` with its percent, `importing` once the server has the whole file
 * ("Importing rows…"), `refreshing` after the user stopped waiting for an import that may still
 * finish (the list is read again before another import is allowed), else `idle`.
 */
export type UploadPhase =
  { step: 'idle' } | { step: 'uploading'; percent: number } | { step: 'importing' } | { step: 'refreshing' };

export type UploadOutcome<T> =
  { ok: true; value: T } | { ok: false; canceled: true } | { ok: false; canceled: false; error: unknown };

export const IMPORT_CANCELED = 'The import was canceled. Nothing was imported.';
export const STOPPED_WAITING =
  'Stopped waiting. The file had been sent, so the import may still finish: check the list before importing again.';

export interface UploadPhaseState {
  phase: UploadPhase;
  /** The file is being sent or the server is importing it: the dialog must not close silently. */
  sending: boolean;
  /** Anything under way, including re-reading the list: no new import. */
  busy: boolean;
  /** What a cancel did (IMPORT_CANCELED or STOPPED_WAITING), until the next send or `clearNotice`. */
  notice: string | null;
  clearNotice: () => void;
  /**
   * Sends with `send` (given the signal and the progress callback to pass to uploadForm). A second
   * call while one is under way is refused (as canceled). After a cancel once the file was sent,
   * `refresh` runs (and is awaited) before the outcome.
   */
  run: <T>(
    send: (options: Required<Pick<UploadOptions, 'signal' | 'onProgress'>>) => Promise<T>,
  ) => Promise<UploadOutcome<T>>;
  /** Cancel while uploading (nothing is imported), stop waiting while importing. */
  cancel: () => void;
}

export function useUploadPhase({ refresh }: { refresh: () => unknown }): UploadPhaseState {
  const [phase, setPhase] = useState<UploadPhase>({ step: 'idle' });
  const [notice, setNotice] = useState<string | null>(null);
  const current = useRef<{ controller: AbortController; sent: boolean } | null>(null);
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  // leaving (the dialog unmounts) stops the upload
  useEffect(() => () => current.current?.controller.abort(), []);

  const run = useCallback(
    async <T>(
      send: (options: Required<Pick<UploadOptions, 'signal' | 'onProgress'>>) => Promise<T>,
    ): Promise<UploadOutcome<T>> => {
      if (current.current) return { ok: false, canceled: true };
      const sending = { controller: new AbortController(), sent: false };
      current.current = sending;
      setNotice(null);
      setPhase({ step: 'uploading', percent: 0 });
      try {
        const value = await send({
          signal: sending.controller.signal,
          onProgress: (done, total) => {
            if (total > 0 && done >= total) {
              sending.sent = true;
              setPhase({ step: 'importing' });
            } else {
              setPhase({ step: 'uploading', percent: total > 0 ? Math.min(99, Math.floor((done / total) * 100)) : 0 });
            }
          },
        });
        return { ok: true, value };
      } catch (error) {
        if (!(error instanceof DOMException && error.name === 'AbortError'))
          return { ok: false, canceled: false, error };
        if (sending.sent) {
          // the server had the whole file: it may finish the import all the same
          setNotice(STOPPED_WAITING);
          setPhase({ step: 'refreshing' });
          try {
            await refreshRef.current();
          } catch {
            // the list says what it can; the dialog is usable again either way
          }
        } else {
          setNotice(IMPORT_CANCELED);
        }
        return { ok: false, canceled: true };
      } finally {
        current.current = null;
        setPhase({ step: 'idle' });
      }
    },
    [],
  );

  const cancel = useCallback(() => current.current?.controller.abort(), []);
  const clearNotice = useCallback(() => setNotice(null), []);
  const sending = phase.step === 'uploading' || phase.step === 'importing';
  return { phase, sending, busy: phase.step !== 'idle', notice, clearNotice, run, cancel };
}
