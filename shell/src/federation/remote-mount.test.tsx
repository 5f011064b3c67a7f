import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@portal/shared/testing';
import { preloadFailurePanel } from '@portal/shared/web/deferred';
import type { RemoteAppModule } from '@portal/shared/web/remote';
import { RemoteMount } from './remote-mount';
import { remoteFallbackPlugin } from './error-plugin';

// the failure panel's code, as the shell loads it once the first page is on screen (else FailureView's plain markup)
beforeAll(() => preloadFailurePanel());

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
    renderWithProviders(<RemoteMount remote="mfe-requests" title="Requests" basePath="/requests" load={load} />);
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
    renderWithProviders(
      <RemoteMount remote="mfe-reports" title="Reports" basePath="/reports" load={async () => fallback} />,
    );
    expect(await screen.findByText('Reports is unavailable right now')).toBeInTheDocument();
  });
});

describe('RemoteMount says how a remote failed', () => {
  beforeEach(() => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  /** webpack's error for a chunk that did not load: the same whether the file is gone or the network dropped. */
  const chunkError = () =>
    Object.assign(new Error('Loading chunk 512 failed.\n(error: http://localhost/remotes/mfe-projects/512.js)'), {
      name: 'ChunkLoadError',
      request: 'http://localhost/remotes/mfe-projects/512.js',
    });

  it('a chunk the server no longer has: a new version, to reload', async () => {
    const head = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 404 }));
    renderWithProviders(
      <RemoteMount
        remote="mfe-projects"
        title="Projects"
        basePath="/"
        load={async () => {
          throw chunkError();
        }}
      />,
    );
    expect(await screen.findByText('A new version of Projects is available')).toBeInTheDocument();
    expect(screen.getByText('Reload to get it: you come back to this page.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Reload/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
    expect(head).toHaveBeenCalledWith('http://localhost/remotes/mfe-projects/512.js', {
      method: 'HEAD',
      cache: 'no-store',
    });
  });

  it('a chunk that is still there but did not arrive: out of reach, with Retry', async () => {
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    renderWithProviders(
      <RemoteMount
        remote="mfe-projects"
        title="Projects"
        basePath="/"
        load={async () => {
          throw chunkError();
        }}
      />,
    );
    expect(await screen.findByText('Projects is unavailable right now')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Retry/ })).toBeInTheDocument();
  });

  it('a remote that breaks while rendering: reload, with a reference that the console has too', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken = () => {
      throw new Error('Element type is invalid');
    };
    renderWithProviders(
      <RemoteMount remote="mfe-reports" title="Reports" basePath="/reports" load={async () => ({ default: Broken })} />,
    );
    expect(await screen.findByText('Reports ran into a problem')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Reload/ })).toBeInTheDocument();
    const reference = /Reference: ([0-9A-Z]{8})/.exec(screen.getByRole('alert').textContent ?? '')?.[1];
    expect(reference).toBeDefined();
    expect(error.mock.calls.some((args) => String(args[0]).includes(`reference ${reference}`))).toBe(true);
  });
});
