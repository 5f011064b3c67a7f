import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config';
import type { Database } from './db/schema';
import authPlugin from './plugins/auth';
import csrfPlugin from './plugins/csrf';
import errorHandlerPlugin from './plugins/error-handler';
import policiesPlugin from './plugins/policies';
import requestContextPlugin from './plugins/request-context';
import staticWebPlugin from './plugins/static-web';
import authRoutes from './routes/auth';
import companiesRoutes from './routes/companies';
import healthRoutes from './routes/health';
import usersRoutes from './routes/users';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    config: AppConfig;
  }
}

export interface BuildAppOptions {
  db: Kysely<Database>;
  config: AppConfig;
  /** Off unless given (tests); server.ts passes `loggerOptions()`. */
  logger?: FastifyServerOptions['logger'];
}

/** Production logging: secrets in headers never reach the log (bodies are not logged at all). */
export function loggerOptions(level = process.env.LOG_LEVEL ?? 'info'): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', 'headers.cookie', 'headers.authorization'],
      censor: '[redacted]',
    },
  };
}

/** The whole api, ready for `listen` or `inject`. */
export function buildApp({ db, config, logger = false }: BuildAppOptions): FastifyInstance {
  const app = Fastify({
    logger,
    // Our own id for every request; an id sent by the client is not trusted.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
  });
  app.decorate('db', db);
  app.decorate('config', config);

  // External plugins first, then ours, then the routes (fastify demo order).
  app.register(cookie);
  app.register(formbody, { bodyLimit: config.bodyLimitBytes });
  app.register(requestContextPlugin);
  app.register(errorHandlerPlugin);
  app.register(csrfPlugin);
  app.register(authPlugin);
  app.register(policiesPlugin);
  app.register(staticWebPlugin);

  app.register(healthRoutes);
  app.register(authRoutes);
  app.register(usersRoutes);
  app.register(companiesRoutes);
  return app;
}
