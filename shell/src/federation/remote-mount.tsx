import { Component, lazy, Suspense, useEffect, useMemo, useState, type ErrorInfo, type ReactNode } from 'react';
import { Button, ReloadOutlined, Spin } from '@portal/shared/ui';
import { StatusPanel } from '@portal/shared/ui/components';
import type { RemoteAppModule } from '@portal/shared/web/remote';
import { markFirstContentShown } from '../app/first-content';
import { loadRemoteApp } from './remotes';

const TITLES: Record<string, string> = {
  'mfe-projects': 'Projects',
  'mfe-requests': 'Requests',
  'mfe-settings': 'Settings',
  'mfe-reports': 'Reports',
};

interface BoundaryProps {
  remote: string;
  onRetry: () => void;
  children: ReactNode;
}

class RemoteErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`[portal] ${this.props.remote} failed`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const title = TITLES[this.props.remote] ?? this.props.remote;
    return (
      <StatusPanel
        kind="warning"
        title={`${title} is unavailable right now`}
        subTitle="This part of the portal could not be loaded. The rest of the portal keeps working; try again in a moment."
        extra={
          <Button
            type="primary"
            icon={<ReloadOutlined />}
            onClick={() => {
              this.setState({ error: null });
              this.props.onRetry();
            }}
          >
            Retry
          </Button>
        }
      />
    );
  }
}

/** A User Timing mark (bench/web reads them); absent in test environments without the API. */
const mark = (name: string) => globalThis.performance?.mark?.(name);

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

/**
 * Mounts one remote's App inside its own error boundary. Each attempt creates a new lazy component:
 * React.lazy caches a rejected import, so Retry must not reuse the old one.
 */
export function RemoteMount({ remote, basePath, load = loadRemoteApp }: { remote: string; basePath: string; load?: RemoteLoader }) {
  const [attempt, setAttempt] = useState(0);
  const App = useMemo(
    () =>
      lazy(() => {
        mark(`remote:${remote}:requested`);
        return load(remote, attempt > 0);
      }),
    [remote, attempt, load],
  );
  return (
    <RemoteErrorBoundary key={`${remote}:${attempt}`} remote={remote} onRetry={() => setAttempt((a) => a + 1)}>
      <Suspense
        fallback={
          <div style={{ padding: 48, textAlign: 'center' }} role="status" aria-label={`Loading ${TITLES[remote] ?? remote}`}>
            <Spin size="large" />
          </div>
        }
      >
        <App basePath={basePath} />
        <Committed remote={remote} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
