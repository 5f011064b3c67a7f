/**
 * A part of a page that loads on first use, inside its own error boundary: when its chunk cannot be
 * loaded (a deploy replaced it, the network dropped), the part says so with a Retry, and the rest of
 * the remote keeps working. Each attempt loads afresh. Loaded without Suspense, so the part shows as
 * soon as its code is there (@portal/shared/web/deferred).
 */
import { Component, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { moduleLoader, useLoaded } from '@portal/shared/web/deferred';
import { ReloadOutlined } from '@portal/shared/ui';
import { FrameButton, StatusPanel } from '@portal/shared/ui/components';

interface BoundaryProps {
  /** What the part shows, for the message: "The interviews could not be loaded." */
  what: string;
  onRetry: () => void;
  children: ReactNode;
}

class LazyBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`[portal] ${this.props.what} failed`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <StatusPanel
        kind="warning"
        title={`The ${this.props.what} could not be loaded.`}
        subTitle="The rest of the page keeps working. Try again in a moment."
        extra={
          <FrameButton variant="primary" icon={<ReloadOutlined />} onClick={this.props.onRetry}>
            Retry
          </FrameButton>
        }
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
