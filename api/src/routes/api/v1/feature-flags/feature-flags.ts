/**
 * Feature flags (docs/flags-and-notifications.md): every signed-in user reads the flags evaluated for
 * them and follows changes on a server-sent event stream; staff admins write the definitions.
 */
import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/notifications/api';
import {
  companyIdsOfMember,
  deleteFeatureFlag,
  listFeatureFlags,
  upsertFeatureFlag,
} from '../../../../db/feature-flags';
import { findSessionByToken, isSessionActive } from '../../../../db/sessions';
import { findUserById, type UserRecord } from '../../../../db/users';
import { evaluateFlags, flagSubjectOf, toDefinitionDto, type FlagSubject } from '../../../../lib/flag-evaluation';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { SseChannel } from '../../../../lib/sse';
import { requireAuth, SESSION_COOKIE } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { FeatureFlagChanges, readFlagSnapshot, type FlagSnapshot } from '../../../../modules/feature-flags/changes';

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

export default async function featureFlagsRoutes(app: FastifyInstance) {
  const changes = new FeatureFlagChanges(app.db, app.log);
  const streams = new Set<SseChannel>();

  // Open streams would keep the server from closing: end them first (preClose), then stop polling.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.close();
    streams.clear();
  });
  app.addHook('onClose', async () => changes.close());

  route(app, api.getFeatureFlags, async (request, reply) => {
    const { user } = await requireAuth(request);
    const [subject, snapshot] = await Promise.all([subjectFor(app, user), readFlagSnapshot(app.db, request.log)]);
    reply.header('cache-control', 'no-store');
    return evaluateFlags(snapshot.flags, subject, snapshot.version);
  });

  route(app, api.followFeatureFlags, async (request, reply) => {
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

  route(app, api.listFeatureFlagDefinitions, async (_request, reply) => {
    const results = (await listFeatureFlags(app.db)).map(toDefinitionDto);
    reply.header('cache-control', 'no-store');
    return { results };
  });

  route(app, api.saveFeatureFlag, async (request, reply) => {
    const { user } = await requireAuth(request);
    const { key } = request.params;
    const { flag, created } = await app.db.transaction().execute(async (trx) => {
      const before = (await listFeatureFlags(trx)).find((f) => f.key === key);
      const result = await upsertFeatureFlag(trx, key, request.body);
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
    reply.code(created ? 201 : 200);
    return toDefinitionDto(flag);
  });

  route(app, api.deleteFeatureFlag, async (request, reply) => {
    const { user } = await requireAuth(request);
    const { key } = request.params;
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
