import { ConfigError, loadConfig } from '../../config';
import { createTestApp, type TestApp } from '../../test/app';
import { isServedHost } from './canonical-host';

describe('the canonical origin in configuration', () => {
  it('is http://localhost:<PORT> in development, serving the loopback names on that port', () => {
    const config = loadConfig({ PORT: '9090' });
    expect(config.publicUrl).toBe('http://localhost:9090');
    for (const host of ['localhost:9090', '127.0.0.1:9090', '[::1]:9090', 'LOCALHOST:9090'])
      expect(isServedHost(config.servedHosts, host)).toBe(true);
    for (const host of [
      'localhost:9091',
      'evil.example',
      'evil.example:9090',
      '10.0.0.5:9090',
      '',
      'localhost:9090@evil',
      'a b',
    ]) {
      expect(isServedHost(config.servedHosts, host)).toBe(false);
    }
  });

  it('is PUBLIC_URL when set, serving its host and ALLOWED_HOSTS only', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://portal.example.com',
      ALLOWED_HOSTS: 'portal.internal, 10.0.0.5:8080',
    });
    expect(config.publicUrl).toBe('https://portal.example.com');
    for (const host of ['portal.example.com', 'portal.example.com:443', 'portal.internal:1234', '10.0.0.5:8080'])
      expect(isServedHost(config.servedHosts, host)).toBe(true);
    for (const host of ['localhost:8080', '127.0.0.1:8080', '10.0.0.5:8081', 'portal.example.com.evil.example'])
      expect(isServedHost(config.servedHosts, host)).toBe(false);
  });

  it('refuses to start in production without PUBLIC_URL, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /^Invalid configuration: PUBLIC_URL must be set when NODE_ENV=production/,
    );
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://portal.example.com' }).publicUrl).toBe(
      'https://portal.example.com',
    );
  });

  it.each(['https://portal.internal', 'portal internal', 'portal.internal:99999', 'a/b'])(
    'refuses ALLOWED_HOSTS entry %j naming the variable',
    (entry) => {
      expect(() => loadConfig({ ALLOWED_HOSTS: entry })).toThrow(/^Invalid configuration: ALLOWED_HOSTS /);
    },
  );
});

describe('requests to a host the portal does not serve', () => {
  let t: TestApp;
  beforeAll(async () => {
    // development: no PUBLIC_URL
    t = await createTestApp({ env: { PUBLIC_URL: '', ALLOWED_HOSTS: '', PORT: '9090', TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string>) => t.inject({ method: 'GET', url, headers });

  it('are answered 421 before anything else runs, with the address to use', async () => {
    const cases: Record<string, string>[] = [
      { host: 'evil.example' },
      { host: 'localhost:9091' },
      { host: 'localhost:9090', 'x-forwarded-host': 'evil.example' },
    ];
    for (const headers of cases) {
      const res = await get('/api/v1/portal-config', headers);
      expect(res.statusCode).toBe(421);
      expect(res.json()).toMatchObject({
        code: 'misdirected_request',
        message: 'This address is not served here: open the portal at http://localhost:9090',
      });
      expect(res.headers['x-request-id']).toBeDefined();
    }
    expect((await get('/auth/saml/login', { host: 'evil.example' })).statusCode).toBe(421);
    expect((await get('/auth/saml/metadata', { host: 'evil.example' })).statusCode).toBe(421);
  });

  it('are served on the loopback names and port, with links on http://localhost:<PORT>', async () => {
    for (const host of ['localhost:9090', '127.0.0.1:9090', '[::1]:9090'])
      expect((await get('/api/v1/portal-config', { host })).statusCode).toBe(200);
    const metadata = await get('/auth/saml/metadata', { host: '127.0.0.1:9090' });
    expect(metadata.body).toContain('entityID="http://localhost:9090/auth/saml/metadata"');
  });

  it('leave the health check to any host (load balancers probe by address)', async () => {
    expect((await get('/api/v1/health', { host: '10.1.2.3:9090' })).statusCode).toBe(200);
  });
});
