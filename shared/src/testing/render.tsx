/** Renders a component with the real store and providers the shell gives every remote. */
import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { combineSlices, configureStore, Provider } from '@portal/shared/web/store';
import { ConfigProvider } from '@portal/shared/ui';
import { MemoryRouter } from '@portal/shared/web/router';
import { portalApi } from '@portal/shared/web/api';
import { initialSessionState, sessionSlice, type SessionState } from '@portal/shared/web/session';

export function makeTestStore(session: Partial<SessionState> = {}) {
  const reducer = combineSlices(sessionSlice, portalApi);
  return configureStore({
    reducer,
    preloadedState: { session: { ...initialSessionState, ...session } } as never,
    middleware: (gdm) => gdm().concat(portalApi.middleware),
  });
}

export function renderWithProviders(
  ui: ReactElement,
  { route = '/', session = {} }: { route?: string; session?: Partial<SessionState> } = {},
) {
  const store = makeTestStore(session);
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <Provider store={store}>
      <ConfigProvider>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </ConfigProvider>
    </Provider>
  );
  return { store, ...render(ui, { wrapper: Wrapper }) };
}

export * from './screen';
