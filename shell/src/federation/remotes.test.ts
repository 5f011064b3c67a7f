import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { loadRemoteApp } from './remotes';

jest.mock('@module-federation/enhanced/runtime', () => ({
  registerRemotes: jest.fn(),
  registerPlugins: jest.fn(),
  loadRemote: jest.fn(),
}));
jest.mock('@module-federation/retry-plugin', () => ({ RetryPlugin: jest.fn() }));

describe('loadRemoteApp', () => {
  // the federation runtime is the browser's; here only which entry each remote was registered with counts
  const runtime = jest.requireMock('@module-federation/enhanced/runtime') as {
    registerRemotes: jest.Mock;
    loadRemote: jest.Mock;
  };
  let lists: Record<string, string>[];
  let reads: number;
  const server = setupServer(
    http.get('*/remotes.json', () => {
      reads += 1;
      return HttpResponse.json(lists[Math.min(reads, lists.length) - 1]);
    }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  beforeEach(() => {
    reads = 0;
    runtime.registerRemotes.mockClear();
    runtime.loadRemote.mockResolvedValue({ default: () => null });
  });

  it('reads the list again for a remote it did not hold (its module turned on since), and on Retry', async () => {
    lists = [
      { 'mfe-settings': '/remotes/mfe-settings/mf-manifest.json' },
      {
        'mfe-settings': '/remotes/mfe-settings/mf-manifest.json',
        'mfe-reports': '/remotes/mfe-reports/mf-manifest.json',
      },
      { 'mfe-reports': '/releases/mfe-reports/2.0.0/mf-manifest.json' },
    ];
    await loadRemoteApp('mfe-settings');
    expect(reads).toBe(1);
    await loadRemoteApp('mfe-reports');
    expect(reads).toBe(2);
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith(
      [{ name: 'mfe_reports', entry: 'http://localhost/remotes/mfe-reports/mf-manifest.json' }],
      { force: false },
    );

    await loadRemoteApp('mfe-reports', true);
    expect(reads).toBe(3);
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith(
      [{ name: 'mfe_reports', entry: 'http://localhost/releases/mfe-reports/2.0.0/mf-manifest.json' }],
      { force: true },
    );
  });

  it('fails naming the remote when the list still does not hold it', async () => {
    lists = [{ 'mfe-settings': '/remotes/mfe-settings/mf-manifest.json' }];
    await expect(loadRemoteApp('mfe-requests', true)).rejects.toThrow(
      'The remote "mfe-requests" is not listed in /remotes.json',
    );
  });
});
