import { screen } from '@testing-library/react';
import { renderWithProviders } from '@portal/shared/testing';
import { preloadFailurePanel } from '@portal/shared/web/deferred';
import { setupUser } from '../features/projects/testing/fixtures';
import { LazyPart } from './lazy-retry';

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

// the failure panel's code, as the shell loads it once the first page is on screen (else FailureView's plain markup)
beforeAll(() => preloadFailurePanel());

describe('LazyPart', () => {
  /** webpack's error for a chunk that did not load: the same whether the file is gone or the network dropped. */
  const chunkError = () =>
    Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError', request: 'http://localhost/7.js' });
  afterEach(() => jest.restoreAllMocks());

  it('shows a Retry when its chunk did not arrive, and loads it afresh on Retry (React.lazy keeps a failure)', async () => {
    const ue = setupUser();
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    let calls = 0;
    const load = () => {
      calls += 1;
      return calls === 1 ? Promise.reject(chunkError()) : Promise.resolve({ default: Hello });
    };
    try {
      renderWithProviders(
        <>
          <p>The rest of the page</p>
          <LazyPart load={load} what="The Interviews tab" fallback={<span>Loading…</span>}>
            {(Loaded) => <Loaded name="Ann" />}
          </LazyPart>
        </>,
      );
      expect(await screen.findByText('The Interviews tab is unavailable right now')).toBeInTheDocument();
      expect(screen.getByText('The rest of the page')).toBeInTheDocument();
      await ue.click(screen.getByRole('button', { name: /Retry/ }));
      expect(await screen.findByText('Hello Ann')).toBeInTheDocument();
      expect(calls).toBe(2);
    } finally {
      error.mockRestore();
    }
  });

  it('asks for a reload when a newer release removed its chunk', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 404 }));
    renderWithProviders(
      <LazyPart load={(): Promise<{ default: typeof Hello }> => Promise.reject(chunkError())} what="The Interviews tab">
        {(Loaded) => <Loaded name="Ann" />}
      </LazyPart>,
    );
    expect(await screen.findByText('A new version of this page is available')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Reload/ })).toBeInTheDocument();
  });
});
