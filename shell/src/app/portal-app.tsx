import { useEffect, useMemo, useState } from 'react';
import { Provider, useDispatch, useSelector, useStore } from '@portal/shared/web/store';
import { Route, Routes } from '@portal/shared/web/router';
import { ConfigProvider, theme as antdTheme, type ThemeConfig } from '@portal/shared/ui';
import { FrameButton, StatusPanel } from '@portal/shared/ui/components';
import { portalApi, usePortalConfigGetQuery } from '@portal/shared/web/api';
import { session$ } from '@portal/shared/web/events';
import { sessionActions, sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { cspNonce } from '../csp-nonce';
import type { PortalStore } from '../store/store';
import { loadUser } from '../session/load-user';
import { redirectToSignIn } from '../session/sign-in';
import { useCompanySession } from '../session/use-session';
import { AccountRemovedPage } from '../pages/pages';
import { PortalFrame } from './layout';
import { signedInGuard } from './navigation-guard';
import { createPortalRouter, PortalRouterProvider, usePortalRouter, type PortalRouter } from './portal-router';
import { usePersistedPreferences } from './preferences';
import { RouteLoadingIndicator } from './route-loading-indicator';
import { LIGHT_COMPONENTS, LIGHT_TOKENS } from './theme-tokens';
import { Pending, PortalRoutes } from './routes';
import { ToastHost } from './toasts';

type Root = { session: SessionState };
/** antd's CSS-in-JS tags its styles with the page's CSP nonce. */
const CSP = cspNonce ? { nonce: cspNonce } : undefined;
const selectUserLoad = portalApi.endpoints.usersMe.select();

/** The frame once the user is known: companies, the selected one's access, then the routes. */
function CompanyPortal() {
  const s = useCompanySession();
  // the remotes' routes and menu entries come with the portal config (routes.tsx): without them
  // the user's modules cannot be shown either
  const config = usePortalConfigGetQuery();
  const configError = !config.data && config.isError;
  if (s.companiesLoading) return <Pending full label="Loading companies" />;
  return (
    <PortalFrame noCompanies={s.noCompanies}>
      {s.accessError || configError ? (
        <StatusPanel
          kind="warning"
          title="Your access for this company could not be loaded"
          extra={
            <FrameButton onClick={() => void (configError ? config.refetch() : s.retryAccess())}>Try again</FrameButton>
          }
        />
      ) : (
        <PortalRoutes />
      )}
    </PortalFrame>
  );
}

/**
 * Everything behind sign-in. The router's guard loads the user before every route (cached 300 s);
 * until the first load ends nothing of the portal renders.
 */
function SignedInPortal() {
  const store = useStore() as PortalStore;
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const userLoad = useSelector(selectUserLoad);
  if (user) return <CompanyPortal />;
  const unauthorized = userLoad.error && 'status' in userLoad.error && userLoad.error.status === 401;
  if (userLoad.isError && !unauthorized) {
    return (
      <StatusPanel
        kind="warning"
        title="The portal could not load your account"
        subTitle="Check your connection and try again."
        extra={
          <FrameButton variant="primary" onClick={() => void loadUser(store)}>
            Try again
          </FrameButton>
        }
      />
    );
  }
  return <Pending full label="Signing in" />;
}

/**
 * Any 401 sends the browser to sign-in, remembering for 300 s the address the user is on or, during a
 * navigation, going to (the server brings them back there). Once: concurrent 401s redirect once.
 */
function SignInOnUnauthorized() {
  const router = usePortalRouter();
  useEffect(() => {
    let leaving = false;
    const sub = session$.subscribe((e) => {
      if (e.type !== 'unauthorized' || leaving) return;
      leaving = true;
      redirectToSignIn(router.target());
    });
    return () => sub.unsubscribe();
  }, [router]);
  return null;
}

/** The brand and versions from /portal-config, read at start next to the user; 'Tevora' until then. */
function usePortalConfig() {
  const dispatch = useDispatch();
  const { data } = usePortalConfigGetQuery();
  const brand = useSelector((s: Root) => sessionSelectors.selectBrand(s));
  // The versions come with every response's headers (shared/web/api.ts); the brand only from here.
  useEffect(() => {
    if (data) dispatch(sessionActions.brandSet(data.brandName));
  }, [data, dispatch]);
  useEffect(() => {
    document.title = `${brand} Portal`;
  }, [brand]);
}

function ThemedPortal({ router }: { router: PortalRouter }) {
  usePersistedPreferences();
  usePortalConfig();
  const theme = useSelector((s: Root) => sessionSelectors.selectTheme(s));
  const themeConfig = useMemo<ThemeConfig>(
    () =>
      theme === 'dark'
        ? { algorithm: antdTheme.darkAlgorithm }
        : { algorithm: antdTheme.defaultAlgorithm, token: LIGHT_TOKENS, components: LIGHT_COMPONENTS },
    [theme],
  );

  return (
    <ConfigProvider theme={themeConfig} csp={CSP}>
      <ToastHost />
      <PortalRouterProvider router={router}>
        <SignInOnUnauthorized />
        <RouteLoadingIndicator />
        <Routes>
          <Route path="/account-removed" element={<AccountRemovedPage />} />
          <Route path="*" element={<SignedInPortal />} />
        </Routes>
      </PortalRouterProvider>
    </ConfigProvider>
  );
}

/** The shell: one store, one router whose navigations wait for the signed-in user (see portal-router). */
export function PortalApp({ store, router }: { store: PortalStore; router?: PortalRouter }) {
  const [portalRouter] = useState(() => router ?? createPortalRouter({ guard: signedInGuard(store) }));
  return (
    <Provider store={store}>
      <ThemedPortal router={portalRouter} />
    </Provider>
  );
}
