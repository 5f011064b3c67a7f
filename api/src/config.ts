import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  DEFAULT_PASSWORD_POLICY,
  remotesManifestSchema,
  type PasswordPolicy,
  type RemotesManifest,
} from '@portal/shared/core/schemas';
import { SIGNED_URL_TTL_SECONDS_DEFAULT, UPLOAD_MAX_BYTES_DEFAULT } from '@portal/shared/core/files';

/** Everything the api reads from the environment, parsed and checked once at start. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL when set; otherwise SQLite at `sqlitePath`. */
  databaseUrl: string | null;
  sqlitePath: string;
  brandName: string;
  apiVersion: string;
  uiVersion: string;
  /** Folder holding shell/dist and <remote>/dist. */
  webRoot: string;
  remotesManifest: RemotesManifest | null;
  /** Re-read on every request to /remotes.json. */
  remotesManifestFile: string | null;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  flagHmacSecret: string;
  trustProxy: boolean;
  bodyLimitBytes: number;
  /** SMTP server for mail (SMTP_URL); null: mail is written as .eml files under `DATA_DIR/outbox`. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Counters of the api rate limiter in Redis (REDIS_URL), shared by instances; null: in memory. */
  redisUrl: string | null;
  /** Requests per window per session (or per address when anonymous) under /api/v1. */
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  /** The password policy of staff users; client users follow their companies' policies. */
  staffPasswordPolicy: PasswordPolicy;
  /**
   * The portal's one public origin (PUBLIC_URL): every link and URL it hands out or checks (reset and
   * invitation links, the SAML entity id, ACS URL and audience) is built on it, never on a request's
   * Host. Required in production; in development `http://localhost:<PORT>`.
   */
  publicUrl: string;
  /** The Host header values the portal answers (others get 421): PUBLIC_URL's host, ALLOWED_HOSTS, and without PUBLIC_URL the loopback names on PORT. */
  servedHosts: ServedHost[];
  /** The SAML service provider's entity id (SAML_SP_ENTITY_ID); null: `<PUBLIC_URL>/auth/saml/metadata`. */
  samlSpEntityId: string | null;
  /** The largest file an upload may carry (UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
  /** How long a signed download link works (SIGNED_URL_TTL_SECONDS, 5 to 3600). */
  signedUrlTtlSeconds: number;
  /** Signs download links (FILE_URL_SECRET); null: a random secret kept in the database, shared by every instance. */
  fileUrlSecret: string | null;
  /** Staged leftovers and unnamed blobs younger than this are left to the upload that may still own them. */
  storageSweepGraceMinutes: number;
  /** How often the request reminder and daily digest sweep runs (REQUEST_REMINDER_MINUTES, at start then every N minutes); 0: never. */
  requestReminderMinutes: number;
  /** Microsoft Graph meetings for interviews (GRAPH_*); null: interviews go out as iCalendar mail alone. */
  graph: GraphConfig | null;
}

/** A host the portal answers; `port` null: any port (or the scheme's default). */
export interface ServedHost {
  hostname: string;
  port: string | null;
}

/** Microsoft Graph, reached with the client-credentials grant of an app registration (issue 7). */
export interface GraphConfig {
  tenantId: string;
  clientId: string;
  /** Never logged nor repeated in a message. */
  clientSecret: string;
  /** GRAPH_AUTHORITY_URL without a trailing slash, e.g. https://login.microsoftonline.com. */
  authorityUrl: string;
  /** GRAPH_API_URL without a trailing slash, e.g. https://graph.microsoft.com/v1.0. */
  apiUrl: string;
  /** GRAPH_NOTIFICATION_URL: when set, a change subscription is created for each meeting. */
  notificationUrl: string | null;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

/** PUBLIC_URL as an origin (`https://portal.example.com`): the links the portal hands out must not depend on a header. */
function publicOrigin(env: Env): string | null {
  const raw = value(env, 'PUBLIC_URL');
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_URL', `is not a valid URL, got "${raw}"`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError('PUBLIC_URL', `must be an origin such as https://portal.example.com, got "${raw}"`);
  }
  return url.origin;
}

const HOST_PATTERN =
  /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))*\.?)(?::(\d{1,5}))?$/;

/** A Host header value (or an ALLOWED_HOSTS entry) as hostname and port; null when it is not one. */
export function parseHost(value: string): ServedHost | null {
  const match = HOST_PATTERN.exec(value.trim().toLowerCase());
  if (!match) return null;
  const port = match[2] === undefined ? null : String(Number(match[2]));
  if (port !== null && Number(port) > 65535) return null;
  return { hostname: match[1].replace(/\.$/, ''), port };
}

/** ALLOWED_HOSTS: further names the portal answers to, `host` or `host:port`, separated by commas. */
function allowedHosts(env: Env): ServedHost[] {
  const raw = value(env, 'ALLOWED_HOSTS');
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const host = parseHost(entry);
      if (!host)
        throw new ConfigError(
          'ALLOWED_HOSTS',
          `must list host names such as portal.internal or portal.internal:8443, separated by commas; "${entry}" is not one`,
        );
      return host;
    });
}

export const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/** The hosts the portal answers: PUBLIC_URL's, or without it the loopback names on PORT; then ALLOWED_HOSTS. */
function servedHosts(configuredPublicUrl: string | null, port: number, extra: ServedHost[]): ServedHost[] {
  const own: ServedHost[] = configuredPublicUrl
    ? [{ hostname: new URL(configuredPublicUrl).hostname, port: new URL(configuredPublicUrl).port || null }]
    : LOOPBACK_HOSTNAMES.map((hostname) => ({ hostname, port: String(port) }));
  return [...own, ...extra];
}

function serviceUrl(env: Env, name: string, protocols: string[], example: string): string | null {
  const raw = value(env, name);
  if (raw === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a valid URL (expected ${example})`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(
      name,
      `must start with ${protocols.map((p) => `${p}//`).join(' or ')}, got "${parsed.protocol}//"`,
    );
  }
  return raw;
}

function fileUrlSecret(env: Env): string | null {
  const raw = value(env, 'FILE_URL_SECRET');
  if (raw === undefined) return null;
  // The value itself is never part of the message.
  if (raw.length < 32)
    throw new ConfigError('FILE_URL_SECRET', `must be at least 32 characters long, got ${raw.length}`);
  return raw;
}

const GRAPH_CREDENTIALS = ['GRAPH_TENANT_ID', 'GRAPH_CLIENT_ID', 'GRAPH_CLIENT_SECRET'] as const;

/** An http(s) URL for Graph; plain http only on the loopback (a local stand-in), since the client secret travels to it. */
function graphUrl(env: Env, name: string, fallback: string, httpsOnly = false): string {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a valid URL, got "${raw}"`);
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.username || url.password || url.search || url.hash)
    throw new ConfigError(name, 'must be a plain URL without credentials, query or fragment');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && !httpsOnly)) {
    throw new ConfigError(
      name,
      `must start with https://${httpsOnly ? '' : ' (http:// only for localhost)'}, got "${url.protocol}//"`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** GRAPH_*: all three credentials or none. The secret itself never appears in a message. */
function graphConfig(env: Env): GraphConfig | null {
  const present = GRAPH_CREDENTIALS.filter((name) => value(env, name) !== undefined);
  if (present.length === 0) return null;
  const missing = GRAPH_CREDENTIALS.find((name) => value(env, name) === undefined);
  if (missing)
    throw new ConfigError(
      missing,
      `must be set: Microsoft Graph needs ${GRAPH_CREDENTIALS.join(', ')} (set all three or none)`,
    );
  const tenantId = value(env, 'GRAPH_TENANT_ID')!;
  if (!/^[A-Za-z0-9.-]{1,100}$/.test(tenantId))
    throw new ConfigError('GRAPH_TENANT_ID', 'must be a tenant id (a GUID) or domain name');
  return {
    tenantId,
    clientId: value(env, 'GRAPH_CLIENT_ID')!,
    clientSecret: value(env, 'GRAPH_CLIENT_SECRET')!,
    authorityUrl: graphUrl(env, 'GRAPH_AUTHORITY_URL', 'https://login.microsoftonline.com'),
    apiUrl: graphUrl(env, 'GRAPH_API_URL', 'https://graph.microsoft.com/v1.0'),
    notificationUrl:
      value(env, 'GRAPH_NOTIFICATION_URL') === undefined ? null : graphUrl(env, 'GRAPH_NOTIFICATION_URL', '', true),
  };
}

/** The repository root: the folder above api/ (this file is api/src/config.ts). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): AppConfig {
  const dataDir = path.resolve(cwd, value(env, 'DATA_DIR') ?? './.data');

  const databaseUrl = value(env, 'DATABASE_URL') ?? null;
  if (databaseUrl !== null) {
    let url: URL;
    try {
      url = new URL(databaseUrl);
    } catch {
      throw new ConfigError(
        'DATABASE_URL',
        'is not a valid URL (expected postgres://user:password@host:port/database)',
      );
    }
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
      throw new ConfigError('DATABASE_URL', `must start with postgres:// or postgresql://, got "${url.protocol}//"`);
    }
  }

  const manifestJson = value(env, 'REMOTES_MANIFEST');
  const manifestFile = value(env, 'REMOTES_MANIFEST_FILE');
  if (manifestJson !== undefined && manifestFile !== undefined) {
    throw new ConfigError('REMOTES_MANIFEST', 'and REMOTES_MANIFEST_FILE are both set: set only one');
  }
  let remotesManifest: RemotesManifest | null = null;
  if (manifestJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(manifestJson);
    } catch {
      throw new ConfigError('REMOTES_MANIFEST', 'is not valid JSON');
    }
    const result = remotesManifestSchema.safeParse(parsed);
    if (!result.success) {
      throw new ConfigError('REMOTES_MANIFEST', 'must be a JSON object of remote name -> manifest URL');
    }
    remotesManifest = result.data;
  }

  const port = integer(env, 'PORT', 8080, 0, 65535);
  const configuredPublicUrl = publicOrigin(env);
  if (configuredPublicUrl === null && value(env, 'NODE_ENV') === 'production') {
    throw new ConfigError(
      'PUBLIC_URL',
      'must be set when NODE_ENV=production: it is the one origin the portal builds its links and single sign-on URLs on (for example https://portal.example.com)',
    );
  }

  return {
    port,
    host: value(env, 'HOST') ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    sqlitePath: path.join(dataDir, 'portal.sqlite'),
    brandName: value(env, 'BRAND_NAME') ?? 'Tevora',
    apiVersion: value(env, 'API_VERSION') ?? 'dev',
    uiVersion: value(env, 'UI_VERSION') ?? 'dev',
    webRoot: path.resolve(cwd, value(env, 'WEB_ROOT') ?? REPO_ROOT),
    remotesManifest,
    remotesManifestFile: manifestFile === undefined ? null : path.resolve(cwd, manifestFile),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 480, 1, 525_600),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', 168, 1, 87_600),
    // Without a configured secret the flag service's secure-mode hash changes on every restart.
    flagHmacSecret: value(env, 'FLAG_HMAC_SECRET') ?? randomBytes(32).toString('hex'),
    // Off by default: otherwise any client could pick its own address (rate limits) by sending X-Forwarded-For.
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    bodyLimitBytes: 1024 * 1024,
    smtpUrl: serviceUrl(env, 'SMTP_URL', ['smtp:', 'smtps:'], 'smtp://user:password@host:587'),
    mailFrom: value(env, 'MAIL_FROM') ?? `${value(env, 'BRAND_NAME') ?? 'Tevora'} Portal <no-reply@localhost>`,
    redisUrl: serviceUrl(env, 'REDIS_URL', ['redis:', 'rediss:'], 'redis://host:6379'),
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 600, 1, 1_000_000),
    rateLimitWindowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
    staffPasswordPolicy: {
      minimumLength: integer(env, 'STAFF_PASSWORD_MIN_LENGTH', DEFAULT_PASSWORD_POLICY.minimumLength, 8, 128),
      rotationInDays: integer(env, 'STAFF_PASSWORD_ROTATION_DAYS', DEFAULT_PASSWORD_POLICY.rotationInDays, 0, 3650),
    },
    publicUrl: configuredPublicUrl ?? `http://localhost:${port}`,
    servedHosts: servedHosts(configuredPublicUrl, port, allowedHosts(env)),
    samlSpEntityId: value(env, 'SAML_SP_ENTITY_ID') ?? null,
    uploadMaxBytes: integer(env, 'UPLOAD_MAX_BYTES', UPLOAD_MAX_BYTES_DEFAULT, 1, 10 * 1024 * 1024 * 1024),
    signedUrlTtlSeconds: integer(env, 'SIGNED_URL_TTL_SECONDS', SIGNED_URL_TTL_SECONDS_DEFAULT, 5, 3600),
    fileUrlSecret: fileUrlSecret(env),
    storageSweepGraceMinutes: integer(env, 'STORAGE_SWEEP_GRACE_MINUTES', 15, 1, 10_080),
    requestReminderMinutes: integer(env, 'REQUEST_REMINDER_MINUTES', 15, 0, 1440),
    graph: graphConfig(env),
  };
}
