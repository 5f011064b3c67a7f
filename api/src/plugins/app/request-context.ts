import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config';
import fp from 'fastify-plugin';

/** Which request a reply answers and which versions served it (also set by fastify's early refusals in app.ts). */
export function setRequestContextHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<AppConfig, 'apiVersion' | 'uiVersion'>,
): void {
  reply.header('x-request-id', request.id);
  reply.header('x-api-version', config.apiVersion);
  reply.header('x-ui-version', config.uiVersion);
}

/**
 * Every reply (api, static, errors, 404s) says which request it answers and which versions served it.
 * onSend runs for all of them, including replies built by the error and not-found handlers.
 */
export default fp(
  async function requestContext(app: FastifyInstance) {
    // a hook with a callback: an async one costs a promise and a microtask on every reply
    app.addHook('onSend', (request, reply, payload, done) => {
      setRequestContextHeaders(request, reply, app.config);
      done(null, payload);
    });
  },
  { name: 'request-context' },
);
