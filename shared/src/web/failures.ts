/**
 * What a part of the page that failed to load or to render says and offers, by how it failed:
 * - `stale`: a chunk of code is gone from the server (a newer release of that part replaced it while
 *   this tab was open). Retrying fetches the same missing file: the page must be reloaded.
 * - `unavailable`: the part could not be fetched (network, server down). Retrying may help.
 * - `mismatch`: the part was built against another version of the portal contract (@portal/shared,
 *   shared/CHANGELOG.md), and federation refused to run it with this portal's: the panel names both.
 * - `broken`: its code threw while rendering (a bug). Retrying runs the same code: reloading is the
 *   one thing to offer, with a reference to quote.
 * Read by FailurePanel (ui/failure-panel.tsx), which loads off the first page.
 */
export type FailureKind = 'stale' | 'unavailable' | 'mismatch' | 'broken';

/** webpack's message for a chunk that did not load ("Loading chunk 123 failed.", "Loading CSS chunk …"). */
const CHUNK_FAILED = /\bLoading (?:CSS )?chunk \S+ failed\b/;

/**
 * Federation's refusal of a contract module of a version outside the range a container was built
 * against (strictVersion, shared/federation/singletons.js): "Version 1.0.0 from shell of shared
 * singleton module @portal/shared/web/store does not satisfy the requirement of mfe_reports which
 * needs ^2.0.0)".
 */
const REFUSED =
  /Version (\S+) from \S+ of shared singleton module @portal\/shared\S* does not satisfy the requirement of (\S+) which needs ([^)\s]+)/;

export interface ContractMismatch {
  /** The contract version this portal provides. */
  provided: string;
  /** The range the part was built against. */
  needed: string;
  /** The part's own version, when federation has it (its manifest's build version). */
  partVersion: string | null;
}

/** The contract mismatch an error (or one of its causes) reports, else null. */
export function contractMismatch(error: unknown): ContractMismatch | null {
  for (const e of chain(error)) {
    const found = REFUSED.exec(String(e.message ?? ''));
    if (!found) continue;
    const [, provided, container, needed] = found;
    const modules = (globalThis as { __FEDERATION__?: { moduleInfo?: Record<string, { buildVersion?: unknown }> } })
      .__FEDERATION__?.moduleInfo;
    const info = Object.entries(modules ?? {}).find(([key]) => key.startsWith(`${container}:`))?.[1];
    return { provided, needed, partVersion: typeof info?.buildVersion === 'string' ? info.buildVersion : null };
  }
  return null;
}

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
export function failureText(
  kind: FailureKind,
  what: string,
  scope: 'portal' | 'page' = 'portal',
  error?: unknown,
): FailureText {
  const mismatch = kind === 'mismatch' ? contractMismatch(error) : null;
  if (mismatch) {
    return {
      title: `${what} cannot open in this version of the portal`,
      body: `${what}${mismatch.partVersion ? ` ${mismatch.partVersion}` : ''} needs portal contract ${mismatch.needed}; this portal provides ${mismatch.provided}. Reload the page: a newer portal may be out. If this stays, tell your administrator the reference below.`,
      action: 'reload',
      withReference: true,
    };
  }
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
  if (contractMismatch(error)) return 'mismatch';
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
