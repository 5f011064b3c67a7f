/** Per-browser remote overrides (modules/web/remote-overrides.ts): staff test a release in their own browser. */
import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/portal/api';
import { route } from '../../../../lib/contract';
import { HttpError } from '../../../../lib/http-error';
import { requireAuth } from '../../../../plugins/app/auth';
import { overridesAnswer, overridesOf, setOverrides } from '../../../../modules/web/remote-overrides';

export default async function remoteOverridesRoutes(app: FastifyInstance) {
  route(app, api.listRemoteOverrides, async (request) => {
    const { user } = await requireAuth(request);
    return overridesAnswer(await overridesOf(request, user));
  });

  route(app, api.setRemoteOverride, async (request, reply) => {
    const { user } = await requireAuth(request);
    const { remote } = request.params;
    if (!(remote in (await app.remotesManifest.current()))) throw new HttpError(404, 'remote_not_found');
    const overrides = { ...(await overridesOf(request, user)), [remote]: request.body.url };
    await setOverrides(request, reply, user, overrides);
    request.log.info({ remote, url: request.body.url }, 'remote override set for this browser');
    return overridesAnswer(overrides);
  });

  route(app, api.deleteRemoteOverride, async (request, reply) => {
    const { user } = await requireAuth(request);
    const { [request.params.remote]: _removed, ...overrides } = await overridesOf(request, user);
    await setOverrides(request, reply, user, overrides);
    return overridesAnswer(overrides);
  });
}
