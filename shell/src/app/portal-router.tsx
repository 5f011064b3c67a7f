/**
 * The shell's router: react-router's own `<Router>` over the browser history (what BrowserRouter is
 * made of), with one addition: a navigation commits only when a guard allows it. Until then the page
 * stays where it is and the navigation is pending (the loading indicator shows it); a cancelled
 * navigation never happens, and a cancelled back/forward is undone.
 *
 * Why not a data router (createBrowserRouter + loaders): it adds ~16 KB gzip of router code to a first
 * page that has 7 KB left, and the portal uses nothing else of it. Remotes are unaffected either way:
 * they render their own `<Routes>` under the shell's router and navigate with `useNavigate`/`<Link>`,
 * which go through the navigator below.
 */
import { createContext, useContext, useEffect, useLayoutEffect, useState, useTransition, type ReactNode } from 'react';
import {
  Router,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  type Location,
  type NavigationType,
  type Navigator,
  type Path,
} from '@portal/shared/web/router';

/** allow: go; cancel: stay where the user was; leave: the browser is leaving the portal (stay pending). */
export type GuardVerdict = 'allow' | 'cancel' | 'leave';
export type NavigationGuard = (to: Path) => GuardVerdict | Promise<GuardVerdict>;

interface RouterState {
  location: Location;
  action: NavigationType;
  /** Where a navigation waiting for the guard goes; null when none waits. */
  pending: Path | null;
}

export interface PortalRouter {
  navigator: Navigator;
  getState(): RouterState;
  subscribe(listener: () => void): () => void;
  /** Follows back/forward and runs the guard for the first location; returns the stop function. */
  start(): () => void;
  /** The address the user is going to (a pending navigation) or else on. */
  target(): Path;
}

const samePath = (a: Path, b: Path) => a.pathname === b.pathname && a.search === b.search && a.hash === b.hash;

export function createPortalRouter({ guard }: { guard: NavigationGuard }): PortalRouter {
  const history = createBrowserHistory();
  let state: RouterState = { location: history.location, action: history.action, pending: null };
  let latest = 0;
  const listeners = new Set<() => void>();

  function update(next: Partial<RouterState>) {
    state = { ...state, ...next };
    for (const l of listeners) l();
  }

  async function navigate(to: Path, commit: () => void, undo: () => void) {
    const id = ++latest;
    update({ pending: to });
    let verdict: GuardVerdict;
    try {
      verdict = await guard(to);
    } catch (error) {
      console.error('[portal] navigation guard failed', error);
      verdict = 'cancel';
    }
    if (id !== latest || verdict === 'leave') return; // a newer navigation took over, or we are leaving
    if (verdict === 'cancel') {
      undo();
      update({ pending: null });
      return;
    }
    commit();
    update({ pending: null, location: history.location, action: history.action });
  }

  // react-router hands the navigator absolute paths (useNavigate and <Link> resolve relative ones).
  const pathOf = (to: Parameters<Navigator['push']>[0]): Path => history.encodeLocation(to);

  const navigator: Navigator = {
    createHref: history.createHref,
    encodeLocation: history.encodeLocation,
    go: history.go,
    push(to, routeState) {
      void navigate(
        pathOf(to),
        () => history.push(to, routeState),
        () => undefined,
      );
    },
    replace(to, routeState) {
      void navigate(
        pathOf(to),
        () => history.replace(to, routeState),
        () => undefined,
      );
    },
  };

  return {
    navigator,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    start() {
      const stop = history.listen(({ location, delta }) => {
        // Back at the page we show: a cancelled back/forward being undone.
        if (location.key === state.location.key && samePath(location, state.location)) {
          latest++;
          update({ pending: null });
          return;
        }
        // The browser has moved already: commit is a no-op, cancel moves it back.
        void navigate(
          location,
          () => undefined,
          () => {
            if (delta) history.go(-delta);
          },
        );
      });
      // The first page renders at once (the signed-in part waits for the user itself): no pending state.
      void Promise.resolve(guard(state.location)).catch((error) =>
        console.error('[portal] navigation guard failed', error),
      );
      return stop;
    },
    target: () => state.pending ?? state.location,
  };
}

const PortalRouterContext = createContext<{ router: PortalRouter; navigating: boolean } | null>(null);

/** `<Router>` driven by a PortalRouter; location changes render as a transition, like BrowserRouter. */
export function PortalRouterProvider({ router, children }: { router: PortalRouter; children: ReactNode }) {
  const [committed, setCommitted] = useState(() => router.getState());
  const [pending, setPending] = useState<Path | null>(null);
  const [rendering, startTransition] = useTransition();

  useLayoutEffect(() => {
    let shown = router.getState().location;
    return router.subscribe(() => {
      const next = router.getState();
      setPending(next.pending);
      if (next.location !== shown) {
        shown = next.location;
        startTransition(() => setCommitted(next));
      }
    });
  }, [router]);
  useEffect(() => router.start(), [router]);

  return (
    <PortalRouterContext.Provider value={{ router, navigating: pending !== null || rendering }}>
      <Router location={committed.location} navigationType={committed.action} navigator={router.navigator}>
        {children}
      </Router>
    </PortalRouterContext.Provider>
  );
}

function usePortalRouterContext() {
  const context = useContext(PortalRouterContext);
  if (!context) throw new Error('usePortalRouter must be used inside <PortalRouterProvider>');
  return context;
}

export function usePortalRouter(): PortalRouter {
  return usePortalRouterContext().router;
}

/** True from the start of a route change until the new route has rendered. */
export function useNavigationPending(): boolean {
  return usePortalRouterContext().navigating;
}
