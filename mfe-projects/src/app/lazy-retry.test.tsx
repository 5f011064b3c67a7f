import { screen } from '@testing-library/react';
import { renderWithProviders } from '@portal/shared/testing';
import { setupUser } from '../features/projects/testing/fixtures';
import { LazyPart } from './lazy-retry';

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('LazyPart', () => {
  it('shows a Retry when its chunk fails to load, and loads it afresh on Retry (React.lazy keeps a failure)', async () => {
    const ue = setupUser();
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    const load = () => {
      calls += 1;
      return calls === 1
        ? Promise.reject(new Error('ChunkLoadError: Loading chunk 7 failed'))
        : Promise.resolve({ default: Hello });
    };
    try {
      renderWithProviders(
        <>
          <p>The rest of the page</p>
          <LazyPart load={load} what="Interviews tab" fallback={<span>Loading…</span>}>
            {(Loaded) => <Loaded name="Ann" />}
          </LazyPart>
        </>,
      );
      expect(await screen.findByText('The Interviews tab could not be loaded.')).toBeInTheDocument();
      expect(screen.getByText('The rest of the page')).toBeInTheDocument();
      await ue.click(screen.getByRole('button', { name: /Retry/ }));
      expect(await screen.findByText('Hello Ann')).toBeInTheDocument();
      expect(calls).toBe(2);
    } finally {
      error.mockRestore();
    }
  });
});
