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
      // forwarded headers are not trusted unless TRUST_PROXY says a proxy sets them
      trustProxy: false,
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

describe('loadConfig: mail, rate limits and passwords', () => {
  it('has defaults: mail to the outbox, limits in memory, 600 requests a minute, the default staff password policy', () => {
    expect(loadConfig({}, '/srv/app')).toMatchObject({
      smtpUrl: null,
      mailFrom: 'Tevora Portal <no-reply@localhost>',
      redisUrl: null,
      rateLimitMax: 600,
      rateLimitWindowSeconds: 60,
      staffPasswordPolicy: { minimumLength: 12, rotationInDays: 0 },
    });
  });

  it('reads the environment', () => {
    expect(
      loadConfig({
        SMTP_URL: 'smtps://user:secret@mail.example.com:465',
        MAIL_FROM: 'Portal <portal@example.com>',
        REDIS_URL: 'redis://cache:6379/2',
        RATE_LIMIT_MAX: '100',
        RATE_LIMIT_WINDOW_SECONDS: '10',
        STAFF_PASSWORD_MIN_LENGTH: '16',
        STAFF_PASSWORD_ROTATION_DAYS: '90',
      }),
    ).toMatchObject({
      smtpUrl: 'smtps://user:secret@mail.example.com:465',
      mailFrom: 'Portal <portal@example.com>',
      redisUrl: 'redis://cache:6379/2',
      rateLimitMax: 100,
      rateLimitWindowSeconds: 10,
      staffPasswordPolicy: { minimumLength: 16, rotationInDays: 90 },
    });
    expect(loadConfig({ BRAND_NAME: 'Acme' }).mailFrom).toBe('Acme Portal <no-reply@localhost>');
  });

  it.each([
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
    [{ SMTP_URL: 'not a url' }, 'SMTP_URL'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ RATE_LIMIT_MAX: '0' }, 'RATE_LIMIT_MAX'],
    [{ RATE_LIMIT_MAX: 'lots' }, 'RATE_LIMIT_MAX'],
    [{ RATE_LIMIT_WINDOW_SECONDS: '0' }, 'RATE_LIMIT_WINDOW_SECONDS'],
    [{ STAFF_PASSWORD_MIN_LENGTH: '7' }, 'STAFF_PASSWORD_MIN_LENGTH'],
    [{ STAFF_PASSWORD_ROTATION_DAYS: '3651' }, 'STAFF_PASSWORD_ROTATION_DAYS'],
  ])('rejects %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('never repeats a URL that may hold a password', () => {
    expect(() => loadConfig({ SMTP_URL: 'ftp://user:secret@mail' })).toThrow(/^(?!.*secret)/);
  });
});

describe('loadConfig: files', () => {
  it('has defaults: 100 MB uploads, 5-minute links signed with the database secret, a 15-minute sweep grace', () => {
    expect(loadConfig({})).toMatchObject({
      uploadMaxBytes: 100 * 1024 * 1024,
      signedUrlTtlSeconds: 300,
      fileUrlSecret: null,
      storageSweepGraceMinutes: 15,
    });
  });

  it('reads the environment', () => {
    const secret = 'x'.repeat(40);
    expect(
      loadConfig({
        UPLOAD_MAX_BYTES: '1048576',
        SIGNED_URL_TTL_SECONDS: '60',
        FILE_URL_SECRET: secret,
        STORAGE_SWEEP_GRACE_MINUTES: '60',
      }),
    ).toMatchObject({
      uploadMaxBytes: 1048576,
      signedUrlTtlSeconds: 60,
      fileUrlSecret: secret,
      storageSweepGraceMinutes: 60,
    });
  });

  it.each([
    [{ UPLOAD_MAX_BYTES: '0' }, 'UPLOAD_MAX_BYTES'],
    [{ UPLOAD_MAX_BYTES: '100MB' }, 'UPLOAD_MAX_BYTES'],
    [{ SIGNED_URL_TTL_SECONDS: '4' }, 'SIGNED_URL_TTL_SECONDS'],
    [{ SIGNED_URL_TTL_SECONDS: '3601' }, 'SIGNED_URL_TTL_SECONDS'],
    [{ FILE_URL_SECRET: 'short-secret' }, 'FILE_URL_SECRET'],
    [{ STORAGE_SWEEP_GRACE_MINUTES: '0' }, 'STORAGE_SWEEP_GRACE_MINUTES'],
  ])('rejects %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('never repeats the secret in its message', () => {
    expect(() => loadConfig({ FILE_URL_SECRET: 'hunter2-secret' })).toThrow(/^(?!.*hunter2)/);
  });
});

describe('loadConfig: request reminders', () => {
  it('sweeps every 15 minutes unless told otherwise; 0 turns the sweep off', () => {
    expect(loadConfig({}).requestReminderMinutes).toBe(15);
    expect(loadConfig({ REQUEST_REMINDER_MINUTES: '60' }).requestReminderMinutes).toBe(60);
    expect(loadConfig({ REQUEST_REMINDER_MINUTES: '0' }).requestReminderMinutes).toBe(0);
    expect(loadConfig({ REQUEST_REMINDER_MINUTES: '1440' }).requestReminderMinutes).toBe(1440);
  });

  it.each(['1441', '-5', '2.5', 'hourly'])('rejects REQUEST_REMINDER_MINUTES=%s naming it', (raw) => {
    expect(() => loadConfig({ REQUEST_REMINDER_MINUTES: raw })).toThrow(
      /^Invalid configuration: REQUEST_REMINDER_MINUTES /,
    );
  });
});

describe('loadConfig: Microsoft Graph', () => {
  const credentials = {
    GRAPH_TENANT_ID: 'contoso.onmicrosoft.com',
    GRAPH_CLIENT_ID: 'app-id',
    GRAPH_CLIENT_SECRET: 'graph-secret-value',
  };

  it('is off unless configured: interviews go out as calendar mail alone', () => {
    expect(loadConfig({}).graph).toBeNull();
  });

  it('reads the credentials with Microsoft defaults for the URLs', () => {
    expect(loadConfig(credentials).graph).toEqual({
      tenantId: 'contoso.onmicrosoft.com',
      clientId: 'app-id',
      clientSecret: 'graph-secret-value',
      authorityUrl: 'https://login.microsoftonline.com',
      apiUrl: 'https://graph.microsoft.com/v1.0',
      notificationUrl: null,
    });
  });

  it('reads the URLs, without a trailing slash; plain http only for a local stand-in', () => {
    expect(
      loadConfig({
        ...credentials,
        GRAPH_AUTHORITY_URL: 'http://127.0.0.1:4010/',
        GRAPH_API_URL: 'https://graph.example.com/v1.0/',
        GRAPH_NOTIFICATION_URL: 'https://portal.example.com/graph/notifications',
      }).graph,
    ).toMatchObject({
      authorityUrl: 'http://127.0.0.1:4010',
      apiUrl: 'https://graph.example.com/v1.0',
      notificationUrl: 'https://portal.example.com/graph/notifications',
    });
  });

  it.each([
    [{ GRAPH_TENANT_ID: 't', GRAPH_CLIENT_ID: 'c' }, 'GRAPH_CLIENT_SECRET'],
    [{ GRAPH_CLIENT_SECRET: 's' }, 'GRAPH_TENANT_ID'],
    [{ GRAPH_TENANT_ID: 't', GRAPH_CLIENT_SECRET: 's' }, 'GRAPH_CLIENT_ID'],
    [{ ...credentials, GRAPH_TENANT_ID: 'a/b' }, 'GRAPH_TENANT_ID'],
    [{ ...credentials, GRAPH_API_URL: 'not a url' }, 'GRAPH_API_URL'],
    [{ ...credentials, GRAPH_API_URL: 'http://graph.example.com/v1.0' }, 'GRAPH_API_URL'],
    [{ ...credentials, GRAPH_AUTHORITY_URL: 'ftp://login.example.com' }, 'GRAPH_AUTHORITY_URL'],
    [{ ...credentials, GRAPH_NOTIFICATION_URL: 'http://localhost/notify' }, 'GRAPH_NOTIFICATION_URL'],
  ])('rejects %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('never repeats the client secret in its message', () => {
    expect(() =>
      loadConfig({ GRAPH_TENANT_ID: 'a/b', GRAPH_CLIENT_ID: 'c', GRAPH_CLIENT_SECRET: 'hunter2-graph' }),
    ).toThrow(/^(?!.*hunter2)/);
  });
});
