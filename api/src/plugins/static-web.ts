import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { REMOTES } from '@portal/shared/core/modules';
import { remotesManifestSchema, type RemotesManifest } from '@portal/shared/core/schemas';
import type { AppConfig } from '../config';
import { HttpError } from '../lib/http-error';
import { sendError } from './error-handler';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

/** Text worth compressing; smaller files go as they are (the headers would outweigh the gain). */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.cjs', '.css', '.json', '.map', '.txt', '.svg', '.webmanifest']);
const COMPRESS_MIN_BYTES = 1024;

export type ContentEncoding = 'br' | 'gzip';

/** The encoding to answer with for an Accept-Encoding header: brotli, else gzip, else none (q=0 refuses). */
export function preferredEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  const offered = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    offered.set(name, q ? Number(q.slice(2)) : 1);
  }
  const accepts = (encoding: string) => {
    const q = offered.get(encoding) ?? offered.get('*');
    return q !== undefined && q > 0;
  };
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Compressed copies of the served files, made once per file version (its etag) and encoding, off the
 * event loop (zlib's thread pool); requests for a copy being made share it. Oldest dropped first.
 */
const COMPRESSED_ENTRIES = 512;
const compressed = new Map<string, Promise<Buffer>>();

function compressedCopy(key: string, encoding: ContentEncoding, read: () => Promise<Buffer>): Promise<Buffer> {
  const cached = compressed.get(key);
  if (cached) return cached;
  const making = read().then((body) =>
    encoding === 'br'
      ? brotli(body, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        })
      : gzip(body, { level: 9 }),
  );
  compressed.set(key, making);
  making.catch(() => compressed.delete(key));
  while (compressed.size > COMPRESSED_ENTRIES) compressed.delete(compressed.keys().next().value as string);
  return making;
}

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Entry points that name the current build: always revalidated, whatever their name. */
const ENTRY_FILES = new Set(['index.html', 'remotes.json', 'mf-manifest.json', 'mf-stats.json', 'remoteEntry.js']);
const CONTENT_HASH = /\.[0-9a-f]{8,}\./i;

export function cacheControlFor(fileName: string): string {
  if (ENTRY_FILES.has(fileName)) return NO_CACHE;
  return CONTENT_HASH.test(fileName) ? IMMUTABLE : NO_CACHE;
}

export function defaultRemotesManifest(): RemotesManifest {
  return Object.fromEntries(REMOTES.map((name) => [name, `/remotes/${name}/mf-manifest.json`]));
}

/** The remotes manifest in force: REMOTES_MANIFEST_FILE read now, else REMOTES_MANIFEST, else the default. Throws when the file cannot be used. */
export async function currentRemotesManifest(
  config: Pick<AppConfig, 'remotesManifest' | 'remotesManifestFile'>,
): Promise<RemotesManifest> {
  if (!config.remotesManifestFile) return config.remotesManifest ?? defaultRemotesManifest();
  const parsed = remotesManifestSchema.safeParse(
    JSON.parse(await fs.promises.readFile(config.remotesManifestFile, 'utf8')),
  );
  if (!parsed.success) throw new Error(`not a map of remote name -> manifest URL: ${parsed.error.message}`);
  return parsed.data;
}

/** `relative` inside `root`, or null when it would escape it. */
function resolveInside(root: string, relative: string): string | null {
  const file = path.resolve(root, `.${path.posix.sep}${relative}`);
  return file === root || file.startsWith(root + path.sep) ? file : null;
}

async function statFile(file: string): Promise<fs.Stats | null> {
  try {
    const stats = await fs.promises.stat(file);
    return stats.isFile() ? stats : null;
  } catch {
    return null;
  }
}

/**
 * Sends a file read from disk now (a new build is served at once), with validators for no-cache revalidation,
 * compressed (brotli or gzip) when it is text of some size and the browser accepts it.
 * HTML is the exception: plugins/security-headers.ts gives every HTML response its own CSP nonce, so a page
 * is never stored nor revalidated (a 304 would pair the cached page's nonce with a new header's).
 */
async function sendFile(request: FastifyRequest, reply: FastifyReply, file: string, stats: fs.Stats) {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.html') {
    return reply
      .header('cache-control', 'no-store')
      .type(CONTENT_TYPES['.html'])
      .send(await fs.promises.readFile(file));
  }
  const compressible = COMPRESSIBLE.has(extension) && stats.size >= COMPRESS_MIN_BYTES;
  const encoding = compressible ? preferredEncoding(request.headers['accept-encoding']) : null;
  // each encoding is its own representation, with its own validator
  const version = `${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}`;
  const etag = `W/"${version}${encoding ? `-${encoding}` : ''}"`;
  reply
    .header('cache-control', cacheControlFor(path.basename(file)))
    .header('etag', etag)
    .header('last-modified', stats.mtime.toUTCString())
    .header('x-content-type-options', 'nosniff')
    .type(CONTENT_TYPES[extension] ?? 'application/octet-stream');
  if (compressible) reply.header('vary', 'accept-encoding');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  if (!encoding) return reply.send(await fs.promises.readFile(file));
  const body = await compressedCopy(`${file}\0${version}\0${encoding}`, encoding, () => fs.promises.readFile(file));
  return reply.header('content-encoding', encoding).send(body);
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
 * Serves the built shell at `/`, each remote's build at `/remotes/<name>/`, and `/remotes.json`.
 * Files are looked up on every request, so dist folders may be missing at start and replaced at run time.
 */
export default fp(
  async function staticWeb(app: FastifyInstance) {
    const { webRoot, remotesManifestFile } = app.config;
    const shellRoot = path.resolve(webRoot, 'shell', 'dist');
    const remoteRoots = new Map<string, string>(REMOTES.map((name) => [name, path.resolve(webRoot, name, 'dist')]));

    app.get('/remotes.json', async (request, reply) => {
      let manifest: RemotesManifest;
      try {
        manifest = await currentRemotesManifest(app.config);
      } catch (error) {
        request.log.error({ err: error, file: remotesManifestFile }, 'REMOTES_MANIFEST_FILE cannot be used');
        return sendError(request, reply.header('cache-control', NO_CACHE), 500, {
          code: 'internal_error',
          message: 'The remotes manifest (REMOTES_MANIFEST_FILE) is missing or invalid: see the server log.',
        });
      }
      return reply.header('cache-control', NO_CACHE).send(manifest);
    });

    app.get('/*', async (request, reply) => {
      const pathname = decodePath(request.url);
      if (pathname === null) throw new HttpError(400, 'bad_request', 'The path is not valid.');
      if (/^\/(api|auth)(\/|$)/.test(pathname)) {
        throw new HttpError(404, 'not_found', `No route for ${request.method} ${pathname}`);
      }

      const remote = /^\/remotes\/([^/]+)(\/.*)?$/.exec(pathname);
      if (remote || pathname === '/remotes') {
        const root = remote ? remoteRoots.get(remote[1]) : undefined;
        const relative = remote?.[2] ?? '/';
        const file = root && !relative.endsWith('/') ? resolveInside(root, relative) : null;
        const stats = file ? await statFile(file) : null;
        // A missing remote file is a 404, never the shell's index.html: the loader must see the failure.
        return file && stats ? sendFile(request, reply, file, stats) : plainNotFound(reply);
      }

      const indexFile = path.join(shellRoot, 'index.html');
      if (pathname !== '/' && !pathname.endsWith('/')) {
        const file = resolveInside(shellRoot, pathname);
        const stats = file ? await statFile(file) : null;
        if (file && stats) return sendFile(request, reply, file, stats);
      }
      const wantsPage = pathname === '/' || (request.headers.accept ?? '').includes('text/html');
      if (!wantsPage) throw new HttpError(404, 'not_found', `No file at ${pathname}`);
      // Client-side routes: the shell's router decides what to show.
      const indexStats = await statFile(indexFile);
      return indexStats ? sendFile(request, reply, indexFile, indexStats) : notBuilt(reply);
    });
  },
  { name: 'static-web' },
);
