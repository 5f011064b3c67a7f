/**
 * What a part of the page that failed to load or to render says and offers, by how it failed:
 * - `stale`: a chunk of code is gone from the server (a newer release of that part replaced it while
 *   this tab was open). Retrying fetches the same missing file: the page must be reloaded.
 * - `unavailable`: the part could not be fetched (network, server down). Retrying may help.
 * - `broken`: its code threw while rendering (a bug, or code built for another portal contract).
 *   Retrying runs the same code: reloading is the one thing to offer, with a reference to quote.
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

export function failureKind(error: unknown): FailureKind {
  const errors = chain(error);
  if (errors.some((e) => e.name === 'ChunkLoadError' || CHUNK_FAILED.test(String(e.message ?? '')))) return 'stale';
  if (errors.some((e) => e.name === 'RemoteUnavailableError')) return 'unavailable';
  return 'broken';
}

/** A short reference for one failure, shown on its panel and written with it to the console: eight capitals and digits. */
export function failureReference(): string {
  const bytes = new Uint8Array(5);
  globalThis.crypto.getRandomValues(bytes);
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 8; i++) out += alphabet[Number((bits >> BigInt(5 * (7 - i))) & 31n)];
  return out;
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
