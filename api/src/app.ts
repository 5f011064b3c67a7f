import { randomUUID } from 'node:crypto';
import path from 'node:path';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config';
import { OneLinePerRequest } from './logging';
import type { Database } from './db/schema';
import { systemTxtResolver, type TxtResolver } from './lib/dns';
import liveEventsPlugin from './lib/live-events';
import type { FileKind } from './lib/file-kinds';
import { createStorage } from './lib/storage';
import { createMailer, type Mailer } from './lib/mailer';
import { closeParsePool } from './lib/spreadsheet-pool';
import authPlugin from './plugins/auth';
import canonicalHostPlugin from './plugins/canonical-host';
import { querystringParser, serializerCompiler, validatorCompiler } from './plugins/contract';
import csrfPlugin from './plugins/csrf';
import openapiPlugin from './plugins/openapi';
import errorHandlerPlugin, { sendError } from './plugins/error-handler';
import policiesPlugin from './plugins/policies';
import rateLimitPlugin from './plugins/rate-limit';
import requestContextPlugin, { setRequestContextHeaders } from './plugins/request-context';
import securityHeadersPlugin, { setBaseSecurityHeaders } from './plugins/security-headers';
import startQueuePlugin from './plugins/start-queue';
import staticWebPlugin from './plugins/static-web';
import authRoutes from './routes/auth';
import samlRoutes from './routes/auth/saml';
import companiesRoutes from './routes/companies';
import identityProviderRoutes, { companyDomainRoutes } from './routes/companies/identity-provider';
import passwordPolicyRoutes from './routes/companies/password-policy';
import featureFlagsRoutes from './routes/feature-flags';
import healthRoutes from './routes/health';
import notificationsRoutes from './routes/notifications';
import portalConfigRoutes from './routes/portal-config';
import systemSettingsRoutes from './routes/system-settings';
import usersRoutes from './routes/users';
import userPasswordRoutes from './routes/users/password';
import userProfileRoutes from './routes/users/profile';
import userAdminRoutes from './routes/users/admin';
import companyUsersRoutes from './routes/companies/users';
import companyManageRoutes from './routes/companies/manage';
import teamsRoutes from './routes/companies/teams';
import auditLogRoutes from './routes/audit-log';
import systemSettingFilesRoutes from './routes/system-settings/files';
import fileDownloadRoutes from './routes/files/download';
import projectsRoutes from './routes/projects';
import projectRosterRoutes from './routes/projects/roster';
import projectTasksRoutes from './routes/projects/tasks';
import projectControlsRoutes from './routes/projects/controls';
import projectFilesRoutes from './routes/projects/files';
import projectFoldersRoutes from './routes/projects/folders';
import documentsRoutes from './routes/projects/documents';
import transfersRoutes from './routes/transfers';
import practicesRoutes from './routes/practices';
import taskTrackersRoutes from './routes/practices/task-trackers';
import projectTaskTrackersRoutes from './routes/projects/task-trackers';
import interviewsRoutes from './routes/projects/interviews';
import requestsRoutes from './routes/requests';
import requestCommentsRoutes from './routes/requests/comments';
import requestFilesRoutes from './routes/requests/files';
import requestRemindersRoutes from './routes/requests/reminders';
import requestImportExportRoutes from './routes/requests/import-export';
import reportsRoutes from './routes/reports';
import docsRoutes from './routes/docs';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    config: AppConfig;
    mailer: Mailer;
  }
}

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
    // `key[]=a&key[]=b` and `key=a&key=b` reach the schemas as one list (plugins/contract.ts).
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
  // the answer's schema (plugins/contract.ts); the tests also check every answer against it.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler(process.env.NODE_ENV === 'test'));
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('resolveTxt', resolveTxt ?? systemTxtResolver());
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
  });
  app.decorate('mailer', mailer);
  // File bytes (lib/storage.ts) and the kinds of stored file the download routes serve (lib/file-kinds.ts).
  app.decorate('storage', createStorage(config));
  app.decorate('fileKinds', [] as FileKind[]);
  app.addHook('onClose', async () => mailer.close());
  // The spreadsheet parse workers, if an import started them (after the files being read are done).
  app.addHook('onClose', closeParsePool);

  // Requests start in arrival order before any other hook runs (plugins/start-queue.ts).
  app.register(startQueuePlugin);
  // External plugins first, then ours, then the routes (fastify demo order).
  app.register(cookie);
  app.register(formbody, { bodyLimit: config.bodyLimitBytes });
  // Routes read parts themselves (lib/multipart.ts, lib/uploads.ts) with their own limits; nothing is buffered here.
  app.register(multipart, { limits: { fileSize: config.uploadMaxBytes, files: 20, fields: 50, parts: 80 } });
  // The OpenAPI document, generated from the routes registered after it (plugins/openapi.ts).
  app.register(openapiPlugin);
  app.register(requestContextPlugin);
  app.register(securityHeadersPlugin);
  app.register(errorHandlerPlugin);
  app.register(canonicalHostPlugin);
  app.register(csrfPlugin);
  app.register(authPlugin);
  app.register(rateLimitPlugin);
  app.register(policiesPlugin);
  app.register(staticWebPlugin);
  app.register(liveEventsPlugin);

  app.register(healthRoutes);
  app.register(portalConfigRoutes);
  app.register(authRoutes);
  app.register(samlRoutes);
  app.register(usersRoutes);
  app.register(userPasswordRoutes);
  app.register(passwordPolicyRoutes);
  app.register(companiesRoutes);
  app.register(featureFlagsRoutes);
  app.register(systemSettingsRoutes);
  app.register(notificationsRoutes);
  app.register(identityProviderRoutes);
  app.register(companyDomainRoutes);
  app.register(userProfileRoutes);
  app.register(userAdminRoutes);
  app.register(companyUsersRoutes);
  app.register(companyManageRoutes);
  app.register(teamsRoutes);
  app.register(projectsRoutes);
  app.register(projectRosterRoutes);
  app.register(projectTasksRoutes);
  app.register(projectControlsRoutes);
  app.register(projectFilesRoutes);
  app.register(projectFoldersRoutes);
  app.register(documentsRoutes);
  app.register(auditLogRoutes);
  app.register(systemSettingFilesRoutes);
  app.register(fileDownloadRoutes);
  app.register(transfersRoutes);
  app.register(practicesRoutes);
  app.register(taskTrackersRoutes);
  app.register(projectTaskTrackersRoutes);
  app.register(interviewsRoutes);
  app.register(requestsRoutes);
  app.register(requestCommentsRoutes);
  app.register(requestFilesRoutes);
  app.register(requestRemindersRoutes);
  app.register(requestImportExportRoutes);
  app.register(reportsRoutes);
  app.register(docsRoutes);
  return app;
}
