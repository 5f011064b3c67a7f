/** What a refused apply or import tells the user: one line, then the rows or tasks it names. */
import { ERROR_MESSAGES, isMappedErrorCode, MALFORMED_TASK_TRACKER, MALFORMED_TASK_TRACKER_CODE } from '@portal/shared/core/errors';

/** Row problems listed at once; the rest are counted ("and N more"). */
export const SHOWN_PROBLEMS = 10;

export interface ProblemReport {
  title: string;
  problems: string[];
  /** Problems the server named beyond those listed. */
  more: number;
}

/**
 * The catalogue's text for a known code; for a malformed file the server's message (it names the first
 * problem), else "Malformed Task Tracker File"; otherwise the server's message or `fallback`. The
 * details follow (up to SHOWN_PROBLEMS), unless they only repeat the title.
 */
export function problemReport({ code, message, details = [] }: { code?: unknown; message?: unknown; details?: { message: string }[] }, fallback: string): ProblemReport {
  const text = typeof message === 'string' ? message : '';
  const title = code === MALFORMED_TASK_TRACKER_CODE ? text || MALFORMED_TASK_TRACKER : isMappedErrorCode(code) ? ERROR_MESSAGES[code] : text || fallback;
  const all = details.map((d) => d.message).filter((m) => typeof m === 'string' && m !== '');
  const listed = all.length === 1 && all[0] === title ? [] : all;
  return { title, problems: listed.slice(0, SHOWN_PROBLEMS), more: Math.max(0, listed.length - SHOWN_PROBLEMS) };
}

/** The report of a failed RTK Query call (`{ status, data: { code, message, details } }`). */
export function apiProblemReport(error: unknown, fallback: string): ProblemReport {
  const e = error as { status?: unknown; data?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
  if (e?.status === 'FETCH_ERROR') return { title: 'The connection was lost. Try again.', problems: [], more: 0 };
  const data = e?.data && typeof e.data === 'object' ? e.data : {};
  const details = Array.isArray(data.details) ? (data.details as { message: string }[]) : [];
  return problemReport({ code: data.code, message: data.message, details }, fallback);
}
