import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * Around a lazy chart: when its chunk cannot be loaded (a deploy replaced it, the network dropped) or
 * it fails to draw, `fallback` (the table view of the same numbers) shows instead, and the rest of the
 * report stays.
 */
export class ChartBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('[portal] a report chart failed', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
