import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createTestApp, makeTempDir, type TestApp } from '../../test/app';
import { cacheControlFor } from './static-web';

let t: TestApp;
let web: string;

function write(relative: string, content: string) {
  const file = path.join(web, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  web = t.config.webRoot;
  write('shell/dist/index.html', '<!doctype html><title>shell v1</title>');
  write('shell/dist/main.3f2a9c1d.js', 'console.log("main")');
  write('shell/dist/favicon.svg', '<svg/>');
  write('mfe-requests/dist/remoteEntry.js', 'var requests = 1;');
  write('mfe-requests/dist/mf-manifest.json', '{"name":"mfe_requests"}');
  write('mfe-requests/dist/static/js/123.abcdef0123.js', '1');
  write('shell/dist/kit.0a1b2c3d.js', BIG_SCRIPT);
  // the compressed copies the build writes next to each script of 1 KB or more (shared/federation/webpack-base.js)
  fs.writeFileSync(path.join(web, 'shell/dist/kit.0a1b2c3d.js.br'), zlib.brotliCompressSync(BIG_SCRIPT));
  fs.writeFileSync(path.join(web, 'shell/dist/kit.0a1b2c3d.js.gz'), zlib.gzipSync(BIG_SCRIPT));
});

const BIG_SCRIPT = Array.from({ length: 400 }, (_, i) => `export const component${i} = () => "row ${i}";`).join('\n');
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.inject({ method: 'GET', url, headers });
const html = { accept: 'text/html,application/xhtml+xml' };

describe('static web', () => {
  it('serves the shell at / with no-store (a CSP nonce of its own) and the standard headers', async () => {
    const res = await get('/', html);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('shell v1');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['x-request-id']).toBeDefined();
    expect(res.headers['x-api-version']).toBe('dev');
    expect(res.headers['x-ui-version']).toBe('dev');
  });

  it('caches content-hashed files for a year and revalidates the rest', async () => {
    const hashed = await get('/main.3f2a9c1d.js');
    expect(hashed.statusCode).toBe(200);
    expect(hashed.headers['content-type']).toMatch(/javascript/);
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/favicon.svg')).headers['cache-control']).toBe('no-cache');
    expect((await get('/remotes/mfe-requests/remoteEntry.js')).headers['cache-control']).toBe('no-cache');
    expect((await get('/remotes/mfe-requests/mf-manifest.json')).headers['cache-control']).toBe('no-cache');
    const chunk = await get('/remotes/mfe-requests/static/js/123.abcdef0123.js');
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toContain('immutable');
    expect(cacheControlFor('mf-stats.json')).toBe('no-cache');
    expect(cacheControlFor('remoteEntry.0123abcd.js')).toContain('immutable');
    expect(cacheControlFor('logo.abc.png')).toBe('no-cache');
  });

  it('answers a revalidation with 304, except for pages', async () => {
    const first = await get('/remotes/mfe-requests/remoteEntry.js');
    const again = await get('/remotes/mfe-requests/remoteEntry.js', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    const page = await get('/', { 'if-none-match': '*' });
    expect(page.statusCode).toBe(200);
  });

  it('compresses scripts for browsers that accept it: brotli first, then gzip, each with its own validator', async () => {
    const br = await get('/kit.0a1b2c3d.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(BIG_SCRIPT.length / 4);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_SCRIPT);

    const gz = await get('/kit.0a1b2c3d.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(BIG_SCRIPT);
    expect(gz.headers.etag).not.toBe(br.headers.etag);
    expect(
      (await get('/kit.0a1b2c3d.js', { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) }))
        .statusCode,
    ).toBe(304);
    // the gzip validator does not match the brotli representation
    expect(
      (await get('/kit.0a1b2c3d.js', { 'accept-encoding': 'br', 'if-none-match': String(gz.headers.etag) })).statusCode,
    ).toBe(200);

    const plain = await get('/kit.0a1b2c3d.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_SCRIPT);
    // small files and pages go as they are
    expect((await get('/main.3f2a9c1d.js', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    expect((await get('/', { ...html, 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
  });

  it('reads Accept-Encoding with its quality values', async () => {
    const encoding = async (acceptEncoding?: string) =>
      (await get('/kit.0a1b2c3d.js', acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }))
        .headers['content-encoding'];
    expect(await encoding('gzip, deflate, br')).toBe('br');
    expect(await encoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    // @fastify/static reads "any encoding" as gzip
    expect(await encoding('*')).toBe('gzip');
    expect(await encoding('*;q=0, gzip')).toBe('gzip');
    expect(await encoding('identity')).toBeUndefined();
    expect(await encoding('gzip;q=0')).toBeUndefined();
    expect(await encoding(undefined)).toBeUndefined();
  });

  it('falls back to the shell for client-side routes', async () => {
    const res = await get('/requests/12?tab=files', html);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('shell v1');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('does not fall back for non-page requests, api paths or remote files', async () => {
    const asset = await get('/missing.js');
    expect(asset.statusCode).toBe(404);
    const api = await get('/api/v1/nope', html);
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/application\/json/);
    expect(api.json().code).toBe('not_found');
    const auth = await get('/auth/nope', html);
    expect(auth.headers['content-type']).toMatch(/application\/json/);
    const remote = await get('/remotes/mfe-requests/missing.js', html);
    expect(remote.statusCode).toBe(404);
    expect(remote.headers['content-type']).toMatch(/text\/plain/);
    expect(remote.body).not.toContain('shell v1');
    expect((await get('/remotes/mfe-unknown/remoteEntry.js', html)).statusCode).toBe(404);
    expect(remote.headers['x-request-id']).toBeDefined();
  });

  it('does not serve files outside the dist folders', async () => {
    write('secret.txt', 'top secret');
    for (const url of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/remotes/mfe-requests/..%2f..%2fsecret.txt',
      '/%2e%2e%2f%2e%2e%2fsecret.txt',
    ]) {
      const res = await get(url);
      expect(res.body).not.toContain('top secret');
    }
  });

  it('serves a file changed on disk at once', async () => {
    write('mfe-requests/dist/remoteEntry.js', 'var requests = 2;');
    expect((await get('/remotes/mfe-requests/remoteEntry.js')).body).toBe('var requests = 2;');
    write('shell/dist/index.html', '<!doctype html><title>shell v2</title>');
    expect((await get('/settings', html)).body).toContain('shell v2');
  });

  it('serves a remote whose dist appears after start', async () => {
    expect((await get('/remotes/mfe-reports/remoteEntry.js')).statusCode).toBe(404);
    write('mfe-reports/dist/remoteEntry.js', 'var reports = 1;');
    expect((await get('/remotes/mfe-reports/remoteEntry.js')).statusCode).toBe(200);
  });
});

describe('static web without a build', () => {
  it('answers / with 503 telling to run npm run build', async () => {
    const bare = await createTestApp({ seed: false, env: { WEB_ROOT: makeTempDir('portal-empty-web-') } });
    try {
      const res = await bare.inject({ method: 'GET', url: '/', headers: html });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build');
      expect(res.headers['x-request-id']).toBeDefined();
      expect((await bare.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    } finally {
      fs.rmSync(bare.config.webRoot, { recursive: true, force: true });
      await bare.close();
    }
  });
});

describe('published releases', () => {
  it('serves a release’s files, cached for good, and nothing outside releases/', async () => {
    write('releases/mfe-reports/1.4.0-0123456789/remoteEntry.js', 'var release = 1;');
    write('releases/mfe-reports/1.4.0-0123456789/mf-manifest.json', '{"name":"mfe_reports"}');
    const entry = await get('/releases/mfe-reports/1.4.0-0123456789/remoteEntry.js');
    expect(entry.statusCode).toBe(200);
    expect(entry.body).toBe('var release = 1;');
    expect(entry.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/releases/mfe-reports/1.4.0-0123456789/mf-manifest.json')).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    for (const url of [
      '/releases/mfe-reports/1.4.0-0123456789/gone.js',
      '/releases/mfe-reports/1.4.0-0123456789/',
      '/releases/mfe-reports',
      // encoded slashes: the path is decoded whole, then kept inside releases/
      '/releases/mfe-reports/1.4.0-0123456789/..%2f..%2f..%2fshell%2fdist%2findex.html',
    ]) {
      const res = await get(url, html);
      expect([url, res.statusCode, res.body]).toEqual([url, 404, 'Not found\n']);
    }
  });
});
