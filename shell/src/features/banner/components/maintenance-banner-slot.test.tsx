import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { PortalMessage } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { markFirstContentShown } from '../../../app/first-content';
import { MaintenanceBannerSlot } from './maintenance-banner-slot';

const banner = (over: Partial<PortalMessage> = {}): PortalMessage => ({
  id: 'm1',
  key: 'banner',
  status: 'active',
  value: '<b>Maintenance</b> on Saturday',
  version: 3,
  dismissed: false,
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

let messages: PortalMessage[] = [];
const listUrls: string[] = [];
const dismissals: { id: string; body: unknown }[] = [];

const server = setupServer(
  http.get('*/api/v1/system-settings', ({ request }) => {
    listUrls.push(request.url);
    return HttpResponse.json({ data: messages });
  }),
  http.post('*/api/v1/system-settings/:id/dismiss', async ({ params, request }) => {
    dismissals.push({ id: String(params.id), body: await request.json() });
    return new HttpResponse(null, { status: 204 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  listUrls.length = 0;
  dismissals.length = 0;
});
afterAll(() => server.close());

const closeButton = () => screen.getByRole('button', { name: 'Close the maintenance banner' });

describe('the maintenance banner', () => {
  // first, while the page's first content is not on screen yet (the mark is for the whole file)
  it('asks for the settings only once the page’s first content is on screen', async () => {
    messages = [banner()];
    renderWithProviders(<MaintenanceBannerSlot />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listUrls).toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();

    markFirstContentShown();
    expect(await screen.findByText('Maintenance')).toBeInTheDocument();
    expect(listUrls).toHaveLength(1);
  });

  it('fetches the settings list by key Banner once and shows the first item, sanitized', async () => {
    messages = [
      banner({
        value:
          '<b>Maintenance</b> tonight <img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">details</a>',
      }),
      banner({ id: 'm2', value: 'Second' }),
    ];
    renderWithProviders(
      <>
        <MaintenanceBannerSlot />
        <MaintenanceBannerSlot />
      </>,
    );
    const shown = await screen.findAllByTestId('maintenance-banner');
    const alert = shown[0];
    expect(alert).toHaveTextContent('Maintenance tonight');
    expect(alert.querySelector('b')).toHaveTextContent('Maintenance');
    const img = alert.querySelector('img');
    expect(img).not.toBeNull();
    expect(img).toHaveAttribute('src', 'x');
    expect(img).not.toHaveAttribute('onerror');
    expect(alert.querySelector('script')).toBeNull();
    expect(alert.querySelector('a')).not.toHaveAttribute('href');
    expect(alert.innerHTML).not.toMatch(/onerror|javascript:|<script/i);
    expect(screen.queryByText('Second')).not.toBeInTheDocument();
    expect(listUrls).toHaveLength(1);
    expect(decodeURIComponent(new URL(listUrls[0]).search)).toBe('?keys[]=Banner');
  });

  it('hides at once when closed from the keyboard and records the close for this version', async () => {
    messages = [banner()];
    renderWithProviders(<MaintenanceBannerSlot />);
    await screen.findByTestId('maintenance-banner');
    closeButton().focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByTestId('maintenance-banner')).not.toBeInTheDocument();
    await waitFor(() => expect(dismissals).toEqual([{ id: 'm1', body: { version: 3 } }]));
  });

  it('stays hidden when the close call fails, for this session', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.post('*/api/v1/system-settings/:id/dismiss', () =>
        HttpResponse.json({ code: 'internal_error' }, { status: 500 }),
      ),
    );
    messages = [banner()];
    renderWithProviders(<MaintenanceBannerSlot />);
    await userEvent.click(await screen.findByRole('button', { name: 'Close the maintenance banner' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('maintenance-banner')).not.toBeInTheDocument();
    jest.restoreAllMocks();
  });

  it.each([
    ['inactive', [banner({ status: 'inactive' })]],
    ['empty', [banner({ value: '' })]],
    ['only markup and spaces', [banner({ value: '<p> &nbsp; </p>' })]],
    ['closed by this user for this version (after a reload)', [banner({ dismissed: true })]],
    ['missing', []],
  ])('is not shown when the banner is %s', async (_label, list) => {
    messages = list;
    renderWithProviders(<MaintenanceBannerSlot />);
    await waitFor(() => expect(listUrls).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('maintenance-banner')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
