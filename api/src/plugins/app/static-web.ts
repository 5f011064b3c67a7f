import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { REMOTES } from '@portal/shared/core/modules';
import { HttpError } from '../../lib/http-error';
import { applyOverrides, overridesOf } from '../../modules/web/remote-overrides';
import { remotesFor } from '../../modules/web/remotes-manifest';
import { getAuth } from './auth';

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Entry points that name the current build: always revalidated, whatever their name. */
const ENTRY_FILES = new Set(['index.html', 'remotes.json', 'mf-manifest.json', 'mf-stats.json', 'remoteEntry.js']);
const CONTENT_HASH = /\.[0-9a-f]{8,}\./i;

export function cacheControlFor(fileName: string): string {
  if (ENTRY_FILES.has(fileName)) return NO_CACHE;
  return CONTENT_HASH.test(fileName) ? IMMUTABLE : NO_CACHE;
}

/**
 * `pathname` (absolute: `..` stops at the top) when it names a file under `root` now, else null. Only
 * picks between a file and the fallbacks: @fastify/static serves the file, with its own path checks.
 */
async function fileIn(root: string, pathname: string): Promise<string | null> {
  const relative = path.posix.normalize(pathname);
  try {
    return (await fs.promises.stat(path.join(root, relative))).isFile() ? relative : null;
  } catch {
    return null;
  }
}

/**
 * A page: plugins/app/security-headers.ts gives every HTML response its own CSP nonce, written into the page,
 * so a page is read whole here, never stored nor revalidated (a 304 would pair the cached page's nonce
 * with a new header's).
 */
async function sendPage(reply: FastifyReply, file: string) {
  return reply
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(await fs.promises.readFile(file));
}

/**
 * Any other file goes through @fastify/static: content type, validators (304 on revalidation) and the
 * brotli or gzip copy the build wrote next to it (`<file>.br`, `<file>.gz`) when the browser accepts it.
 */
function sendFile(
  reply: FastifyReply,
  root: string,
  relative: string,
  cacheControl = cacheControlFor(path.posix.basename(relative)),
) {
  if (path.posix.extname(relative).toLowerCase() === '.html') return sendPage(reply, path.join(root, relative));
  return reply.header('cache-control', cacheControl).sendFile(relative, root);
}

function notBuilt(reply: FastifyReply) {
  return reply
    .code(503)
    .header('cache-control', NO_CACHE)
    .type('text/plain; charset=utf-8')
    .send('The web app is not built yet: run `npm run build`, then reload this page.\n');
}

function plainNotFound(reply: FastifyReply) {
  return reply.code(404).header('cache-control', NO_CACHE).type('text/plain; charset=utf-8').send('Not found\n');
}

function decodePath(url: string): string | null {
  const pathname = url.split('?')[0].split('#')[0];
  try {
    const decoded = decodeURIComponent(pathname);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}

/**
 * Serves the built shell at `/`, each remote's build at `/remotes/<name>/`, its published releases at
 * `/releases/<name>/<release>/` (immutable: cached for a year), and `/remotes.json` (the
 * entries of the manifest in force this user may mount); files
 * through @fastify/static (`reply.sendFile`), pages and the choice of file here.
 * Files are looked up on every request, so dist folders may be missing at start and replaced at run time.
 */
export default fp(
  async function staticWeb(app: FastifyInstance) {
    const { webRoot } = app.config;
    const shellRoot = path.resolve(webRoot, 'shell', 'dist');
    const releasesRoot = path.resolve(webRoot, 'releases');
    const remoteRoots = new Map<string, string>(REMOTES.map((name) => [name, path.resolve(webRoot, name, 'dist')]));

    // no routes of its own: the route below picks the file. Cache-Control is set per file, above.
    await app.register(fastifyStatic, { serve: false, preCompressed: true, index: false, cacheControl: false });

    // The remotes this user may mount (modules/web/remotes-manifest.ts): per user, so never shared by a cache.
    // A staff member's own overrides (modules/web/remote-overrides.ts) replace the URLs for their browser.
    app.get('/remotes.json', async (request, reply) => {
      const auth = await getAuth(request);
      const manifest = await app.remotesManifest.current();
      const inForce = await remotesFor(app.db, manifest, await app.remoteDeclarations.of(manifest), auth?.user ?? null);
      const listed = auth ? applyOverrides(inForce, await overridesOf(request, auth.user)) : inForce;
      return reply.header('cache-control', 'private, no-cache').header('vary', 'cookie').send(listed);
    });

    app.get('/*', async (request, reply) => {
      const pathname = decodePath(request.url);
      if (pathname === null) throw new HttpError(400, 'bad_request', 'The path is not valid.');
      if (/^\/(api|auth)(\/|$)/.test(pathname)) {
        throw new HttpError(404, 'not_found', `No route for ${request.method} ${pathname}`);
      }

      // An immutable release (modules/web/releases.ts): nothing at its path ever changes.
      const release = /^\/releases\/[a-z][a-z0-9-]*\/[0-9A-Za-z][0-9A-Za-z.+-]*\/./.exec(pathname);
      if (release || pathname === '/releases' || pathname.startsWith('/releases/')) {
        const file = release ? await fileIn(releasesRoot, pathname.slice('/releases'.length)) : null;
        return file ? sendFile(reply, releasesRoot, file, IMMUTABLE) : plainNotFound(reply);
      }

      const remote = /^\/remotes\/([^/]+)(\/.*)?$/.exec(pathname);
      if (remote || pathname === '/remotes') {
        const root = remote ? remoteRoots.get(remote[1]) : undefined;
        const relative = remote?.[2] ?? '/';
        const file = root && !relative.endsWith('/') ? await fileIn(root, relative) : null;
        // A missing remote file is a 404, never the shell's index.html: the loader must see the failure.
        return root && file ? sendFile(reply, root, file) : plainNotFound(reply);
      }

      if (pathname !== '/' && !pathname.endsWith('/')) {
        const file = await fileIn(shellRoot, pathname);
        if (file) return sendFile(reply, shellRoot, file);
      }
      const wantsPage = pathname === '/' || (request.headers.accept ?? '').includes('text/html');
      if (!wantsPage) throw new HttpError(404, 'not_found', `No file at ${pathname}`);
      // Client-side routes: the shell's router decides what to show.
      return (await fileIn(shellRoot, '/index.html'))
        ? sendPage(reply, path.join(shellRoot, 'index.html'))
        : notBuilt(reply);
    });
  },
  // its refusals answer in the api's error shape; its pages get the security headers' CSP nonce
  { name: 'static-web', dependencies: ['error-handler', 'security-headers', 'remotes-manifest', 'auth'] },
);
