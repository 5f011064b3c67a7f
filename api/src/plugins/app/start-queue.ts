import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createStartQueue } from '../../lib/start-queue';

/**
 * The first hook of every request: it waits for its turn in arrival order (lib/start-queue.ts)
 * before anything else runs (sign-in, rate limit, policy, handler).
 */
/**
 * Not autoloaded: app.ts registers it by hand before the plugins/external autoload, so that its hook
 * comes before theirs (@fastify/cookie parses cookies in an onRequest hook).
 */
export const autoload = false;

export default fp(
  async function startQueue(app: FastifyInstance) {
    const queue = createStartQueue();
    app.addHook('onRequest', (_request, _reply, done) => {
      queue.enqueue(() => done());
    });
  },
  { name: 'start-queue' },
);
