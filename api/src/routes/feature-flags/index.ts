/**
 * Feature flags (docs/flags-and-notifications.md): every signed-in user reads the flags evaluated for
 * them and follows changes on a server-sent event stream; staff admins write the definitions.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { featureFlagInputSchema, featureFlagKeySchema } from '@portal/shared/core/schemas';
import { companyIdsOfMember, deleteFeatureFlag, listFeatureFlags, upsertFeatureFlag } from '../../db/feature-flags';
import { findSessionByToken, isSessionActive } from '../../db/sessions';
import { findUserById, type UserRecord } from '../../db/users';
import { evaluateFlags, flagSubjectOf, toDefinitionDto, type FlagSubject } from '../../lib/flag-evaluation';
import { audit } from '../../lib/audit';
import { HttpError, nameUnknownFields, validationError } from '../../lib/http-error';
import { SseChannel } from '../../lib/sse';
import { requireAuth, SESSION_COOKIE } from '../../plugins/auth';
import { FeatureFlagChanges, readFlagSnapshot, type FlagSnapshot } from './changes';

const keyParamsSchema = z.object({ key: featureFlagKeySchema });

async function subjectFor(app: FastifyInstance, user: UserRecord): Promise<FlagSubject> {
  return flagSubjectOf(user, await companyIdsOfMember(app.db, user.id));
}

/** The stream outlives the request that opened it: its session is checked again on every heartbeat. */
async function currentUser(app: FastifyInstance, token: string): Promise<UserRecord | null> {
  const session = await findSessionByToken(app.db, token);
  if (!session || !isSessionActive(session, app.config.sessionIdleMinutes)) return null;
  const user = await findUserById(app.db, session.userId);
  return user && user.status === 'active' ? user : null;
}

function keyOf(request: FastifyRequest): string {
  const parsed = keyParamsSchema.safeParse(request.params);
  if (!parsed.success) throw validationError(parsed.error, 'path parameter');
  return parsed.data.key;
}

export default async function featureFlagsRoutes(app: FastifyInstance) {
  const changes = new FeatureFlagChanges(app.db, app.log);
  const streams = new Set<SseChannel>();

  // Open streams would keep the server from closing: end them first (preClose), then stop polling.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.close();
    streams.clear();
  });
  app.addHook('onClose', async () => changes.close());

  app.get('/api/v1/feature-flags', { config: { policy: 'signedIn' } }, async (request, reply) => {
    const { user } = await requireAuth(request);
    const [subject, snapshot] = await Promise.all([subjectFor(app, user), readFlagSnapshot(app.db, request.log)]);
    return reply.header('cache-control', 'no-store').send(evaluateFlags(snapshot.flags, subject, snapshot.version));
  });

  app.get('/api/v1/feature-flags/stream', { config: { policy: 'signedIn' } }, async (request, reply) => {
    const { user } = await requireAuth(request);
    const token = request.cookies[SESSION_COOKIE] ?? '';
    let subject = await subjectFor(app, user);
    let latest: FlagSnapshot | null = null;
    let lastSent = '';

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // proxies (nginx) must pass events through as they come
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
      'x-api-version': app.config.apiVersion,
      'x-ui-version': app.config.uiVersion,
    });

    const push = (snapshot: FlagSnapshot) => {
      latest = snapshot;
      const payload = JSON.stringify(evaluateFlags(snapshot.flags, subject, snapshot.version));
      if (payload === lastSent) return;
      lastSent = payload;
      channel.send('flags', payload);
    };
    const channel = new SseChannel(res, {
      onHeartbeat: () => {
        currentUser(app, token)
          .then(async (now) => {
            if (!now) return cleanup();
            // A user who became staff (or left a company) gets their values without reconnecting.
            subject = await subjectFor(app, now);
            if (latest) push(latest);
          })
          .catch((error: unknown) => request.log.warn({ err: error }, 'feature flag stream: session check failed'));
      },
    });
    streams.add(channel);
    const unsubscribe = changes.subscribe(push);
    let cleaned = false;
    function cleanup() {
      if (cleaned) return;
      cleaned = true;
      unsubscribe();
      streams.delete(channel);
      channel.close();
    }
    request.raw.on('close', cleanup);
    res.on('close', cleanup);
    res.on('error', cleanup);

    try {
      // The first event carries the current values: a change made between the client's GET and this
      // connection is not lost.
      push(await changes.snapshot());
    } catch (error) {
      request.log.error({ err: error }, 'feature flag stream could not start');
      cleanup();
    }
  });

  app.get('/api/v1/feature-flags/definitions', { config: { policy: 'staffAdmin' } }, async (_request, reply) => {
    const results = (await listFeatureFlags(app.db)).map(toDefinitionDto);
    return reply.header('cache-control', 'no-store').send({ results });
  });

  app.put('/api/v1/feature-flags/:key', { config: { policy: 'staffAdmin' } }, async (request, reply) => {
    const { user } = await requireAuth(request);
    const key = keyOf(request);
    const parsed = featureFlagInputSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(nameUnknownFields(parsed.error), 'field');
    const { flag, created } = await app.db.transaction().execute(async (trx) => {
      const before = (await listFeatureFlags(trx)).find((f) => f.key === key);
      const result = await upsertFeatureFlag(trx, key, parsed.data);
      await audit(
        request,
        {
          action: 'featureFlag.update',
          targetType: 'featureFlag',
          targetId: key,
          targetLabel: key,
          before: before ? toDefinitionDto(before) : null,
          after: toDefinitionDto(result.flag),
        },
        trx,
      );
      return result;
    });
    request.log.info(
      { flag: key, version: flag.version, by: user.id },
      created ? 'feature flag created' : 'feature flag updated',
    );
    await changes.changed();
    return reply.code(created ? 201 : 200).send(toDefinitionDto(flag));
  });

  app.delete('/api/v1/feature-flags/:key', { config: { policy: 'staffAdmin' } }, async (request, reply) => {
    const { user } = await requireAuth(request);
    const key = keyOf(request);
    await app.db.transaction().execute(async (trx) => {
      const before = (await listFeatureFlags(trx)).find((f) => f.key === key);
      if (!before || !(await deleteFeatureFlag(trx, key))) throw new HttpError(404, 'feature_flag_not_found');
      await audit(
        request,
        {
          action: 'featureFlag.delete',
          targetType: 'featureFlag',
          targetId: key,
          targetLabel: key,
          before: toDefinitionDto(before),
        },
        trx,
      );
    });
    request.log.info({ flag: key, by: user.id }, 'feature flag deleted');
    await changes.changed();
    return reply.code(204).send();
  });
}
