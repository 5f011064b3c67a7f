import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Every reply (api, static, errors, 404s) says which request it answers and which versions served it.
 * onSend runs for all of them, including replies built by the error and not-found handlers.
 */
export default fp(
  async function requestContext(app: FastifyInstance) {
    app.addHook('onSend', async (request, reply, payload) => {
      reply.header('x-request-id', request.id);
      reply.header('x-api-version', app.config.apiVersion);
      reply.header('x-ui-version', app.config.uiVersion);
      return payload;
    });
  },
  { name: 'request-context' },
);
