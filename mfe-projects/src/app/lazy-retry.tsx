/**
 * A part of a page that loads on first use (React.lazy), inside its own error boundary: when its chunk
 * cannot be loaded (a deploy replaced it, the network dropped), the part says so with a Retry, and the
 * rest of the remote keeps working. As in the shell's RemoteMount, each attempt creates a new lazy
 * component: React.lazy caches a rejected import, so Retry must not reuse the old one.
 */
import { Component, lazy, Suspense, useMemo, useRef, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { Button, ReloadOutlined } from '@portal/shared/ui';
import { StatusPanel } from '@portal/shared/ui/components';

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
          <Button type="primary" icon={<ReloadOutlined />} onClick={this.props.onRetry}>
            Retry
          </Button>
        }
      />
    );
  }
}

/**
 * Renders `children(Loaded)` once `load` resolves, `fallback` meanwhile, and a Retry when it fails.
 * `load` is read on each attempt (a new arrow each render is fine).
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
  const loader = useRef(load);
  loader.current = load;
  // a new lazy per attempt; eslint cannot see that `attempt` is what asks for it
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const Loaded = useMemo(() => lazy(() => loader.current()), [attempt]);
  return (
    <LazyBoundary key={attempt} what={what} onRetry={() => setAttempt((a) => a + 1)}>
      <Suspense fallback={fallback}>{children(Loaded as ComponentType<P>)}</Suspense>
    </LazyBoundary>
  );
}
