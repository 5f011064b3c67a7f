import { loadUser } from '../session/load-user';
import type { PortalStore } from '../store/store';
import type { NavigationGuard } from './portal-router';

/** Routes anyone may open; every other route needs sign-in. */
export const PUBLIC_PATHS = ['/account-removed'];

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((p) => pathname === p || pathname === `${p}/`);
}

/**
 * Before every route that needs sign-in the user is loaded (cached 300 s). If that fails the navigation
 * is cancelled and the user stays where they were (the error middleware shows the toast); on a 401 the
 * browser leaves for sign-in, remembering the address the user was going to.
 */
export function signedInGuard(store: Pick<PortalStore, 'dispatch' | 'getState'>): NavigationGuard {
  return async (to) => {
    if (isPublicPath(to.pathname)) return 'allow';
    const user = await loadUser(store);
    if (user === 'loaded') return 'allow';
    return user === 'unauthorized' ? 'leave' : 'cancel';
  };
}
