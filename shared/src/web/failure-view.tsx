/**
 * What a part that failed shows in its place: FailurePanel (ui/failure-panel.tsx, a chunk of this
 * module's own, not a shared module of its own: remotes use the shell's copy of this one), which
 * says how it failed and offers what helps. Its code stays off the first page: the shell loads it once
 * the first page is on screen (preloadFailurePanel); a failure before that, or with the network gone,
 * shows a plain stand-in that names the part, offers a reload and gives the reference.
 */
import { useEffect, useState } from 'react';
import { moduleLoader } from './deferred';

export interface FailureViewProps {
  /** The part, as a title starts with it: "Projects", "The Interviews tab". */
  what: string;
  /** What the part threw: how it failed is read from it (web/failures.ts). */
  error: unknown;
  /** failureReference(): written to the console with the error, shown to the user. */
  reference: string;
  /** A fresh attempt at the part (offered when it could not be fetched). */
  onRetry: () => void;
  /** What keeps working meanwhile: the rest of the portal, or of this page. */
  scope?: 'portal' | 'page';
}

/** A short reference for one failure, to quote to support: eight hexadecimal capitals. */
export function failureReference(): string {
  return globalThis.crypto.randomUUID().slice(0, 8).toUpperCase();
}

const panel = moduleLoader(() => import('../ui/failure-panel').then((m) => m.FailurePanel));

/** Loads FailurePanel's code (once; a failed load is tried again next time). */
export function preloadFailurePanel(): Promise<unknown> {
  return panel.load().catch(() => undefined);
}

export function FailureView(props: FailureViewProps) {
  const [Panel, setPanel] = useState(() => panel.peek()?.value);
  useEffect(() => {
    if (!Panel)
      void panel.load().then(
        (loaded) => setPanel(() => loaded),
        () => undefined,
      );
  }, [Panel]);
  if (Panel) return <Panel {...props} />;
  return (
    <div role="alert">
      <h2>{props.what} could not be shown</h2>
      <p>Reference: {props.reference}</p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}
