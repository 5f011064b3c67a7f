import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, ProjectRoleName } from './schema';
import { nowIso } from './values';

export const PROJECT_ROLES: readonly ProjectRoleName[] = ['Lead Consultant', 'Consultant', 'Project Manager', 'Client Lead'];
const LEAD_ROLES: readonly ProjectRoleName[] = ['Lead Consultant', 'Client Lead'];

export interface ProjectRoleRecord {
  projectId: string;
  role: ProjectRoleName;
}

export async function insertProject(db: Kysely<Database>, input: { companyId: string; title: string; status: string }): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('projects')
    .values({ id, company_id: input.companyId, title: input.title, status: input.status, created_at: now, updated_at: now })
    .execute();
  return id;
}

export async function addProjectMember(db: Kysely<Database>, projectId: string, userId: string, role: ProjectRoleName): Promise<void> {
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
