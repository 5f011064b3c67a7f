import type { FastifyInstance } from 'fastify';
import { projectRolesOf } from '../../../../db/projects';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import * as api from '@portal/shared/core/users/api';
import { toUserDto } from '../../../../modules/users/user-dto';

export default async function usersRoutes(app: FastifyInstance) {
  route(app, api.getMe, async (request, reply) => {
    const { user } = await requireAuth(request);
    const roles = await projectRolesOf(app.db, user.id);
    reply.header('cache-control', 'no-store');
    return toUserDto(user, app.config.flagHmacSecret, roles);
  });
}
