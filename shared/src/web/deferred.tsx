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

type LoadState<T> = { value: T; error?: undefined } | { value?: undefined; error: unknown } | null;

/**
 * The value of `loader` once loaded (null until then), started when the component mounts or `key`
 * changes. A failure is thrown during render, to the nearest error boundary.
 */
export function useLoaded<T>(loader: ModuleLoader<T>, key: unknown = null): T | null {
  const [state, setState] = useState<{ key: unknown; result: LoadState<T> }>(() => ({ key, result: loader.peek() }));
  const current = state.key === key ? state.result : loader.peek();
  useEffect(() => {
    if (current) return;
    let live = true;
    loader.load().then(
      (value) => live && setState({ key, result: { value } }),
      (error: unknown) => live && setState({ key, result: { error } }),
    );
    return () => {
      live = false;
    };
  }, [loader, key, current]);
  if (current && 'error' in current && current.error !== undefined) throw current.error;
  return current ? (current.value as T) : null;
}

export interface DeferredComponent<P extends object> {
  (props: P & { fallback?: ReactNode }): ReactNode;
  /** Starts loading the code now (a page that will surely need it). */
  preload(): Promise<ComponentType<P>>;
}

/**
 * Like React.lazy, for a module whose default export is the component: renders `fallback` (default
 * nothing) until the code is there, then the component with the remaining props.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React.lazy: any component type
export function deferred<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): DeferredComponent<ComponentProps<T>> {
  const loader = moduleLoader(() => load().then((m) => m.default));
  function Deferred({ fallback = null, ...props }: ComponentProps<T> & { fallback?: ReactNode }) {
    const Loaded = useLoaded(loader) as ComponentType<ComponentProps<T>> | null;
    if (!Loaded) return fallback;
    return <Loaded {...(props as ComponentProps<T>)} />;
  }
  Deferred.preload = () => loader.load() as Promise<ComponentType<ComponentProps<T>>>;
  return Deferred;
}
