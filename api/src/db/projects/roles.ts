/**
 * Project roles: the roles there are, adding a member, a user's roles across projects (and whether
 * they lead any), and who holds a role on a project. LEAD_ROLES is exported to this folder (the
 * lists show the leads) but not from it.
 */
import type { Kysely } from 'kysely';
import type { Database, ProjectRoleName } from '../schema';

export const PROJECT_ROLES: readonly ProjectRoleName[] = [
  'Lead Consultant',
  'Consultant',
  'Project Manager',
  'Client Lead',
];
export const LEAD_ROLES: readonly ProjectRoleName[] = ['Lead Consultant', 'Client Lead'];

export interface ProjectRoleRecord {
  projectId: string;
  role: ProjectRoleName;
}

export async function addProjectMember(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  role: ProjectRoleName,
): Promise<void> {
  await db.insertInto('project_members').values({ project_id: projectId, user_id: userId, role }).execute();
}

/** The user's roles across projects (User.projectRoles), oldest project first. */
export async function projectRolesOf(db: Kysely<Database>, userId: string): Promise<ProjectRoleRecord[]> {
  const rows = await db
    .selectFrom('project_members')
    .innerJoin('projects', 'projects.id', 'project_members.project_id')
    .select(['project_members.project_id', 'project_members.role'])
    .where('project_members.user_id', '=', userId)
    .orderBy('projects.created_at')
    .orderBy('projects.id')
    .execute();
  return rows.map((r) => ({ projectId: r.project_id, role: r.role }));
}

/** metadata.isLead: the user holds a lead role on at least one project. */
export function isLead(roles: ProjectRoleRecord[]): boolean {
  return roles.some((r) => LEAD_ROLES.includes(r.role));
}

/** The user holding `role` on the project, if any. */
export async function roleHolder(
  db: Kysely<Database>,
  projectId: string,
  role: ProjectRoleName,
): Promise<string | null> {
  const row = await db
    .selectFrom('project_members')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('role', '=', role)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Whether an active (not suspended) user holds `role` on the project: a suspended lead cannot lead the work. */
export async function hasActiveRoleHolder(
  db: Kysely<Database>,
  projectId: string,
  role: ProjectRoleName,
): Promise<boolean> {
  const row = await db
    .selectFrom('project_members as pm')
    .innerJoin('users as u', 'u.id', 'pm.user_id')
    .select('pm.user_id')
    .where('pm.project_id', '=', projectId)
    .where('pm.role', '=', role)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}
