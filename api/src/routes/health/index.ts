import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../../db/database';
import { HttpError } from '../../lib/http-error';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/api/v1/health', { config: { policy: 'public' } }, async (request, reply) => {
    try {
      await pingDatabase(app.db);
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      throw new HttpError(503, 'service_unavailable', 'The database is unavailable.');
    }
    return reply
      .header('cache-control', 'no-store')
      .send({ status: 'ok', database: 'ok', apiVersion: app.config.apiVersion });
  });
}
