/**
 * `app.remotesManifest` (modules/web/remotes-manifest.ts): the remotes manifest in force, kept at its
 * last good version when REMOTES_MANIFEST_FILE breaks. Read by /remotes.json (static-web.ts) and by the
 * pages' Content-Security-Policy (security-headers.ts), which allows the remotes' origins.
 * `app.remoteDeclarations` (modules/web/remote-declarations.ts): what each of its remotes declares
 * (module gate, routes, navigation), for /remotes.json and the portal config.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { remoteDeclarations, type RemoteDeclarations } from '../../modules/web/remote-declarations';
import { remotesManifestSource, type RemotesManifestSource } from '../../modules/web/remotes-manifest';

declare module 'fastify' {
  interface FastifyInstance {
    remotesManifest: RemotesManifestSource;
    remoteDeclarations: RemoteDeclarations;
  }
}

export default fp(
  async function remotesManifest(app: FastifyInstance) {
    app.decorate('remotesManifest', remotesManifestSource(app.config, app.log));
    app.decorate('remoteDeclarations', remoteDeclarations(app.config.webRoot, app.log));
  },
  { name: 'remotes-manifest' },
);
