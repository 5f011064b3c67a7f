import { portalApi } from '@portal/shared/web/api';
import { sessionActions } from '@portal/shared/web/session';
import type { PortalStore } from '../store/store';

/** The user hook is cached for 300 s: within that a navigation reuses it. */
export const USER_CACHE_SECONDS = 300;

export type UserLoad = 'loaded' | 'unauthorized' | 'failed';

/**
 * Loads the signed-in user: from the cache when fetched less than 300 s ago, else from the server.
 * A fresh user goes to the session (login: the user is set, login becomes true,
 * and the signed-in frame then loads the companies). Failures toast through the error middleware,
 * and a 401 sends the browser to sign-in from there.
 */
export async function loadUser(store: Pick<PortalStore, 'dispatch' | 'getState'>): Promise<UserLoad> {
  const result = await store.dispatch(
    // Not a subscription: an unused user leaves the cache after 300 s; forceRefetch covers a user kept longer.
    portalApi.endpoints.usersMe.initiate(undefined, { subscribe: false, forceRefetch: USER_CACHE_SECONDS }),
  );
  if (result.isError) return 'status' in result.error && result.error.status === 401 ? 'unauthorized' : 'failed';
  if (!result.data) return 'failed';
  if (store.getState().session.user !== result.data) store.dispatch(sessionActions.userLoaded(result.data));
  return 'loaded';
}
