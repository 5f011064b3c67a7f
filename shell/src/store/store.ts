import { combineSlices, configureStore } from '@portal/shared/web/store';
import { portalApi } from '@portal/shared/web/api';
import { sessionSlice } from '@portal/shared/web/session';
import { errorToastMiddleware } from './error-middleware';

/** The one store of the portal. Remotes inject their slices with `slice.injectInto(rootReducer)`. */
export const rootReducer = combineSlices(sessionSlice, portalApi).withLazyLoadedSlices<Record<string, unknown>>();

export function createPortalStore(preloadedState?: Partial<ReturnType<typeof rootReducer>>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as ReturnType<typeof rootReducer> | undefined,
    middleware: (gdm) => gdm().concat(portalApi.middleware, errorToastMiddleware),
  });
}

export type PortalStore = ReturnType<typeof createPortalStore>;
export type PortalState = ReturnType<PortalStore['getState']>;
export type PortalDispatch = PortalStore['dispatch'];
