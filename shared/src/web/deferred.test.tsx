import { Component, type ReactNode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { deferred, moduleLoader } from './deferred';

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p role="alert">Failed: {this.state.error.message}</p> : this.props.children;
  }
}

describe('deferred', () => {
  it('shows the fallback, then the component with its props, and loads its code once for every use', async () => {
    let resolve!: (m: { default: typeof Hello }) => void;
    const load = jest.fn(() => new Promise<{ default: typeof Hello }>((r) => (resolve = r)));
    const Lazy = deferred(load);
    const { rerender } = render(<Lazy name="Ann" fallback={<span>Loading…</span>} />);
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    await act(async () => resolve({ default: Hello }));
    expect(screen.getByText('Hello Ann')).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();

    // a second use after the first load renders at once, without loading again
    rerender(
      <>
        <Lazy name="Ann" />
        <Lazy name="Bob" />
      </>,
    );
    expect(screen.getByText('Hello Bob')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('throws a failed load to the error boundary, and a remount loads again', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    const Lazy = deferred(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('ChunkLoadError: chunk 7')) : Promise.resolve({ default: Hello });
    });
    try {
      const { unmount } = render(
        <Boundary>
          <Lazy name="Ann" />
        </Boundary>,
      );
      expect(await screen.findByRole('alert')).toHaveTextContent('Failed: ChunkLoadError: chunk 7');
      unmount();
      render(
        <Boundary>
          <Lazy name="Ann" />
        </Boundary>,
      );
      expect(await screen.findByText('Hello Ann')).toBeInTheDocument();
      expect(calls).toBe(2);
    } finally {
      error.mockRestore();
    }
  });
});

describe('moduleLoader', () => {
  it('shares a load between callers, forgets a failure and keeps a success', async () => {
    let calls = 0;
    const loader = moduleLoader(() => (++calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(calls)));
    const [a, b] = [loader.load(), loader.load()];
    await expect(a).rejects.toThrow('offline');
    await expect(b).rejects.toThrow('offline');
    expect(loader.peek()).toBeNull();
    await expect(loader.load()).resolves.toBe(2);
    await expect(loader.load()).resolves.toBe(2);
    expect(loader.peek()).toEqual({ value: 2 });
    expect(calls).toBe(2);
  });
});
