/**
 * Per-browser remote overrides (modules/web/remote-overrides.ts): staff point a remote at another
 * address for their own browser; /remotes.json and the page's Content-Security-Policy follow, for that
 * browser and that user alone. Also the answer test of the three operations (test/answers.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, makeTempDir, type TestApp } from '../../../../test/app';
import { ANSWER_TESTS, answerProblem } from '../../../../test/answers';
import { placeRepoDeclarations } from '../../../../test/remotes';

const KEYS = ANSWER_TESTS['routes/api/v1/remote-overrides/remote-overrides.test.ts'];
const DEV = 'http://localhost:3004/mf-manifest.json';

let t: TestApp;
let web: string;
beforeAll(async () => {
  web = makeTempDir('portal-web-');
  fs.mkdirSync(path.join(web, 'shell', 'dist'), { recursive: true });
  fs.writeFileSync(path.join(web, 'shell', 'dist', 'index.html'), '<!doctype html><title>shell</title>');
  placeRepoDeclarations(web);
  t = await createTestApp({ env: { WEB_ROOT: web } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(web, { recursive: true, force: true });
});

const answered = new Set<string>();
async function call(method: 'GET' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: Record<string, unknown>) {
  const res = await t.api({ method, url, cookie, ...(payload === undefined ? {} : { payload }) });
  if (res.statusCode === 200) {
    const key = `${method} ${url.replace(/\/remote-overrides\/[^/]+$/, '/remote-overrides/:remote')}`;
    expect(answerProblem(t.app, key, url, res.json())).toBeNull();
    answered.add(key);
  }
  return res;
}
/** The override cookie a reply set ("name=value"), or null when it cleared it. */
function overrideCookie(res: { cookies: { name: string; value: string }[] }): string | null {
  const set = res.cookies.find((c) => c.name === 'pe_remote_overrides');
  return set?.value ? `pe_remote_overrides=${set.value}` : null;
}

describe('remote overrides', () => {
  it('point a remote at another address for this staff browser: /remotes.json and the CSP follow', async () => {
    const admin = await t.cookieFor('admin@demo.test');
    expect((await call('GET', '/api/v1/remote-overrides', admin)).json()).toEqual({ results: [] });

    const set = await call('PUT', '/api/v1/remote-overrides/mfe-reports', admin, { url: DEV });
    expect(set.json()).toEqual({ results: [{ remote: 'mfe-reports', url: DEV }] });
    const cookie = overrideCookie(set)!;
    expect(set.cookies.find((c) => c.name === 'pe_remote_overrides')).toMatchObject({ httpOnly: true, path: '/' });

    const both = `${admin}; ${cookie}`;
    expect((await call('GET', '/api/v1/remote-overrides', both)).json()).toEqual({
      results: [{ remote: 'mfe-reports', url: DEV }],
    });
    const listed = (await t.inject({ method: 'GET', url: '/remotes.json', headers: { cookie: both } })).json();
    expect(listed['mfe-reports']).toBe(DEV);
    expect(listed['mfe-projects']).toBe('/remotes/mfe-projects/mf-manifest.json');
    const page = await t.inject({ method: 'GET', url: '/', headers: { cookie: both, accept: 'text/html' } });
    expect(page.headers['content-security-policy']).toContain('http://localhost:3004');
    // another browser of the same user has no cookie: nothing changes there
    expect(
      (await t.inject({ method: 'GET', url: '/remotes.json', headers: { cookie: admin } })).json()['mfe-reports'],
    ).toBe('/remotes/mfe-reports/mf-manifest.json');
    const plain = await t.inject({ method: 'GET', url: '/', headers: { cookie: admin, accept: 'text/html' } });
    expect(plain.headers['content-security-policy']).not.toContain('localhost:3004');

    const removed = await call('DELETE', '/api/v1/remote-overrides/mfe-reports', both);
    expect(removed.json()).toEqual({ results: [] });
    expect(overrideCookie(removed)).toBeNull();
  });

  it('hold only for the user who set them, and only intact', async () => {
    const admin = await t.cookieFor('admin@demo.test');
    const cookie = overrideCookie(await call('PUT', '/api/v1/remote-overrides/mfe-reports', admin, { url: DEV }))!;
    const consultant = await t.cookieFor('consultant@demo.test');
    expect((await call('GET', '/api/v1/remote-overrides', `${consultant}; ${cookie}`)).json()).toEqual({ results: [] });
    const tampered = cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await call('GET', '/api/v1/remote-overrides', `${admin}; ${tampered}`)).json()).toEqual({ results: [] });
    const forged = `pe_remote_overrides=${Buffer.from(JSON.stringify({ u: 'x', o: { 'mfe-reports': DEV } })).toString('base64url')}.x`;
    const listed = await t.inject({ method: 'GET', url: '/remotes.json', headers: { cookie: `${admin}; ${forged}` } });
    expect(listed.json()['mfe-reports']).toBe('/remotes/mfe-reports/mf-manifest.json');
  });

  it('refuse an address a browser must not load code from, a remote the manifest lacks, and non-staff', async () => {
    const admin = await t.cookieFor('admin@demo.test');
    for (const url of [
      'http://cdn.example/mf-manifest.json',
      'javascript:alert(1)',
      'https://cdn.example/app.js',
      'x'.repeat(3000),
    ]) {
      const res = await call('PUT', '/api/v1/remote-overrides/mfe-reports', admin, { url });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ field: 'url', message: expect.stringMatching(/^The address must be/) }]);
    }
    const unknown = await call('PUT', '/api/v1/remote-overrides/mfe-risks', admin, { url: DEV });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'remote_not_found']);
    expect((await call('PUT', '/api/v1/remote-overrides/Bad_Name', admin, { url: DEV })).statusCode).toBe(400);

    const client = await t.cookieFor('lead@acme.test');
    expect((await call('PUT', '/api/v1/remote-overrides/mfe-reports', client, { url: DEV })).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url: '/api/v1/remote-overrides' })).statusCode).toBe(401);
  });

  it('answer every operation at least once', () => {
    expect([...answered].sort()).toEqual([...KEYS].sort());
  });
});
