import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@portal/shared/testing';
import type { RemoteAppModule } from '@portal/shared/web/remote';
import { RemoteMount } from './remote-mount';
import { remoteFallbackPlugin } from './error-plugin';

describe('RemoteMount', () => {
  beforeEach(() => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('shows a fallback with Retry when the remote fails, and Retry loads it again for real', async () => {
    const calls: boolean[] = [];
    let fail = true;
    const load = jest.fn(async (_remote: string, fresh: boolean): Promise<RemoteAppModule> => {
      calls.push(fresh);
      if (fail) throw new Error('503 Service Unavailable');
      return { default: ({ basePath }) => <p>Requests remote at {basePath}</p> };
    });
    renderWithProviders(<RemoteMount remote="mfe-requests" basePath="/requests" load={load} />);
    expect(await screen.findByText('Requests is unavailable right now')).toBeInTheDocument();

    fail = false;
    await userEvent.click(screen.getByRole('button', { name: /Retry/ }));
    expect(await screen.findByText('Requests remote at /requests')).toBeInTheDocument();
    expect(calls).toEqual([false, true]);
  });

  it('renders the error fallback when the federation plugin returns its fallback module', async () => {
    const plugin = remoteFallbackPlugin();
    const fallback = (await plugin.errorLoadRemote!({
      id: 'mfe_reports/App',
      error: new Error('manifest 404'),
      from: 'runtime',
      lifecycle: 'onLoad',
      origin: {} as never,
    })) as RemoteAppModule;
    renderWithProviders(<RemoteMount remote="mfe-reports" basePath="/reports" load={async () => fallback} />);
    expect(await screen.findByText('Reports is unavailable right now')).toBeInTheDocument();
  });
});
