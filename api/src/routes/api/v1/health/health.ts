import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/portal/api';
import { pingDatabase } from '../../../../db/database';
import { HttpError } from '../../../../lib/http-error';
import { route } from '../../../../lib/contract';

export default async function healthRoutes(app: FastifyInstance) {
  route(app, api.getHealth, async (request, reply) => {
    try {
      await pingDatabase(app.db);
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      throw new HttpError(503, 'service_unavailable', 'The database is unavailable.');
    }
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const, database: 'ok' as const, apiVersion: app.config.apiVersion };
  });
}
