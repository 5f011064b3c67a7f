import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RemotesManifest } from '@portal/shared/core/schemas';
import { overridesOf, REMOTE_OVERRIDES_COOKIE } from '../../modules/web/remote-overrides';
import { getAuth } from './auth';

/** Sign-in form: its POST may answer with a 303 to the company's identity provider (routes/auth/auth.ts). */
const SIGN_IN_PATH = '/auth/saml/login';

/** The Strict-Transport-Security helmet sends over TLS (its default: a year, subdomains too). */
export const HSTS = 'max-age=31536000; includeSubDomains';
const HSTS_OPTIONS = { maxAge: 31_536_000, includeSubDomains: true, preload: false };

/**
 * helmet's headers on every answer: nosniff, X-Frame-Options DENY and the referrer policy. The rest of
 * its set is off: HSTS goes only over TLS, and the Content-Security-Policy is ours, on HTML only.
 */
const HELMET_OPTIONS = {
  contentSecurityPolicy: false,
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  referrerPolicy: { policy: 'same-origin' },
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: 'deny' },
  xPermittedCrossDomainPolicies: false,
  xPoweredBy: false,
  xXssProtection: false,
} satisfies FastifyHelmetOptions;

type Middleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;
// helmet itself, the copy @fastify/helmet runs, for the early refusals that run no hook (app.ts)
const helmetMiddleware: (options: FastifyHelmetOptions) => Middleware = createRequire(
  require.resolve('@fastify/helmet'),
)('helmet');
const baseHeaders = helmetMiddleware(HELMET_OPTIONS);
const baseHeadersOverTls = helmetMiddleware({ ...HELMET_OPTIONS, strictTransportSecurity: HSTS_OPTIONS });

/**
 * The origins remotes are served from when not the portal's own (a CDN, a dev server on :3001–3004):
 * each remote's manifest URL's origin.
 */
export function remoteOrigins(manifest: RemotesManifest): string[] {
  const origins = new Set<string>();
  for (const entry of Object.values(manifest)) {
    let url: URL;
    try {
      url = new URL(entry, 'http://portal.invalid');
    } catch {
      continue;
    }
    if (url.origin === 'http://portal.invalid' || (url.protocol !== 'http:' && url.protocol !== 'https:')) continue;
    origins.add(url.origin);
  }
  return [...origins];
}

export interface PolicyInput {
  nonce: string;
  /** From `remoteOrigins`. */
  remotes?: string[];
  /**
   * Where forms may submit. The sign-in page also needs the identity providers it redirects to, which are
   * per company and not to be listed to anonymous visitors: any https origin, or http on this machine
   * (a test identity provider, as shared/core/schemas.ts `isIdentityProviderUrl` allows).
   */
  signIn?: boolean;
}

/** The Content-Security-Policy of an HTML page the api serves: the shell, the /auth pages. */
export function contentSecurityPolicy({ nonce, remotes = [], signIn = false }: PolicyInput): string {
  const remoteHosts = remotes.join(' ');
  // a remote's dev server (http) reloads over a web socket on its own origin
  const sockets = remotes
    .filter((origin) => origin.startsWith('http:'))
    .map((origin) => origin.replace(/^http/, 'ws'))
    .join(' ');
  const withRemotes = (...sources: string[]) => [...sources, remoteHosts].filter(Boolean).join(' ');
  return [
    "default-src 'self'",
    `script-src ${withRemotes("'self'")}`,
    // antd's CSS-in-JS and webpack's style tags carry the nonce (shell/src/csp-nonce.ts); a remote may link its CSS
    `style-src ${withRemotes("'self'", `'nonce-${nonce}'`)}`,
    "img-src 'self' data: blob:",
    `connect-src ${[withRemotes("'self'"), sockets].filter(Boolean).join(' ')}`,
    `font-src ${withRemotes("'self'", 'data:')}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${signIn ? ' https: http://localhost:* http://127.0.0.1:*' : ''}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Gives the page's own `<style>` and `<script>` tags the nonce and tells the shell the nonce in
 * `<meta name="csp-nonce" nonce="…">` (read as `meta.nonce`: browsers hide nonce attributes from CSS and the DOM).
 * Only markup the api wrote passes here: every value in it is escaped, so a tag is always ours.
 */
export function injectCspNonce(html: string, nonce: string): string {
  const tagged = html.replace(/<(script|style)\b(?![^>]*\snonce=)/gi, `<$1 nonce="${nonce}"`);
  return tagged.replace(/<head\b[^>]*>/i, (head) => `${head}<meta name="csp-nonce" nonce="${nonce}">`);
}

async function policyFor(app: FastifyInstance, request: FastifyRequest, nonce: string): Promise<string> {
  // the whole manifest in force (its last good version when REMOTES_MANIFEST_FILE breaks), not one
  // user's part, and the addresses this browser's staff overrides load remotes from
  const manifest = await app.remotesManifest.current();
  const auth = request.cookies[REMOTE_OVERRIDES_COOKIE] ? await getAuth(request) : null;
  const overrides = auth ? await overridesOf(request, auth.user) : {};
  const remotes = remoteOrigins({ ...manifest, ...overrides });
  return contentSecurityPolicy({ nonce, remotes, signIn: request.url.split('?')[0] === SIGN_IN_PATH });
}

function isHtml(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^text\/html\b/i.test(contentType);
}

/**
 * helmet's headers for fastify's early refusals in app.ts, which run no hook (the plugin below sets
 * them on every other reply).
 */
export function setBaseSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  (request.protocol === 'https' ? baseHeadersOverTls : baseHeaders)(request.raw, reply.raw, () => undefined);
}

/**
 * Security headers on every reply (api, pages, static files, errors), by @fastify/helmet: nosniff,
 * no framing, the referrer policy, HSTS over TLS (`request.protocol` follows X-Forwarded-Proto only
 * with TRUST_PROXY). Ours: on HTML, a Content-Security-Policy with a nonce of its own. A header a
 * route set itself (a download's sandbox CSP, the /auth pages' referrer policy) is kept.
 */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    await app.register(helmet, HELMET_OPTIONS);
    app.addHook('onRequest', (request, reply, done) => {
      if (request.protocol === 'https') reply.helmet({ strictTransportSecurity: HSTS_OPTIONS });
      done();
    });

    // A callback hook, not an async one: the answers that are not HTML (nearly all) pass without a promise.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!isHtml(reply.getHeader('content-type')) || reply.hasHeader('content-security-policy'))
        return done(null, payload);
      // a file download's bytes go out as they are
      if (/^attachment\b/i.test(String(reply.getHeader('content-disposition') ?? ''))) return done(null, payload);

      const nonce = randomBytes(16).toString('base64');
      policyFor(app, request, nonce).then((policy) => {
        reply.header('content-security-policy', policy);
        if (typeof payload === 'string') return done(null, injectCspNonce(payload, nonce));
        if (Buffer.isBuffer(payload)) return done(null, injectCspNonce(payload.toString('utf8'), nonce));
        done(null, payload);
      }, done);
    });
  },
  // onSend: the request's id and versions are set first (request-context), as before autoload
  { name: 'security-headers', dependencies: ['request-context', 'remotes-manifest', 'auth'] },
);
