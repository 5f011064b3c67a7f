import type { UserRecord } from '../../db/users';

/** Staff who are not auditors: they create, edit and move projects. */
export function managesProjects(user: Pick<UserRecord, 'isTevora' | 'isAuditor'>): boolean {
  return user.isTevora && !user.isAuditor;
}
