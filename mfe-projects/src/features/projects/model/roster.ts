/**
 * What the roster offers, worked out from what the api says the caller may give (AssignableUser.roles,
 * which applies the PATCH rules: one role per user, leads keep theirs until it goes to someone else,
 * staff roles to staff...), so the page never offers a change the server always refuses.
 */
import {
  LEAD_ROLES,
  PROJECT_ROLES,
  UNIQUE_ROLES,
  type AssignableUser,
  type ProjectMember,
  type ProjectRole,
} from '@portal/shared/core/projects';
import { personName } from './labels';

/**
 * The roles a member's role select offers: the one they hold and those the caller could give them.
 * One option (or a member the api did not list: suspended, revoked, or not the caller's to change)
 * means there is nothing to choose, and the role is shown as text.
 */
export function memberRoleOptions(member: ProjectMember, givable: ReadonlyMap<string, AssignableUser>): ProjectRole[] {
  const roles = givable.get(member.id)?.roles ?? [];
  return PROJECT_ROLES.filter((r) => r === member.role || roles.includes(r));
}

/**
 * Why Remove is not offered for this member, or null when the api would take the removal. A caller
 * who changes the roster without managing projects is the project's Client Lead, who may not change staff.
 */
export function removalBlocked(member: ProjectMember, callerManagesProjects: boolean): string | null {
  if (LEAD_ROLES.includes(member.role)) return 'Give the role to someone else first';
  if (!callerManagesProjects && member.isTevora) return 'Only staff can remove staff from the project';
  return null;
}

/**
 * When `role` is held by one user and someone else holds it, who that is and what giving it away does
 * to them (the api's rule: a Lead Consultant, or a staff Project Manager, becomes Consultant; a Client
 * Lead or a client Project Manager leaves the project). Null when nobody else is affected.
 */
export function displacedHolder(
  role: ProjectRole,
  userId: string,
  members: readonly ProjectMember[],
): { holder: ProjectMember; outcome: string } | null {
  if (!UNIQUE_ROLES.includes(role)) return null;
  const holder = members.find((m) => m.role === role && m.id !== userId);
  if (!holder) return null;
  const staysAsConsultant = role === 'Lead Consultant' || (role === 'Project Manager' && holder.isTevora);
  return {
    holder,
    outcome: `${personName(holder)} holds it now and ${staysAsConsultant ? 'will become Consultant' : 'will leave the project'}.`,
  };
}
