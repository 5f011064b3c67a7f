import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { User } from '@portal/shared/core/schemas';
import { isLead, projectRolesOf, type ProjectRoleRecord } from '../../../../db/projects';
import type { UserRecord } from '../../../../db/users';
import { imageUrl } from '../../../../lib/images';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import * as api from '@portal/shared/core/users/api';

/** The user as the web sees it (userSchema). */
export function toUserDto(user: UserRecord, flagHmacSecret: string, projectRoles: ProjectRoleRecord[] = []): User {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    title: user.title,
    email: user.email,
    login: user.email,
    avatar: imageUrl('users', user.id, user.avatar),
    status: user.status,
    primaryPhone: user.primaryPhone,
    isTevora: user.isTevora,
    isAuditor: user.isAuditor,
    admin: { active: user.isAdmin },
    sendDailyEmails: user.sendDailyEmails,
    metadata: { firstLogin: user.firstLogin, isFederated: user.isFederated, isLead: isLead(projectRoles) },
    projectRoles,
    // The flag service's secure mode: proves the context key is this user without revealing the secret.
    ldhmac: createHmac('sha256', flagHmacSecret).update(user.id).digest('hex'),
  };
}

export default async function usersRoutes(app: FastifyInstance) {
  route(app, api.getMe, async (request, reply) => {
    const { user } = await requireAuth(request);
    const roles = await projectRolesOf(app.db, user.id);
    reply.header('cache-control', 'no-store');
    return toUserDto(user, app.config.flagHmacSecret, roles);
  });
}
