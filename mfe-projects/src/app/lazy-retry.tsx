/**
 * A part of a page that loads on first use, inside its own error boundary: when its chunk cannot be
 * loaded, the part says how (@portal/shared/web/failures): a newer release replaced it (reload), the
 * network dropped (Retry), or it broke (reload, with a reference); the rest of the remote keeps working. Each attempt loads afresh. Loaded without Suspense, so the part shows as
 * soon as its code is there (@portal/shared/web/deferred).
 */
import { Component, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { FailurePanel } from '@portal/shared/ui/failure-panel';
import { moduleLoader, useLoaded } from '@portal/shared/web/deferred';
import { confirmFailureKind, failureKind, failureReference, type FailureKind } from '@portal/shared/web/failures';

interface BoundaryProps {
  /** What the part shows, for the message: "The interviews could not be loaded." */
  what: string;
  onRetry: () => void;
  children: ReactNode;
}

class LazyBoundary extends Component<BoundaryProps, { failure: { kind: FailureKind; reference: string } | null }> {
  override state: { failure: { kind: FailureKind; reference: string } | null } = { failure: null };

  static getDerivedStateFromError(error: Error) {
    return { failure: { kind: failureKind(error), reference: failureReference() } };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    const { failure } = this.state;
    console.error(
      `[portal] the ${this.props.what} failed (reference ${failure?.reference ?? '-'})`,
      error,
      info.componentStack,
    );
    if (!failure) return;
    void confirmFailureKind(error, failure.kind).then((kind) => {
      if (kind !== failure.kind && this.state.failure === failure) this.setState({ failure: { ...failure, kind } });
    });
  }

  override render() {
    const { failure } = this.state;
    if (!failure) return this.props.children;
    return (
      <FailurePanel
        what={`the ${this.props.what}`}
        kind={failure.kind}
        reference={failure.reference}
        onRetry={this.props.onRetry}
        scope="page"
      />
    );
  }
}

/** One attempt: its own loader, so a failed load is tried again by the next attempt. */
function LazyPartBody<P extends object>({
  load,
  fallback,
  children,
}: {
  load: () => Promise<{ default: ComponentType<P> }>;
  fallback: ReactNode;
  children: (Loaded: ComponentType<P>) => ReactNode;
}) {
  const [loader] = useState(() => moduleLoader(() => load().then((m) => m.default)));
  const Loaded = useLoaded(loader);
  return <>{Loaded ? children(Loaded) : fallback}</>;
}

/**
 * Renders `children(Loaded)` once `load` resolves, `fallback` meanwhile, and a Retry when it fails.
 * `load` is read when an attempt starts (a new arrow each render is fine).
 */
export function LazyPart<P extends object>({
  load,
  what,
  fallback = null,
  children,
}: {
  load: () => Promise<{ default: ComponentType<P> }>;
  what: string;
  fallback?: ReactNode;
  children: (Loaded: ComponentType<P>) => ReactNode;
}) {
  const [attempt, setAttempt] = useState(0);
  return (
    <LazyBoundary key={attempt} what={what} onRetry={() => setAttempt((a) => a + 1)}>
      <LazyPartBody load={load} fallback={fallback}>
        {children}
      </LazyPartBody>
    </LazyBoundary>
  );
}
