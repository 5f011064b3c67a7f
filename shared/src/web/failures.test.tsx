import { render, screen } from '@testing-library/react';
import { FailureView, failureReference, preloadFailurePanel } from './failure-view';
import { failureKind, failureText } from './failures';

describe('failureKind', () => {
  it('reads the error and its causes: a chunk that did not load is stale, a remote out of reach unavailable', () => {
    const chunk = Object.assign(new Error('Loading chunk 512 failed.'), { name: 'ChunkLoadError' });
    const wrapped = Object.assign(new Error('The module "mfe_projects/App" could not be loaded', { cause: chunk }), {
      name: 'RemoteUnavailableError',
    });
    expect(failureKind(chunk)).toBe('stale');
    expect(failureKind(new Error('Loading CSS chunk 7 failed.'))).toBe('stale');
    expect(failureKind(wrapped)).toBe('stale');
    expect(
      failureKind(
        Object.assign(new Error('x', { cause: new TypeError('Failed to fetch') }), { name: 'RemoteUnavailableError' }),
      ),
    ).toBe('unavailable');
    expect(failureKind(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe('broken');
    expect(failureKind('a string')).toBe('broken');
  });
});

describe('failureReference', () => {
  it('is eight hexadecimal capitals, new each time', () => {
    const refs = new Set(Array.from({ length: 50 }, failureReference));
    expect(refs.size).toBe(50);
    for (const ref of refs) expect(ref).toMatch(/^[0-9A-F]{8}$/);
  });
});

describe('FailureView', () => {
  const unavailable = Object.assign(new Error('x', { cause: new TypeError('Failed to fetch') }), {
    name: 'RemoteUnavailableError',
  });

  it('before the panel’s code is there: a plain stand-in naming the part, with a reload and the reference', async () => {
    render(<FailureView what="The Interviews tab" error={unavailable} reference="AB12CD34" onRetry={jest.fn()} />);
    const plain = screen.getByRole('alert');
    expect(plain).toHaveTextContent('The Interviews tab could not be shown');
    expect(plain).toHaveTextContent('Reference: AB12CD34');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    // then the kit's panel, which says how it failed
    expect(await screen.findByText('The Interviews tab is unavailable right now')).toBeInTheDocument();
  });

  it('once loaded: says how it failed and offers what helps', async () => {
    await preloadFailurePanel();
    const retry = jest.fn();
    render(
      <FailureView what="The Interviews tab" error={unavailable} reference="AB12CD34" onRetry={retry} scope="page" />,
    );
    const panel = screen.getByRole('alert');
    expect(panel).toHaveTextContent('The Interviews tab is unavailable right now');
    expect(panel).toHaveTextContent('This part of the page could not be loaded. The rest of the page keeps working');
    expect(panel).toHaveTextContent('Reference: AB12CD34');
    screen.getByRole('button', { name: /Retry/ }).click();
    expect(retry).toHaveBeenCalledTimes(1);
  });
});

describe('a part built against another portal contract', () => {
  // federation's refusal (strictVersion, shared/federation/singletons.js), wrapped by the shell's fallback
  const refused = Object.assign(
    new Error('The module "mfe_reports/App" could not be loaded', {
      cause: new Error(
        '[ Federation Runtime ]: Version 1.0.0 from shell of shared singleton module @portal/shared/web/store does not satisfy the requirement of mfe_reports which needs ^2.0.0)',
      ),
    }),
    { name: 'RemoteUnavailableError' },
  );
  afterEach(() => {
    delete (globalThis as { __FEDERATION__?: unknown }).__FEDERATION__;
  });

  it('is a mismatch, named with both versions and the part’s own', async () => {
    (globalThis as { __FEDERATION__?: unknown }).__FEDERATION__ = {
      moduleInfo: { 'mfe_reports:http://localhost/remotes/mfe-reports/mf-manifest.json': { buildVersion: '1.4.0' } },
    };
    expect(failureKind(refused)).toBe('mismatch');
    await preloadFailurePanel();
    render(<FailureView what="Reports" error={refused} reference="AB12CD34" onRetry={jest.fn()} />);
    const panel = screen.getByRole('alert');
    expect(panel).toHaveTextContent('Reports cannot open in this version of the portal');
    expect(panel).toHaveTextContent('Reports 1.4.0 needs portal contract ^2.0.0; this portal provides 1.0.0.');
    expect(panel).toHaveTextContent('Reference: AB12CD34');
    expect(screen.getByRole('button', { name: /Reload/ })).toBeInTheDocument();
  });

  it('says what it can when federation does not know the part’s version', () => {
    expect(failureText('mismatch', 'Reports', 'portal', refused).body).toMatch(
      /^Reports needs portal contract \^2\.0\.0; this portal provides 1\.0\.0\./,
    );
  });
});
