import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/portal/api';
import type { PortalRemote } from '@portal/shared/core/schemas';
import { route } from '../../../../lib/contract';
import { getAuth } from '../../../../plugins/app/auth';

/**
 * What the web needs at start: the brand (BRAND_NAME, the portal's {brand}), the versions and, for a
 * signed-in user, every remote of the manifest in force with what it declares (module gate, routes,
 * navigation: modules/web/remote-declarations.ts). The shell builds its routes and menu from them and
 * shows a remote where the selected company's module access allows it; before sign-in there are none.
 */
export default async function portalConfigRoutes(app: FastifyInstance) {
  route(app, api.getPortalConfig, async (request, reply) => {
    const { brandName, apiVersion, uiVersion } = app.config;
    const remotes: PortalRemote[] = [];
    if (await getAuth(request)) {
      const manifest = await app.remotesManifest.current();
      for (const [name, declaration] of await app.remoteDeclarations.of(manifest))
        remotes.push({ name, ...declaration });
      remotes.sort((a, b) => a.name.localeCompare(b.name));
    }
    // Revalidated on every start: a changed brand, a new deployment or a new remote shows without a
    // stale copy. It differs by user (signed in or not).
    reply.header('cache-control', 'private, no-cache').header('vary', 'cookie');
    return { brandName, apiVersion, uiVersion, remotes };
  });
}
