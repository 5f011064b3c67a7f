import { act, render, screen, waitFor } from '@testing-library/react';
import { Link, Route, Routes, useLocation, type Path } from '@portal/shared/web/router';
import { createPortalRouter, PortalRouterProvider, useNavigationPending, type GuardVerdict } from './portal-router';

/** A guard whose verdicts the test gives, one per navigation, in the order they were asked. */
function controlledGuard() {
  const asked: { to: Path; decide: (v: GuardVerdict) => void }[] = [];
  const guard = (to: Path) => new Promise<GuardVerdict>((decide) => asked.push({ to, decide }));
  return { guard, asked };
}

function Where() {
  const { pathname } = useLocation();
  const pending = useNavigationPending();
  return <p data-testid="where">{`${pathname}${pending ? ' (pending)' : ''}`}</p>;
}

function App() {
  return (
    <>
      <Link to="/a">to a</Link>
      <Link to="/b">to b</Link>
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </>
  );
}

function setup() {
  window.history.pushState({}, '', '/start');
  const { guard, asked } = controlledGuard();
  const router = createPortalRouter({ guard });
  render(
    <PortalRouterProvider router={router}>
      <App />
    </PortalRouterProvider>,
  );
  return { router, asked };
}

const where = () => screen.getByTestId('where');

describe('the portal router', () => {
  it('asks the guard about the first page without holding it back', async () => {
    const { asked } = setup();
    expect(where()).toHaveTextContent('/start');
    await waitFor(() => expect(asked.map((a) => a.to.pathname)).toEqual(['/start']));
    expect(where()).not.toHaveTextContent('pending');
  });

  it('lets the newest of two pending navigations win', async () => {
    const { asked } = setup();
    act(() => screen.getByText('to a').click());
    act(() => screen.getByText('to b').click());
    expect(where()).toHaveTextContent('/start (pending)');
    await act(async () => {
      asked[2].decide('allow'); // /b
      asked[1].decide('allow'); // /a, too late
    });
    expect(where()).toHaveTextContent(/^\/b$/);
    expect(window.location.pathname).toBe('/b');
  });

  it('stays pending while the browser leaves, and tells where the user was going', async () => {
    const { router, asked } = setup();
    act(() => screen.getByText('to a').click());
    expect(router.target().pathname).toBe('/a');
    await act(async () => asked[1].decide('leave'));
    expect(where()).toHaveTextContent('/start (pending)');
    expect(window.location.pathname).toBe('/start');
  });
});
