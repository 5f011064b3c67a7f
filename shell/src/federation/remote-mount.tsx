import { Component, Suspense, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { Spin } from '@portal/shared/ui';
import type { RemoteAppModule } from '@portal/shared/web/remote';
import { FailureView, failureReference, preloadFailurePanel } from '@portal/shared/web/deferred';
import { afterFirstContent, markFirstContentShown } from '../app/first-content';
import { RemoteUnavailableError } from './error-plugin';
import { loadRemoteApp } from './remotes';

interface BoundaryProps {
  remote: string;
  /** The remote as its menu entry names it ("Projects"). */
  title: string;
  onRetry: () => void;
  children: ReactNode;
}

interface Failure {
  error: Error;
  reference: string;
}

/**
 * The third failure layer (docs/adr/0006-federation-failure-layers.md): a remote that failed to load or
 * to render shows FailureView, which says how (@portal/shared/web/failures): a newer release (reload),
 * out of reach (Retry), or broken (reload, with the reference written to the console with the error).
 */
class RemoteErrorBoundary extends Component<BoundaryProps, { failure: Failure | null }> {
  override state: { failure: Failure | null } = { failure: null };

  static getDerivedStateFromError(error: Error) {
    return { failure: { error, reference: failureReference() } };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(
      `[portal] ${this.props.remote} failed (reference ${this.state.failure?.reference ?? '-'})`,
      error,
      info.componentStack,
    );
  }

  override render() {
    const { failure } = this.state;
    if (!failure) return this.props.children;
    return (
      <FailureView
        what={this.props.title}
        error={failure.error}
        reference={failure.reference}
        onRetry={() => {
          this.setState({ failure: null });
          this.props.onRetry();
        }}
      />
    );
  }
}

/** A User Timing mark (bench/web reads them), now or at `startTime`; absent in test environments without the API. */
const mark = (name: string, startTime?: number) =>
  globalThis.performance?.mark?.(name, startTime === undefined ? undefined : { startTime });

/**
 * Rendered beside the remote's App: its effect runs once the App has rendered (Suspense resolved).
 * `remote:<name>:mounted` then closes what `remote:<name>:requested` opened.
 */
function Committed({ remote }: { remote: string }) {
  useEffect(() => {
    mark(`remote:${remote}:mounted`);
    markFirstContentShown();
  }, [remote]);
  return null;
}

export type RemoteLoader = (remote: string, fresh: boolean) => Promise<RemoteAppModule>;

function Loading({ title }: { title: string }) {
  return (
    <div style={{ padding: 48, textAlign: 'center' }} role="status" aria-label={`Loading ${title}`}>
      <Spin size="large" />
    </div>
  );
}

/**
 * One attempt at loading and showing a remote's App. The load starts on the first render, as
 * React.lazy's would, but the App is shown with a state update rather than through Suspense: React
 * holds a Suspense boundary's content back until 300 ms after any boundary last showed a fallback,
 * which alone was most of a remote's mount time (see @portal/shared/web/deferred).
 */
function RemoteApp({
  remote,
  title,
  basePath,
  load,
  fresh,
}: {
  remote: string;
  title: string;
  basePath: string;
  load: RemoteLoader;
  fresh: boolean;
}) {
  const [attempt] = useState(() => {
    const requestedAt = globalThis.performance?.now?.() ?? 0;
    const loading = load(remote, fresh);
    loading.catch(() => undefined); // handled in the effect; never an unhandled rejection
    return { requestedAt, loading };
  });
  const [result, setResult] = useState<{ App: RemoteAppModule['default'] } | { error: unknown } | null>(null);
  useEffect(() => {
    mark(`remote:${remote}:requested`, attempt.requestedAt);
    let live = true;
    attempt.loading.then(
      // the loader checks that the remote provided an App (loadRemoteApp)
      (mod) => live && setResult({ App: mod.default }),
      (error: unknown) => live && setResult({ error }),
    );
    return () => {
      live = false;
    };
  }, [attempt, remote]);
  // a failed load is the remote out of reach (Retry), unless its cause says otherwise (a stale chunk)
  if (result && 'error' in result) {
    throw result.error instanceof RemoteUnavailableError
      ? result.error
      : new RemoteUnavailableError(remote, result.error);
  }
  if (!result) return <Loading title={title} />;
  const { App } = result;
  return (
    // the remote's own code may still suspend (its lazy parts)
    <Suspense fallback={<Loading title={title} />}>
      <App basePath={basePath} />
      <Committed remote={remote} />
    </Suspense>
  );
}

/** Mounts one remote's App inside its own error boundary; Retry makes a new attempt that loads afresh. */
export function RemoteMount({
  remote,
  title = remote,
  basePath,
  load = loadRemoteApp,
}: {
  remote: string;
  /** The remote as its menu entry names it ("Projects"), in its loading and failure messages. */
  title?: string;
  basePath: string;
  load?: RemoteLoader;
}) {
  const [attempt, setAttempt] = useState(0);
  // the failure panel's code, once the first page is on screen: there before a remote fails, off the first page
  useEffect(() => afterFirstContent(() => void preloadFailurePanel()), []);
  return (
    <RemoteErrorBoundary
      key={`${remote}:${attempt}`}
      remote={remote}
      title={title}
      onRetry={() => setAttempt((a) => a + 1)}
    >
      <RemoteApp remote={remote} title={title} basePath={basePath} load={load} fresh={attempt > 0} />
    </RemoteErrorBoundary>
  );
}
