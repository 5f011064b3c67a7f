/**
 * What a part of the page that failed to load or to render says and offers, by how it failed:
 * - `stale`: a chunk of code is gone from the server (a newer release of that part replaced it while
 *   this tab was open). Retrying fetches the same missing file: the page must be reloaded.
 * - `unavailable`: the part could not be fetched (network, server down). Retrying may help.
 * - `broken`: its code threw while rendering (a bug, or code built for another portal contract).
 *   Retrying runs the same code: reloading is the one thing to offer, with a reference to quote.
 * Read by FailurePanel (ui/failure-panel.tsx), which loads off the first page.
 */
export type FailureKind = 'stale' | 'unavailable' | 'broken';

/** webpack's message for a chunk that did not load ("Loading chunk 123 failed.", "Loading CSS chunk …"). */
const CHUNK_FAILED = /\bLoading (?:CSS )?chunk \S+ failed\b/;

/** The error and its causes, outermost first (a few levels: causes are chained by wrappers). */
function chain(error: unknown): { name?: unknown; message?: unknown }[] {
  const out: { name?: unknown; message?: unknown }[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && out.length < 6) {
    out.push(current as { name?: unknown; message?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/** What a failure's panel says and offers (FailurePanel, and FailureView before the panel's code is there). */
export interface FailureText {
  title: string;
  body: string;
  /** The one action that can help: reload the page, or try the part again. */
  action: 'reload' | 'retry';
  /** Whether the panel shows the failure's reference (not for a newer release: nothing to report). */
  withReference: boolean;
}

/**
 * `what` names the part as a title starts with it ("Projects", "The Interviews tab"); `scope` is what
 * keeps working meanwhile, the rest of the portal or of the page (a part of a page: its new version is
 * the page's).
 */
export function failureText(kind: FailureKind, what: string, scope: 'portal' | 'page' = 'portal'): FailureText {
  if (kind === 'stale') {
    return {
      title: `A new version of ${scope === 'page' ? 'this page' : what} is available`,
      body: 'Reload to get it: you come back to this page.',
      action: 'reload',
      withReference: false,
    };
  }
  if (kind === 'unavailable') {
    return {
      title: `${what} is unavailable right now`,
      body: `This part of the ${scope} could not be loaded. The rest of the ${scope} keeps working; try again in a moment.`,
      action: 'retry',
      withReference: true,
    };
  }
  return {
    title: `${what} ran into a problem`,
    body: `Trying again will not fix it. Reload the page; if this happens again, tell your administrator the reference below. The rest of the ${scope} keeps working.`,
    action: 'reload',
    withReference: true,
  };
}

export function failureKind(error: unknown): FailureKind {
  const errors = chain(error);
  if (errors.some((e) => e.name === 'ChunkLoadError' || CHUNK_FAILED.test(String(e.message ?? '')))) return 'stale';
  if (errors.some((e) => e.name === 'RemoteUnavailableError')) return 'unavailable';
  return 'broken';
}

/**
 * A chunk that did not load is `stale` only when the server no longer has it (404): webpack reports a
 * dropped connection the same way. The chunk's address (webpack's `request`) is asked again: gone is
 * `stale`, anything else (there after all, or out of reach) is `unavailable`, which Retry may fix.
 */
export async function confirmFailureKind(error: unknown, kind: FailureKind): Promise<FailureKind> {
  if (kind !== 'stale') return kind;
  const request = chain(error)
    .map((e) => (e as { request?: unknown }).request)
    .find((r): r is string => typeof r === 'string');
  if (!request) return kind;
  try {
    const res = await fetch(request, { method: 'HEAD', cache: 'no-store' });
    return res.status === 404 || res.status === 410 ? 'stale' : 'unavailable';
  } catch {
    return 'unavailable';
  }
}
