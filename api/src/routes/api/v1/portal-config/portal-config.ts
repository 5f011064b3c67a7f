import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/portal/api';
import { route } from '../../../../lib/contract';

/** What the web needs before anyone signs in: the brand (BRAND_NAME, the portal's {brand}) and the versions. */
export default async function portalConfigRoutes(app: FastifyInstance) {
  route(app, api.getPortalConfig, async (_request, reply) => {
    const { brandName, apiVersion, uiVersion } = app.config;
    // Revalidated on every start: a changed brand or a new deployment shows without a stale copy.
    reply.header('cache-control', 'no-cache');
    return { brandName, apiVersion, uiVersion };
  });
}
