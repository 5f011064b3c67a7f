import { failureKind, failureReference } from './failures';

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
  it('is eight capitals and digits, new each time', () => {
    const refs = new Set(Array.from({ length: 50 }, failureReference));
    expect(refs.size).toBe(50);
    for (const ref of refs) expect(ref).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
  });
});
