import { useEffect, useState } from 'react';
import { Provider, useDispatch, useSelector } from '@portal/shared/web/store';
import { BrowserRouter, Route, Routes } from '@portal/shared/web/router';
import { Button, ConfigProvider, Spin, theme as antdTheme } from '@portal/shared/ui';
import { StatusPanel } from '@portal/shared/ui/components';
import { sessionActions, sessionSelectors, type SessionState } from '@portal/shared/web/session';
import type { PortalStore } from '../store/store';
import { useSessionBootstrap } from '../session/use-session';
import { AccountRemovedPage } from '../pages/pages';
import { PortalFrame } from './layout';
import { PortalRoutes } from './routes';
import { ToastHost } from './toasts';

type Root = { session: SessionState };
const THEME_KEY = 'portal.theme';
const DETAILED_VIEW_KEY = 'detailed-view';

function FullScreenSpin({ label }: { label: string }) {
  return (
    <div style={{ display: 'flex', height: '100vh', alignItems: 'center', justifyContent: 'center' }} role="status" aria-label={label}>
      <Spin size="large" />
    </div>
  );
}

/** Everything behind sign-in: loads the user first; nothing renders until it is known. */
function SignedInPortal() {
  const s = useSessionBootstrap();
  if (s.userLoading || s.userError === 'unauthorized') return <FullScreenSpin label="Signing in" />;
  if (s.userError) {
    return (
      <StatusPanel
        kind="warning"
        title="The portal could not load your account"
        subTitle="Check your connection and try again."
        extra={<Button type="primary" onClick={() => s.retryUser()}>Try again</Button>}
      />
    );
  }
  if (s.companiesLoading) return <FullScreenSpin label="Loading companies" />;
  return (
    <PortalFrame noCompanies={s.noCompanies}>
      {s.accessError ? (
        <StatusPanel
          kind="warning"
          title="Your access for this company could not be loaded"
          extra={<Button onClick={() => s.retryAccess()}>Try again</Button>}
        />
      ) : (
        <PortalRoutes />
      )}
    </PortalFrame>
  );
}

function ThemedPortal() {
  const dispatch = useDispatch();
  const theme = useSelector((s: Root) => sessionSelectors.selectTheme(s));
  const detailedView = useSelector((s: Root) => sessionSelectors.selectDetailedView(s));
  const [restored, setRestored] = useState(false);

  // Theme and detailed view are remembered per browser.
  useEffect(() => {
    const savedTheme = window.localStorage.getItem(THEME_KEY);
    if (savedTheme === 'dark' || savedTheme === 'light') dispatch(sessionActions.themeSet(savedTheme));
    dispatch(sessionActions.detailedViewSet(window.localStorage.getItem(DETAILED_VIEW_KEY) === 'true'));
    setRestored(true);
  }, [dispatch]);
  useEffect(() => {
    if (restored) window.localStorage.setItem(THEME_KEY, theme);
  }, [theme, restored]);
  useEffect(() => {
    if (restored) window.localStorage.setItem(DETAILED_VIEW_KEY, String(detailedView));
  }, [detailedView, restored]);

  return (
    <ConfigProvider theme={{ algorithm: theme === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm }}>
      <ToastHost />
      <BrowserRouter>
        <Routes>
          <Route path="/account-removed" element={<AccountRemovedPage />} />
          <Route path="*" element={<SignedInPortal />} />
        </Routes>
      </BrowserRouter>
    </ConfigProvider>
  );
}

export function PortalApp({ store }: { store: PortalStore }) {
  return (
    <Provider store={store}>
      <ThemedPortal />
    </Provider>
  );
}
