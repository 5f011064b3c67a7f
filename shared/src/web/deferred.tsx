/**
 * Code that loads on first use, without React.lazy's Suspense delay.
 *
 * React holds back the content of a Suspense boundary whose code has arrived until 300 ms after any
 * boundary last switched between fallback and content (react-dom's FALLBACK_THROTTLE_MS, for retry
 * renders). A page made of lazy parts therefore appears in 300 ms steps whatever the network does:
 * measured in bench/web, a remote's App waited about 200 ms after its code was there, and the
 * dashboard's lists another 250 ms. Here the code is loaded in an effect and shown with a state
 * update, which React commits as soon as it happens.
 *
 * A failed load is thrown while rendering, to the nearest error boundary, as React.lazy does; it is
 * not remembered, so a boundary that remounts (Retry) loads again.
 */
import { useEffect, useState, type ComponentProps, type ComponentType, type ReactNode } from 'react';

export interface ModuleLoader<T> {
  /** The loaded value, when a load has succeeded. */
  peek(): { value: T } | null;
  /** Loads once: concurrent and later callers share the load; a failed one is forgotten. */
  load(): Promise<T>;
}

export function moduleLoader<T>(load: () => Promise<T>): ModuleLoader<T> {
  let loaded: { value: T } | null = null;
  let pending: Promise<T> | null = null;
  return {
    peek: () => loaded,
    load() {
      if (loaded) return Promise.resolve(loaded.value);
      pending ??= load().then(
        (value) => {
          loaded = { value };
          return value;
        },
        (error: unknown) => {
          pending = null;
          throw error;
        },
      );
      return pending;
    },
  };
}

type LoadState<T> = { value: T } | { error: unknown } | null;

/**
 * The value of `loader` once loaded (null until then), loading it when the component mounts. A
 * failure is thrown during render, to the nearest error boundary.
 */
export function useLoaded<T>(loader: ModuleLoader<T>): T | null {
  const [state, setState] = useState<LoadState<T>>(() => loader.peek());
  useEffect(() => {
    if (state) return;
    let live = true;
    loader.load().then(
      (value) => live && setState({ value }),
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [loader, state]);
  if (state && 'error' in state) throw state.error;
  return state ? state.value : null;
}

export type DeferredComponent<P extends object> = (props: P & { fallback?: ReactNode }) => ReactNode;

/**
 * Like React.lazy, for a module whose default export is the component: renders `fallback` (default
 * nothing) until the code is there, then the component with the remaining props.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React.lazy: any component type
export function deferred<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): DeferredComponent<ComponentProps<T>> {
  const loader = moduleLoader(() => load().then((m) => m.default));
  function Deferred({ fallback = null, ...props }: ComponentProps<T> & { fallback?: ReactNode }) {
    const Loaded = useLoaded(loader) as ComponentType<ComponentProps<T>> | null;
    if (!Loaded) return fallback;
    return <Loaded {...(props as ComponentProps<T>)} />;
  }
  return Deferred;
}

// A failed part's view (failure-view.tsx): with the loader of first-use code, so it is there before any part fails.
export { FailureView, failureReference, preloadFailurePanel, type FailureViewProps } from './failure-view';
