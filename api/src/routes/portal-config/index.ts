import type { FastifyInstance } from 'fastify';
import type { PortalConfig } from '@portal/shared/core/schemas';

/** What the web needs before anyone signs in: the brand (BRAND_NAME, the portal's {brand}) and the versions. */
export default async function portalConfigRoutes(app: FastifyInstance) {
  app.get('/api/v1/portal-config', { config: { policy: 'public' } }, async (_request, reply) => {
    const { brandName, apiVersion, uiVersion } = app.config;
    const body: PortalConfig = { brandName, apiVersion, uiVersion };
    // Revalidated on every start: a changed brand or a new deployment shows without a stale copy.
    return reply.header('cache-control', 'no-cache').send(body);
  });
}
