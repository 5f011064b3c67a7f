import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, makeTempDir, type TestApp } from '../../test/app';
import { contentSecurityPolicy, HSTS, injectCspNonce, remoteOrigins } from './security-headers';

const INDEX = `<!doctype html><html lang="en"><head><meta charset="utf-8"/><title>Portal</title><style>body { margin: 0 }</style><script defer="defer" src="/main.0123456789ab.js"></script></head><body><div id="root"></div></body></html>`;
const html = { accept: 'text/html,application/xhtml+xml' };

let t: TestApp;

function write(root: string, relative: string, content: string) {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** The directives of a CSP header, by name. */
function directives(header: unknown): Record<string, string[]> {
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

beforeAll(async () => {
  t = await createTestApp({
    seed: false,
    extend(app) {
      // a route with its own, stricter policy (as file downloads and stored images have)
      app.get('/test/sandboxed', async (_request, reply) =>
        reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send('<p>x</p>'),
      );
      app.get('/test/attachment', async (_request, reply) =>
        reply
          .type('text/html')
          .header('content-disposition', 'attachment; filename="a.html"')
          .send('<head><style>a{}</style></head>'),
      );
    },
  });
  write(t.config.webRoot, 'shell/dist/index.html', INDEX);
});
afterAll(() => t.close());

describe('security headers', () => {
  it('serves the shell with a CSP whose nonce is the one in the page, new on every response', async () => {
    const first = await t.inject({ method: 'GET', url: '/', headers: html });
    const second = await t.inject({ method: 'GET', url: '/projects/12', headers: html });
    const nonces = [first, second].map((res) => {
      expect(res.statusCode).toBe(200);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['connect-src']).toEqual(["'self'"]);
      expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
      expect(csp['font-src']).toEqual(["'self'", 'data:']);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'self'"]);
      expect(csp['form-action']).toEqual(["'self'"]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      const [self, nonceSource] = csp['style-src'];
      expect(self).toBe("'self'");
      const nonce = /^'nonce-([A-Za-z0-9+/=]{20,})'$/.exec(nonceSource)?.[1];
      expect(nonce).toBeDefined();
      // the meta the shell reads, and the page's own inline style
      expect(res.body).toContain(`<head><meta name="csp-nonce" nonce="${nonce}">`);
      expect(res.body).toContain(`<style nonce="${nonce}">body { margin: 0 }</style>`);
      expect(res.body.match(/nonce="([^"]+)"/g)?.every((attr) => attr === `nonce="${nonce}"`)).toBe(true);
      return nonce;
    });
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('never lets a cached page meet a newer nonce: HTML is no-store, without validators', async () => {
    const res = await t.inject({ method: 'GET', url: '/', headers: html });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['last-modified']).toBeUndefined();
    const again = await t.inject({
      method: 'GET',
      url: '/',
      headers: { ...html, 'if-none-match': '*', 'if-modified-since': new Date().toUTCString() },
    });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('csp-nonce');
  });

  it('gives the /auth pages a CSP their inline style passes; sign-in may post on to an identity provider', async () => {
    const login = await t.inject({ method: 'GET', url: '/auth/saml/login' });
    expect(login.statusCode).toBe(200);
    const csp = directives(login.headers['content-security-policy']);
    const nonce = /^'nonce-(.+)'$/.exec(csp['style-src'][1])?.[1];
    expect(login.body).toContain(`<style nonce="${nonce}">`);
    expect(csp['form-action']).toEqual(["'self'", 'https:', 'http://localhost:*', 'http://127.0.0.1:*']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(login.headers['referrer-policy']).toBe('same-origin');

    const forgot = await t.inject({ method: 'GET', url: '/auth/forgot-password' });
    expect(directives(forgot.headers['content-security-policy'])['form-action']).toEqual(["'self'"]);
  });

  it('sets nosniff, no framing and a referrer policy on api responses, errors and static files, without a CSP', async () => {
    write(t.config.webRoot, 'shell/dist/main.0123456789ab.js', '1');
    for (const url of ['/api/v1/health', '/api/v1/nope', '/main.0123456789ab.js', '/remotes.json']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it("keeps a route's own CSP and a download's bytes", async () => {
    const res = await t.inject({ method: 'GET', url: '/test/sandboxed' });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.body).toBe('<p>x</p>');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const attachment = await t.inject({ method: 'GET', url: '/test/attachment' });
    expect(attachment.body).toBe('<head><style>a{}</style></head>');
    expect(attachment.headers['x-content-type-options']).toBe('nosniff');
  });

  it('ignores X-Forwarded-Proto without TRUST_PROXY', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('security headers behind a proxy, with remotes elsewhere', () => {
  let proxied: TestApp;
  let manifestDir: string;

  beforeAll(async () => {
    manifestDir = makeTempDir('portal-csp-manifest-');
    const file = path.join(manifestDir, 'remotes.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        'mfe-projects': '/remotes/mfe-projects/mf-manifest.json',
        'mfe-requests': 'https://cdn.example/requests/mf-manifest.json',
        'mfe-reports': 'http://localhost:3004/mf-manifest.json',
      }),
    );
    proxied = await createTestApp({ seed: false, env: { TRUST_PROXY: 'true', REMOTES_MANIFEST_FILE: file } });
    write(proxied.config.webRoot, 'shell/dist/index.html', INDEX);
  });
  afterAll(async () => {
    await proxied.close();
    fs.rmSync(manifestDir, { recursive: true, force: true });
  });

  it('sends HSTS only when the request came over TLS', async () => {
    const tls = await proxied.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(tls.headers['strict-transport-security']).toBe(HSTS);
    expect(HSTS).toBe('max-age=31536000; includeSubDomains');
    const plain = await proxied.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('allows the origins remotes are served from', async () => {
    const res = await proxied.inject({ method: 'GET', url: '/', headers: html });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['script-src']).toEqual(["'self'", 'https://cdn.example', 'http://localhost:3004']);
    expect(csp['connect-src']).toEqual([
      "'self'",
      'https://cdn.example',
      'http://localhost:3004',
      'ws://localhost:3004',
    ]);
    expect(csp['style-src']).toEqual([
      "'self'",
      expect.stringMatching(/^'nonce-/),
      'https://cdn.example',
      'http://localhost:3004',
    ]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });
});

describe('security header helpers', () => {
  it('lists the origins of absolute manifest URLs only', () => {
    expect(
      remoteOrigins({
        a: '/remotes/a/mf-manifest.json',
        b: 'https://cdn.example/b/mf-manifest.json',
        c: 'https://cdn.example/c/mf-manifest.json',
        d: 'http://localhost:3001/mf-manifest.json',
        e: 'javascript:alert(1)',
      }),
    ).toEqual(['https://cdn.example', 'http://localhost:3001']);
  });

  it('adds the nonce to the tags that lack one and the meta right after <head>', () => {
    expect(
      injectCspNonce('<html><head><style>a{}</style><script nonce="x" src="/a.js"></script></head></html>', 'N'),
    ).toBe(
      '<html><head><meta name="csp-nonce" nonce="N"><style nonce="N">a{}</style><script nonce="x" src="/a.js"></script></head></html>',
    );
  });

  it('builds the policy', () => {
    expect(contentSecurityPolicy({ nonce: 'N' })).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'nonce-N'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    );
  });
});
