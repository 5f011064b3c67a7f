/**
 * Starts the flag client for the signed-in user. Mount it once inside the signed-in frame; it renders
 * nothing. The OpenFeature SDK and our provider load here with a dynamic import, never on the first page.
 */
import { useEffect, useRef } from 'react';
import { useDispatch, useSelector } from '@portal/shared/web/store';
import { featureFlagsActions } from '@portal/shared/web/flags';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { afterFirstContent } from '../../app/first-content';
import type { PortalDispatch } from '../../store/store';
import type { FeatureFlagsHandle, FlagUser } from './flags-client';

type Root = { session: SessionState };

export function FeatureFlagsClient() {
  const dispatch = useDispatch<PortalDispatch>();
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const handle = useRef<FeatureFlagsHandle | null>(null);
  const userId = user?.id ?? null;
  const latest = useRef<FlagUser | null>(user);
  latest.current = user;
  // Only what the context holds: a refetched but identical user does not refetch the flags.
  const contextKey = user ? JSON.stringify([user.id, user.firstName, user.lastName, user.email, user.isTevora]) : null;

  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    const start = () =>
      import(/* webpackChunkName: "feature-flags" */ './flags-client')
        .then(({ startFeatureFlags }) => {
          if (!cancelled && latest.current) handle.current = startFeatureFlags(dispatch, latest.current);
        })
        .catch((error: unknown) => {
          console.error(
            'Feature flags: the flag client did not load; the portal continues with default values.',
            error,
          );
          if (!cancelled) dispatch(featureFlagsActions.flagsFailed());
        });
    // Flags only refine the page (defaults render first): the SDK loads once the page's own content
    // is shown and the browser is idle, so it never competes with the code the user is waiting for.
    const cancelStart = afterFirstContent(start);
    return () => {
      cancelled = true;
      cancelStart();
      handle.current?.stop();
      handle.current = null;
    };
  }, [userId, dispatch]);

  const started = useRef<string | null>(null);
  useEffect(() => {
    // The first context is the one the client started with; later ones are changes.
    if (started.current !== null && contextKey !== started.current && latest.current)
      handle.current?.setUser(latest.current);
    started.current = contextKey;
  }, [contextKey]);

  return null;
}
