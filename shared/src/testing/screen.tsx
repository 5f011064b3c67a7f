/** What the remotes' screen tests share: an api server per test file, the address, and fast queries for antd's DOM. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { useLocation } from '@portal/shared/web/router';

/** The api for this test file: listening while its tests run, failing any request no handler takes, reset after each test. */
export function setupTestServer(...handlers: RequestHandler[]) {
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** The address's query, for tests to read: named `label`, percent-encoding undone unless `decoded` is false. */
export function AddressQuery({ label = 'query', decoded = true }: { label?: string; decoded?: boolean }) {
  const { search } = useLocation();
  return <output aria-label={label}>{decoded ? decodeURIComponent(search) : search}</output>;
}

/**
 * A user-event instance for antd screens. jsdom's getComputedStyle is slow under antd's many injected
 * styles, so pointer-events checks are skipped and buttons are found by their text (a role query with a
 * name takes seconds here).
 */
export const setupUser = () => userEvent.setup({ delay: null, pointerEventsCheck: 0 });

/** The button whose text is `text`, inside `container` (the whole page by default). */
export function button(text: string | RegExp, container: HTMLElement = document.body): HTMLButtonElement {
  const label = within(container).getByText(text, { selector: 'button, button *' });
  return label.closest('button') as HTMLButtonElement;
}

/** The most recently opened antd dialog (modal or confirmation) that is still shown. */
export function findDialog(): Promise<HTMLElement> {
  return waitFor(() => {
    const open = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].filter(
      (d) => (d.closest('.ant-modal-wrap') as HTMLElement | null)?.style.display !== 'none',
    );
    if (!open.length) throw new Error('no open dialog');
    return open[open.length - 1];
  });
}

/** A heading by its text: role queries walk every element of antd's large DOM, this does not. */
export function findHeading(text: string): Promise<HTMLElement> {
  return screen.findByText(text, { selector: 'h1, h2, h3, h4, h5, h6' });
}
