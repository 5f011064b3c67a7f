import { randomUUID } from 'node:crypto';
import path from 'node:path';
import autoload from '@fastify/autoload';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config';
import { OneLinePerRequest } from './logging';
import type { Database } from './db/schema';
import { querystringParser, serializerCompiler, validatorCompiler } from './lib/contract';
import { systemTxtResolver, type TxtResolver } from './lib/dns';
import type { FileKind } from './lib/file-kinds';
import { closeParsePool } from './lib/spreadsheet-pool';
import { sendError } from './plugins/app/error-handler';
import { setRequestContextHeaders } from './plugins/app/request-context';
import { setBaseSecurityHeaders } from './plugins/app/security-headers';
import startQueuePlugin from './plugins/app/start-queue';
// The types of what autoloaded plugins add (request.cookies, app.mailer, app.liveEvents, app.remotesManifest), for a
// program that reaches the app only through this file (bench/).
import type {} from '@fastify/cookie';
import type {} from './plugins/app/live-events';
import type {} from './plugins/app/mailer';
import type {} from './plugins/app/remotes-manifest';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    config: AppConfig;
  }
}

/**
 * What @fastify/autoload loads: every .ts (or, built, .js) file but tests and type declarations. A
 * file that does not export a plugin as its default is skipped; helpers live in modules/ and lib/.
 * (`options: {}`: autoload 6.5 reads `options.prefix` when a plugin's `autoConfig` is a function.)
 */
const AUTOLOADED = { ignorePattern: /(?:\.test\.[cm]?[jt]s|\.d\.ts)$/, options: {} } as const;

export interface BuildAppOptions {
  db: Kysely<Database>;
  config: AppConfig;
  /** Off unless given (tests); server.ts passes `loggerOptions()` (logging.ts). */
  logger?: FastifyServerOptions['logger'];
  /** DNS TXT lookups (domain verification); the system's resolvers unless given. */
  resolveTxt?: TxtResolver;
}

/** The whole api, ready for `listen` or `inject`. */
export function buildApp({ db, config, logger = false, resolveTxt }: BuildAppOptions): FastifyInstance {
  const app = Fastify({
    logger,
    // one log line per request, when it has been answered (logging.ts)
    logController: new OneLinePerRequest(),
    // Our own id for every request; an id sent by the client is not trusted.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    // `key[]=a&key[]=b` and `key=a&key=b` reach the schemas as one list (lib/contract.ts).
    routerOptions: { querystringParser },
    // fastify's own early refusals (a path parameter over 100 characters, a URL that does not decode)
    // answer in the api's error shape too: no id is that long, so the first is "not found".
    // (these replies skip the onSend hooks: the standard headers are set here)
    frameworkErrors: (error, request, reply) => {
      setRequestContextHeaders(request, reply, config);
      setBaseSecurityHeaders(request, reply);
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
        return sendError(request, reply, 404, {
          code: 'not_found',
          message: 'Not found: a value in the path is too long to name anything',
        });
      return sendError(request, reply, 400, { code: 'bad_request', message: 'The URL could not be read' });
    },
  });
  // Each route's input is checked with its operation's zod schemas and its answer serialized from
  // the answer's schema (lib/contract.ts); the tests also check every answer against it.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler(process.env.NODE_ENV === 'test'));
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('resolveTxt', resolveTxt ?? systemTxtResolver());
  // The kinds of stored file the download routes serve (lib/file-kinds.ts): the routes of each kind
  // add theirs; decorated here so that a test's `extend` can add one before the routes load.
  app.decorate('fileKinds', [] as FileKind[]);
  // The spreadsheet parse workers, if an import started them (after the files being read are done).
  app.addHook('onClose', closeParsePool);

  // fastify's demo order: third-party plugins, ours, then the routes, each folder autoloaded
  // (docs/adr/0011-api-tree-and-autoload.md). In a folder, a plugin comes after the plugins its
  // fastify-plugin `dependencies` name (autoload registers those first), else in file name order.
  //
  // Not autoloaded: requests start in arrival order before any other hook runs, @fastify/cookie's
  // included (plugins/app/start-queue.ts, docs/adr/0005), so it is registered before the folders.
  app.register(startQueuePlugin);
  // plugins/external: @fastify/cookie, formbody, multipart and swagger, with their options.
  app.register(autoload, { dir: path.join(__dirname, 'plugins/external'), ...AUTOLOADED });
  // plugins/app, in the order their dependencies give: auth, error-handler, request-context,
  // security-headers, canonical-host, csrf, live-events, mailer, policies, rate-limit,
  // request-reminders, static-web, storage (app.test.ts checks the order that matters).
  app.register(autoload, { dir: path.join(__dirname, 'plugins/app'), ...AUTOLOADED });
  // routes: each folder gives its files' prefix (routes/api/v1/companies/teams.ts: /api/v1/companies);
  // route() registers each operation's path below it and refuses one outside it (lib/contract.ts).
  app.register(autoload, { dir: path.join(__dirname, 'routes'), dirNameRoutePrefix: true, ...AUTOLOADED });
  return app;
}
