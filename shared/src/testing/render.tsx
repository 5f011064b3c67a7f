/** Renders a component with the real store and providers the shell gives every remote. */
import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { App as AntApp, ConfigProvider } from '../ui/index';
import { portalApi } from '../web/api';
import { initialSessionState, sessionSlice, type SessionState } from '../web/session';

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
        <AntApp>
          <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
        </AntApp>
      </ConfigProvider>
    </Provider>
  );
  return { store, ...render(ui, { wrapper: Wrapper }) };
}
