import { signedDownloadUrl, verifySignedDownload } from './signed-urls';

const SECRET = 'a-test-secret-of-at-least-32-characters';
const download = { fileId: 'file-1', versionId: 'version-1', userId: 'user-1', expires: 1_000_300 };

/** The last of 43 base64url characters carries 2 spare bits: flipping one spells the same bytes. */
function flipSpareBit(c: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return alphabet[alphabet.indexOf(c) ^ 1];
}

function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, 'http://portal.test').searchParams);
}

describe('signed download URLs', () => {
  it('names the content route of the file with the version, user, expiry and a base64url signature', () => {
    const url = signedDownloadUrl(SECRET, download);
    expect(url).toMatch(/^\/api\/v1\/files\/file-1\/content\?v=version-1&u=user-1&e=1000300&s=[A-Za-z0-9_-]{43}$/);
    expect(verifySignedDownload(SECRET, 'file-1', queryOf(url), 1_000_000)).toEqual(download);
    // still good at its last second, expired one second later
    expect(verifySignedDownload(SECRET, 'file-1', queryOf(url), 1_000_300)).toEqual(download);
    expect(verifySignedDownload(SECRET, 'file-1', queryOf(url), 1_000_301)).toBe('expired');
  });

  it.each([
    ['another file', (q: Record<string, string>) => q, 'file-2'],
    ['another version', (q: Record<string, string>) => ({ ...q, v: 'version-2' }), 'file-1'],
    ['another user', (q: Record<string, string>) => ({ ...q, u: 'user-2' }), 'file-1'],
    ['a later expiry', (q: Record<string, string>) => ({ ...q, e: '9999999999' }), 'file-1'],
    [
      'an altered signature',
      (q: Record<string, string>) => ({ ...q, s: `${q.s.startsWith('A') ? 'B' : 'A'}${q.s.slice(1)}` }),
      'file-1',
    ],
    [
      'another spelling of the same signature bytes',
      (q: Record<string, string>) => ({ ...q, s: `${q.s.slice(0, -1)}${flipSpareBit(q.s.at(-1)!)}` }),
      'file-1',
    ],
    ['a short signature', (q: Record<string, string>) => ({ ...q, s: q.s.slice(0, 20) }), 'file-1'],
    ['no signature', ({ s: _s, ...q }: Record<string, string>) => q, 'file-1'],
    ['no expiry', ({ e: _e, ...q }: Record<string, string>) => q, 'file-1'],
    ['a negative expiry', (q: Record<string, string>) => ({ ...q, e: '-1' }), 'file-1'],
    ['a repeated parameter', (q: Record<string, string>) => ({ ...q, v: [q.v, q.v] }), 'file-1'],
  ])('calls a link with %s invalid, even long expired', (_label, alter, fileId) => {
    const query = alter(queryOf(signedDownloadUrl(SECRET, download)) as Record<string, string>) as Record<
      string,
      unknown
    >;
    expect(verifySignedDownload(SECRET, fileId, query, 1_000_000)).toBe('invalid');
    expect(verifySignedDownload(SECRET, fileId, query, 9_000_000)).toBe('invalid');
  });

  it('calls a link signed with another secret invalid', () => {
    const url = signedDownloadUrl('another-secret-of-at-least-32-characters!', download);
    expect(verifySignedDownload(SECRET, 'file-1', queryOf(url), 1_000_000)).toBe('invalid');
  });
});
