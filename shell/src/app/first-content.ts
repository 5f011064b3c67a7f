/**
 * When the first page's own content is on screen: the first remote has rendered (or 3 s passed, for
 * pages without one). Work that only refines the page, like the feature-flag client, waits for it so
 * it never competes with the code the user is waiting for.
 */
const FALLBACK_MS = 3000;

let shown = false;
const waiting = new Set<() => void>();

/** Called by the remote mount once a remote's App has rendered. */
export function markFirstContentShown(): void {
  if (shown) return;
  shown = true;
  for (const fn of [...waiting]) fn();
  waiting.clear();
}

/**
 * Runs `fn` once the first content is shown, `settleMs` after it (default none) and when the browser
 * is idle. Returns a cancel function.
 */
export function afterFirstContent(fn: () => void, settleMs = 0): () => void {
  let idleId: number | null = null;
  let settle: number | undefined;
  let cancelled = false;
  const runWhenIdle = () => {
    if (cancelled) return;
    idleId = window.requestIdleCallback(() => !cancelled && fn(), { timeout: 2000 });
  };
  const onShown = () => {
    if (cancelled) return;
    waiting.delete(onShown);
    window.clearTimeout(timer);
    if (settleMs > 0) settle = window.setTimeout(runWhenIdle, settleMs);
    else runWhenIdle();
  };
  const timer = window.setTimeout(onShown, shown ? 0 : FALLBACK_MS);
  if (!shown) waiting.add(onShown);
  return () => {
    cancelled = true;
    waiting.delete(onShown);
    window.clearTimeout(timer);
    window.clearTimeout(settle);
    if (idleId !== null) window.cancelIdleCallback(idleId);
  };
}
