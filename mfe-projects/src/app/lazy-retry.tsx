/**
 * A part of a page that loads on first use, inside its own error boundary: when its chunk cannot be
 * loaded, the part says how (FailureView): a newer release replaced it (reload), the network dropped
 * (Retry), or it broke (reload, with a reference); the rest of the remote keeps working. Each attempt
 * loads afresh. Loaded without Suspense, so the part shows as soon as its code is there
 * (@portal/shared/web/deferred).
 */
import { Component, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { FailureView, failureReference, moduleLoader, useLoaded } from '@portal/shared/web/deferred';

interface BoundaryProps {
  /** The part, as a title starts with it: "The Interviews tab" ("The Interviews tab is unavailable right now"). */
  what: string;
  onRetry: () => void;
  children: ReactNode;
}

class LazyBoundary extends Component<BoundaryProps, { failure: { error: unknown; reference: string } | null }> {
  override state: { failure: { error: unknown; reference: string } | null } = { failure: null };

  static getDerivedStateFromError(error: Error) {
    return { failure: { error, reference: failureReference() } };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    const reference = this.state.failure?.reference ?? '-';
    console.error(`[portal] ${this.props.what} failed (reference ${reference})`, error, info.componentStack);
  }

  override render() {
    const { failure } = this.state;
    if (!failure) return this.props.children;
    return (
      <FailureView
        what={this.props.what}
        error={failure.error}
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
