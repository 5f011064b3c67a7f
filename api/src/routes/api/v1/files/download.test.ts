import type { SignedUrl } from '@portal/shared/core/files';
import type { FileKind } from '../../../../lib/file-kinds';
import { signedDownloadUrl } from '../../../../lib/signed-urls';
import { createTestApp, type TestApp } from '../../../../test/app';
import { attachmentDisposition } from '../../../../modules/files/attachments';

/** A kind of file for these tests: one file with two versions, readable by whoever `allowed` names. */
const HTML = Buffer.from('<html><script>parent.document.cookie</script></html>');
const OLD = Buffer.from('old version\n');
const state = { allowed: new Set<string>(), keys: { v1: '', v2: '' }, downloads: 0, sloppy: false };
const testKind: FileKind = {
  name: 'test',
  async find({ auth, fileId, versionId }) {
    if (fileId !== 'test-file' || !state.allowed.has(auth.user.email)) return null;
    // A careless kind would answer its current version whatever was asked: the route must notice.
    const version = state.sloppy ? 'v2' : (versionId ?? 'v2');
    if (version !== 'v1' && version !== 'v2') return null;
    const bytes = version === 'v2' ? HTML : OLD;
    return {
      versionId: version,
      name: version === 'v2' ? 'Résumé "page".html' : 'old.txt',
      contentType: version === 'v2' ? 'text/html' : 'text/plain',
      size: bytes.length,
      storageKey: state.keys[version],
      onDownload: async () => {
        state.downloads += 1;
      },
    };
  },
};

let t: TestApp;
let admin: string;
let consultant: string;

beforeAll(async () => {
  t = await createTestApp({ extend: (app) => void app.fileKinds.push(testKind) });
  state.keys.v2 = (await t.app.storage.putBuffer(HTML)).key;
  state.keys.v1 = (await t.app.storage.putBuffer(OLD)).key;
  admin = await t.cookieFor('admin@demo.test');
  consultant = await t.cookieFor('consultant@demo.test');
});
afterAll(() => t.close());
beforeEach(() => {
  state.allowed = new Set(['admin@demo.test', 'consultant@demo.test']);
  state.downloads = 0;
  state.sloppy = false;
});

async function sign(cookie: string, query = ''): Promise<SignedUrl> {
  const res = await t.api({ method: 'GET', url: `/api/v1/files/test-file/signed-url${query}`, cookie });
  expect(res.statusCode).toBe(200);
  return res.json();
}
/** As a browser navigates to a link: the session cookie, no portal header, no Origin. */
const navigate = (url: string, cookie?: string) => t.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
/** The last character of 43 base64url characters carries 2 spare bits: this one decodes to the same bytes. */
const spareBitsFlipped = (c: string) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return alphabet[alphabet.indexOf(c) ^ 1];
};
const secret = async () =>
  (
    await t.database.db
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', 'file_url')
      .executeTakeFirstOrThrow()
  ).value;
const userId = async (email: string) =>
  (await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

describe('GET /api/v1/files/:id/signed-url', () => {
  it('answers a link to the current version that expires in minutes, never cached', async () => {
    const before = Date.now();
    const res = await t.api({ method: 'GET', url: '/api/v1/files/test-file/signed-url', cookie: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as SignedUrl;
    expect(body.name).toBe('Résumé "page".html');
    expect(body.url).toMatch(/^\/api\/v1\/files\/test-file\/content\?v=v2&u=[^&]+&e=\d+&s=[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 299_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 301_000);
    // the secret lives in the database, never in the link
    expect(body.url).not.toContain(await secret());
    expect((await sign(admin, '?versionId=v1')).url).toContain('v=v1');
  });

  it('answers 404 file_not_found when no kind knows the file or the caller may not see it, 401 without a session', async () => {
    for (const url of ['/api/v1/files/nope/signed-url', '/api/v1/files/test-file/signed-url?versionId=v9']) {
      const res = await t.api({ method: 'GET', url, cookie: admin });
      expect([res.statusCode, res.json().code]).toEqual([404, 'file_not_found']);
    }
    state.allowed.delete('consultant@demo.test');
    expect(
      (await t.api({ method: 'GET', url: '/api/v1/files/test-file/signed-url', cookie: consultant })).json().code,
    ).toBe('file_not_found');
    expect((await t.api({ method: 'GET', url: '/api/v1/files/test-file/signed-url' })).statusCode).toBe(401);
    const bad = await t.api({ method: 'GET', url: '/api/v1/files/test-file/signed-url?versionId=', cookie: admin });
    expect([bad.statusCode, bad.json().details[0].field]).toEqual([400, 'versionId']);
  });
});

describe('GET /api/v1/files/:id/content', () => {
  it('serves the signed version as an attachment that is neither sniffed, cached nor run, and records the download', async () => {
    const { url } = await sign(admin);
    const res = await navigate(url, admin);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(HTML)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'text/html',
      'content-length': String(HTML.length),
      'content-disposition': attachmentDisposition('Résumé "page".html'),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-store',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(state.downloads).toBe(1);
    const old = await navigate((await sign(admin, '?versionId=v1')).url, admin);
    expect([old.statusCode, old.body, old.headers['content-type']]).toEqual([200, OLD.toString(), 'text/plain']);
  });

  it('names the file in RFC 5987 form with an ASCII fallback', () => {
    expect(attachmentDisposition('Résumé "final" (1).pdf')).toBe(
      `attachment; filename="R_sum_ _final_ (1).pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%20%281%29.pdf`,
    );
  });

  it('refuses an expired link with 403 signed_url_expired', async () => {
    const url = signedDownloadUrl(await secret(), {
      fileId: 'test-file',
      versionId: 'v2',
      userId: await userId('admin@demo.test'),
      expires: Math.floor(Date.now() / 1000) - 1,
    });
    const res = await navigate(url, admin);
    expect([res.statusCode, res.json().code]).toEqual([403, 'signed_url_expired']);
    expect(state.downloads).toBe(0);
  });

  it.each([
    [
      'an altered signature',
      (u: URL) =>
        u.searchParams.set(
          's',
          `${u.searchParams.get('s')![0] === 'A' ? 'B' : 'A'}${u.searchParams.get('s')!.slice(1)}`,
        ),
    ],
    [
      'another spelling of the signature',
      (u: URL) =>
        u.searchParams.set(
          's',
          `${u.searchParams.get('s')!.slice(0, -1)}${spareBitsFlipped(u.searchParams.get('s')!.at(-1)!)}`,
        ),
    ],
    ['a later expiry', (u: URL) => u.searchParams.set('e', String(Number(u.searchParams.get('e')) + 3600))],
    ['another version', (u: URL) => u.searchParams.set('v', 'v1')],
    ['no signature', (u: URL) => u.searchParams.delete('s')],
  ])('refuses a link with %s with 403 signed_url_invalid', async (_label, alter) => {
    const url = new URL((await sign(admin)).url, 'http://localhost');
    alter(url);
    const res = await navigate(`${url.pathname}${url.search}`, admin);
    expect([res.statusCode, res.json().code]).toEqual([403, 'signed_url_invalid']);
  });

  it('answers 404 for a link moved onto a file that does not exist, before looking at its signature', async () => {
    const url = new URL((await sign(admin)).url, 'http://localhost');
    url.pathname = '/api/v1/files/other-file/content';
    const res = await navigate(`${url.pathname}${url.search}`, admin);
    expect([res.statusCode, res.json().code]).toEqual([404, 'file_not_found']);
  });

  it("refuses another user's link with 403 signed_url_invalid, and asks an anonymous caller to sign in", async () => {
    const { url } = await sign(admin);
    const other = await navigate(url, consultant);
    expect([other.statusCode, other.json().code]).toEqual([403, 'signed_url_invalid']);
    expect((await navigate(url)).statusCode).toBe(401);
    expect(state.downloads).toBe(0);
  });

  it('checks access again: a file the user may no longer see answers 404', async () => {
    const { url } = await sign(consultant);
    state.allowed.delete('consultant@demo.test');
    const res = await navigate(url, consultant);
    expect([res.statusCode, res.json().code]).toEqual([404, 'file_not_found']);
  });

  it('serves only the version the link names: another one answers 404 file_version_not_found', async () => {
    const url = signedDownloadUrl(await secret(), {
      fileId: 'test-file',
      versionId: 'v1',
      userId: await userId('admin@demo.test'),
      expires: Math.floor(Date.now() / 1000) + 60,
    });
    state.sloppy = true;
    const res = await navigate(url, admin);
    expect([res.statusCode, res.json().code]).toEqual([404, 'file_version_not_found']);
  });

  it('answers 404 file_not_found when the bytes are gone', async () => {
    const { url } = await sign(admin, '?versionId=v1');
    await t.app.storage.remove(state.keys.v1);
    const res = await navigate(url, admin);
    expect([res.statusCode, res.json().code]).toEqual([404, 'file_not_found']);
    state.keys.v1 = (await t.app.storage.putBuffer(OLD)).key;
  });
});

describe('the signing secret', () => {
  it('is FILE_URL_SECRET when set: links signed with it are accepted', async () => {
    const configured = 'a-configured-secret-of-at-least-32-chars';
    const other = await createTestApp({
      seed: true,
      env: { FILE_URL_SECRET: configured },
      extend: (app) => void app.fileKinds.push(testKind),
    });
    try {
      const cookie = await other.cookieFor('admin@demo.test');
      const id = (
        await other.database.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'admin@demo.test')
          .executeTakeFirstOrThrow()
      ).id;
      state.keys.v2 = (await other.app.storage.putBuffer(HTML)).key;
      const url = signedDownloadUrl(configured, {
        fileId: 'test-file',
        versionId: 'v2',
        userId: id,
        expires: Math.floor(Date.now() / 1000) + 60,
      });
      expect((await other.inject({ method: 'GET', url, headers: { cookie } })).statusCode).toBe(200);
      // and nothing was stored for it
      expect(await other.database.db.selectFrom('app_secrets').selectAll().execute()).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
