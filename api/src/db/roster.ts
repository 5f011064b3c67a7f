/** A project's roster: who holds which role, and who could be given one. */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import {
  PROJECT_ROLES,
  UNIQUE_ROLES,
  type ProjectMember,
  type ProjectRole,
  type ProjectStatus,
  type ProjectUserRef,
  type UserProject,
} from '@portal/shared/core/projects';
import type { Database } from './schema';
import { toBool } from './values';

/** Roster order: the roles as PROJECT_ROLES lists them. */
const roleOrder = sql`case pm.role ${sql.join(
  PROJECT_ROLES.map((r, i) => sql`when ${r} then ${sql.lit(i)}`),
  sql` `,
)} else ${sql.lit(PROJECT_ROLES.length)} end`;

/** People by name (first, then last, ignoring case), then id for a stable order; `u` is the users table. */
export function orderByName<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return query
    .orderBy(sql`lower(u.first_name)`)
    .orderBy(sql`lower(u.last_name)`)
    .orderBy(sql.ref('u.id'));
}

/** The ids of the company's members whose access stands (revoked members are left out). */
function activeMemberIds(db: Kysely<Database>, companyId: string) {
  return db
    .selectFrom('company_memberships')
    .select('user_id')
    .where('company_id', '=', companyId)
    .where('access_revoked_at', 'is', null);
}

const userRef = (r: { id: string; first_name: string; last_name: string; email: string }): ProjectUserRef => ({
  id: r.id,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
});

export async function listProjectMembers(db: Kysely<Database>, projectId: string): Promise<ProjectMember[]> {
  const rows = await db
    .selectFrom('project_members as pm')
    .innerJoin('users as u', 'u.id', 'pm.user_id')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.title', 'u.status', 'u.is_tevora', 'pm.role'])
    .where('pm.project_id', '=', projectId)
    .orderBy(roleOrder)
    .$call(orderByName)
    .execute();
  return rows.map((r) => ({
    ...userRef(r),
    role: r.role,
    isTevora: toBool(r.is_tevora),
    title: r.title,
    status: r.status,
  }));
}

export async function memberRole(db: Kysely<Database>, projectId: string, userId: string): Promise<ProjectRole | null> {
  const row = await db
    .selectFrom('project_members')
    .select('role')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role ?? null;
}

/** Gives the user `role` on the project: their one row is inserted or updated. */
export async function setMemberRole(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  role: ProjectRole,
): Promise<void> {
  await db
    .insertInto('project_members')
    .values({ project_id: projectId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['project_id', 'user_id']).doUpdateSet({ role }))
    .execute();
}

export async function removeMember(db: Kysely<Database>, projectId: string, userId: string): Promise<void> {
  await db.deleteFrom('project_members').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
}

/** Whether the user is a member of the company whose access is not revoked. */
export async function isActiveCompanyMember(db: Kysely<Database>, companyId: string, userId: string): Promise<boolean> {
  const row = await activeMemberIds(db, companyId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/** Whether the user is or was a member of the company (revoked members stay listed). */
export async function isCompanyMember(db: Kysely<Database>, companyId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('company_memberships')
    .select('user_id')
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface RosterCandidate {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  isTevora: boolean;
  isAuditor: boolean;
  /** Their role on the project now, if any. */
  role: ProjectRole | null;
}

/**
 * Users who could hold a role on the project, active, by name: the company's members whose access
 * stands and, unless `clientsOnly`, staff.
 */
export async function rosterCandidates(
  db: Kysely<Database>,
  projectId: string,
  companyId: string,
  { clientsOnly = false }: { clientsOnly?: boolean } = {},
): Promise<RosterCandidate[]> {
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('project_members as pm', (join) =>
      join.onRef('pm.user_id', '=', 'u.id').on('pm.project_id', '=', projectId),
    )
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.is_tevora', 'u.is_auditor', 'pm.role'])
    .where('u.status', '=', 'active')
    .where((eb) => {
      const members = eb('u.id', 'in', activeMemberIds(db, companyId));
      return clientsOnly
        ? eb.and([eb('u.is_tevora', '=', false), members])
        : eb.or([eb('u.is_tevora', '=', true), members]);
    })
    .$call(orderByName)
    .execute();
  return rows.map((r) => ({
    ...userRef(r),
    isTevora: toBool(r.is_tevora),
    isAuditor: toBool(r.is_auditor),
    role: r.role ?? null,
  }));
}

/** Who holds each unique role on the project now, and whether they are staff. */
export async function uniqueRoleHolders(
  db: Kysely<Database>,
  projectId: string,
): Promise<Map<ProjectRole, { userId: string; isTevora: boolean }>> {
  const rows = await db
    .selectFrom('project_members as pm')
    .innerJoin('users as u', 'u.id', 'pm.user_id')
    .select(['pm.role', 'pm.user_id', 'u.is_tevora'])
    .where('pm.project_id', '=', projectId)
    .where('pm.role', 'in', UNIQUE_ROLES)
    .execute();
  return new Map(rows.map((r) => [r.role, { userId: r.user_id, isTevora: toBool(r.is_tevora) }]));
}

/**
 * Whom a task of the project may be given to, by name: active staff on its roster and the company's
 * active members whose access stands. Staff off the roster are not listed (their emails stay private).
 */
export async function taskAssigneeCandidates(
  db: Kysely<Database>,
  projectId: string,
  companyId: string,
): Promise<ProjectUserRef[]> {
  const rows = await db
    .selectFrom('users as u')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email'])
    .where('u.status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('u.is_tevora', '=', true),
          eb('u.id', 'in', eb.selectFrom('project_members').select('user_id').where('project_id', '=', projectId)),
        ]),
        eb.and([eb('u.is_tevora', '=', false), eb('u.id', 'in', activeMemberIds(db, companyId))]),
      ]),
    )
    .$call(orderByName)
    .execute();
  return rows.map(userRef);
}

/** Which of the user's projects a viewer may see: all, only some projects, or those of some companies. */
export type ProjectScope = { all: true } | { projectsOf: string } | { companyIds: string[] };

/** The user's roles on projects within `scope`, by company name and title. */
export async function userProjects(db: Kysely<Database>, userId: string, scope: ProjectScope): Promise<UserProject[]> {
  let query = db
    .selectFrom('project_members as pm')
    .innerJoin('projects as p', 'p.id', 'pm.project_id')
    .innerJoin('companies as c', 'c.id', 'p.company_id')
    .select(['p.id', 'p.title', 'p.status', 'p.company_id', 'c.name as company_name', 'pm.role'])
    .where('pm.user_id', '=', userId);
  if ('projectsOf' in scope) {
    query = query.where(
      'p.id',
      'in',
      db.selectFrom('project_members').select('project_id').where('user_id', '=', scope.projectsOf),
    );
  } else if ('companyIds' in scope) {
    if (scope.companyIds.length === 0) return [];
    query = query.where('p.company_id', 'in', scope.companyIds);
  }
  const rows = await query
    .orderBy(sql`lower(c.name)`)
    .orderBy(sql`lower(p.title)`)
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({
    projectId: r.id,
    title: r.title,
    companyId: r.company_id,
    companyName: r.company_name,
    status: r.status as ProjectStatus,
    role: r.role,
  }));
}
