import path from 'node:path';
import { ConfigError, REPO_ROOT, loadConfig } from './config';

describe('loadConfig', () => {
  it('has defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/app/.data',
      databaseUrl: null,
      sqlitePath: '/srv/app/.data/portal.sqlite',
      brandName: 'Tevora',
      apiVersion: 'dev',
      uiVersion: 'dev',
      webRoot: REPO_ROOT,
      remotesManifest: null,
      remotesManifestFile: null,
      sessionIdleMinutes: 480,
      sessionMaxHours: 168,
    });
    expect(path.basename(path.join(REPO_ROOT, 'api'))).toBe('api');
    expect(config.flagHmacSecret).toHaveLength(64);
  });

  it('reads the environment', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        DATABASE_URL: 'postgres://u:p@db:5432/portal',
        BRAND_NAME: 'Acme',
        REMOTES_MANIFEST_FILE: 'remotes.json',
        SESSION_IDLE_MINUTES: '30',
      },
      '/srv/app',
    );
    expect(config).toMatchObject({
      port: 9000,
      databaseUrl: 'postgres://u:p@db:5432/portal',
      brandName: 'Acme',
      remotesManifestFile: '/srv/app/remotes.json',
      sessionIdleMinutes: 30,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ SESSION_IDLE_MINUTES: '0' }, 'SESSION_IDLE_MINUTES'],
    [{ SESSION_MAX_HOURS: '-1' }, 'SESSION_MAX_HOURS'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REMOTES_MANIFEST: '{oops' }, 'REMOTES_MANIFEST'],
    [{ REMOTES_MANIFEST: '["a"]' }, 'REMOTES_MANIFEST'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
  ])('rejects %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });
});
