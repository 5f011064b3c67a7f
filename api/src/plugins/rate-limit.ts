import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/http-error';
import { createRateLimitStore, type RateLimitStore } from '../lib/rate-limit';
import { getAuth } from './auth';

declare module 'fastify' {
  interface FastifyInstance {
    apiRateLimitStore: RateLimitStore;
  }
}

/** Load balancers poll the health check from one address: it is never limited. */
const EXEMPT = new Set(['/api/v1/health']);

function isApiPath(path: string): boolean {
  return path === '/api/v1' || path.startsWith('/api/v1/');
}

/**
 * The api limiter: RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_SECONDS under /api/v1, per session,
 * or per client address for callers without one. Over the limit: 429 `too_many_requests` with
 * Retry-After (the web shows its "Too Many Requests" toast).
 */
export default fp(
  async function rateLimit(app: FastifyInstance) {
    const { rateLimitMax: max, rateLimitWindowSeconds, redisUrl } = app.config;
    const windowMs = rateLimitWindowSeconds * 1000;
    const store = await createRateLimitStore({ redisUrl, log: app.log });
    app.decorate('apiRateLimitStore', store);
    app.addHook('onClose', () => store.close());

    app.addHook('onRequest', async (request, reply) => {
      const path = request.url.split('?')[0];
      if (!isApiPath(path) || EXEMPT.has(path)) return;
      const auth = await getAuth(request);
      const key = auth ? `session:${auth.session.id}` : `address:${request.ip}`;
      const { hits, resetAt } = await store.hit(key, windowMs);
      const resetSeconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
      reply.header('ratelimit-limit', max);
      reply.header('ratelimit-remaining', Math.max(0, max - hits));
      reply.header('ratelimit-reset', resetSeconds);
      if (hits > max) {
        reply.header('retry-after', resetSeconds);
        throw new HttpError(
          429,
          'too_many_requests',
          `Too many requests: please wait ${resetSeconds} seconds and try again.`,
        );
      }
    });
  },
  { name: 'rate-limit', dependencies: ['auth', 'error-handler'] },
);
