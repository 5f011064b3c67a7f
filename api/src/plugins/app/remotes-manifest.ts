/**
 * `app.remotesManifest` (modules/web/remotes-manifest.ts): the remotes manifest in force, kept at its
 * last good version when REMOTES_MANIFEST_FILE breaks. Read by /remotes.json (static-web.ts) and by the
 * pages' Content-Security-Policy (security-headers.ts), which allows the remotes' origins.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { remotesManifestSource, type RemotesManifestSource } from '../../modules/web/remotes-manifest';

declare module 'fastify' {
  interface FastifyInstance {
    remotesManifest: RemotesManifestSource;
  }
}

export default fp(
  async function remotesManifest(app: FastifyInstance) {
    app.decorate('remotesManifest', remotesManifestSource(app.config, app.log));
  },
  { name: 'remotes-manifest' },
);
