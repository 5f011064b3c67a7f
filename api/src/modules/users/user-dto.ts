import { createHmac } from 'node:crypto';
import type { User } from '@portal/shared/core/schemas';
import { isLead, type ProjectRoleRecord } from '../../db/projects';
import type { UserRecord } from '../../db/users';
import { imageUrl } from '../../lib/images';

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
