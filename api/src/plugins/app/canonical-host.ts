import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { parseHost, type ServedHost } from '../../config';
import { sendError } from './error-handler';

/** The health check answers whatever name a load balancer uses: it hands out no URL and reads nothing of the caller. */
const ANY_HOST_PATHS = new Set(['/api/v1/health']);

/**
 * Whether the request's host is one the portal answers. A Host without a port is the default port of
 * whatever scheme the client used; an entry without a port accepts any.
 */
export function isServedHost(servedHosts: readonly ServedHost[], host: string): boolean {
  const given = parseHost(host);
  if (!given) return false;
  return servedHosts.some(
    (h) => h.hostname === given.hostname && (h.port === null || given.port === null || h.port === given.port),
  );
}

function pathOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}

/**
 * One canonical origin: a request sent to a name the portal does not serve is answered 421 before
 * anything else runs, so no link, redirect or SAML check can be built on a Host a client chose.
 * (The URLs themselves come from PUBLIC_URL; this refuses the rest early and plainly.)
 */
export default fp(
  async function canonicalHost(app: FastifyInstance) {
    const { servedHosts } = app.config;
    // a hook with a callback (it runs on every request): answering, it does not call done
    app.addHook('onRequest', (request, reply, done) => {
      if (isServedHost(servedHosts, request.host) || ANY_HOST_PATHS.has(pathOf(request))) return done();
      request.log.warn({ host: request.host }, 'request to a host the portal does not serve');
      sendError(request, reply, 421, {
        code: 'misdirected_request',
        message: `This address is not served here: open the portal at ${app.config.publicUrl}`,
      });
    });
  },
  // refusals (421) answer in the api's error shape and carry the security headers (helmet's onRequest hook runs first)
  { name: 'canonical-host', dependencies: ['error-handler', 'security-headers'] },
);
