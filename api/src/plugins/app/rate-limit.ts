import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../lib/http-error';
import { createRateLimitStore, type RateLimitStore } from '../../lib/rate-limit';
import { getAuth } from './auth';

declare module 'fastify' {
  interface FastifyInstance {
    apiRateLimitStore: RateLimitStore;
  }
}

/** Load balancers poll the health check from one address: it is never limited. */
const EXEMPT = new Set(['/api/v1/health']);

function isLimited(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0];
  return (path === '/api/v1' || path.startsWith('/api/v1/')) && !EXEMPT.has(path);
}

/**
 * The api limiter (@fastify/rate-limit): RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_SECONDS under
 * /api/v1, per session, or per client address for callers without one, counted in lib/rate-limit.ts's
 * store (Redis, or memory). Every limited answer carries the RateLimit-* headers; over the limit: 429
 * `too_many_requests` with Retry-After (the web shows its "Too Many Requests" toast).
 */
export default fp(
  async function apiRateLimit(app: FastifyInstance) {
    const { rateLimitMax, rateLimitWindowSeconds, redisUrl } = app.config;
    const store = await createRateLimitStore({ redisUrl, log: app.log });
    app.decorate('apiRateLimitStore', store);
    app.addHook('onClose', () => store.close());

    await app.register(rateLimit, {
      // not per route: one hook for every request, 404s included, in this plugin's place among the hooks
      global: false,
      max: rateLimitMax,
      timeWindow: rateLimitWindowSeconds * 1000,
      // the plugin makes its store with `new`: it gets this one, which the transfer routes count in too
      store: function apiStore() {
        return store;
      } as unknown as FastifyRateLimitStoreCtor,
      keyGenerator: async (request) => {
        const auth = await getAuth(request);
        return auth ? `session:${auth.session.id}` : `address:${request.ip}`;
      },
      // ratelimit-limit, ratelimit-remaining, ratelimit-reset (and retry-after when over)
      enableDraftSpec: true,
      errorResponseBuilder: (_request, { ttl }) =>
        new HttpError(
          429,
          'too_many_requests',
          `Too many requests: please wait ${Math.ceil(ttl / 1000)} seconds and try again.`,
        ),
    });

    const limit = app.rateLimit();
    // a hook with a callback: it runs on every request, and an async one costs a promise each time
    app.addHook('onRequest', function limitApi(request, reply, done) {
      if (!isLimited(request)) return done();
      limit.call(this, request, reply).then(() => done(), done);
    });
  },
  // a forged request (csrf, an onRequest hook like this one) is refused before it counts against the limit
  { name: 'rate-limit', dependencies: ['auth', 'error-handler', 'csrf'] },
);
