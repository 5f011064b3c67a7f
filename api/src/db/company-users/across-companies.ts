/**
 * A user across companies, as a viewer sees them: the user's companies and project roles in the
 * companies the viewer sees (or administers), removing a project role, whether the two share a
 * company, and whether the user's account is the caller's alone to suspend.
 */
import type { Kysely } from 'kysely';
import type { CompanyRoleName } from '@portal/shared/core/settings';
import type { Database, ProjectRoleName } from '../schema';

/** Who is looking at a user: staff see all of the user's companies, client users the ones they share. */
export interface UserViewer {
  id: string;
  isTevora: boolean;
}

/**
 * The ids of the companies the viewer sees users in, as a subquery (null: all, for staff). With
 * `administered`, only those where the client viewer holds the admin role (editUsersAndTeams).
 */
function viewerCompanyIds(db: Kysely<Database>, viewer: UserViewer, administered = false) {
  if (viewer.isTevora) return null;
  let query = db
    .selectFrom('company_memberships')
    .select('company_id')
    .where('user_id', '=', viewer.id)
    .where('access_revoked_at', 'is', null);
  if (administered) query = query.where('role', '=', 'admin');
  return query;
}

/** The user's companies the viewer may see, by name. */
export async function userCompaniesFor(
  db: Kysely<Database>,
  userId: string,
  viewer: UserViewer,
): Promise<{ id: string; name: string; role: CompanyRoleName; accessRevoked: boolean }[]> {
  let query = db
    .selectFrom('company_memberships as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['c.id', 'c.name', 'm.role', 'm.access_revoked_at'])
    .where('m.user_id', '=', userId);
  const visible = viewerCompanyIds(db, viewer);
  if (visible) query = query.where('m.company_id', 'in', visible);
  const rows = await query.orderBy('c.name').orderBy('c.id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, role: r.role, accessRevoked: r.access_revoked_at !== null }));
}

export interface AssignedProjectRole {
  projectId: string;
  title: string;
  companyId: string;
  role: ProjectRoleName;
}

/** The user's project roles in companies the viewer sees (and only `companyId`'s when given). */
export async function assignedProjectsFor(
  db: Kysely<Database>,
  userId: string,
  viewer: UserViewer,
  companyId?: string,
): Promise<AssignedProjectRole[]> {
  let query = db
    .selectFrom('project_members as pm')
    .innerJoin('projects as p', 'p.id', 'pm.project_id')
    .select(['p.id', 'p.title', 'p.company_id', 'pm.role'])
    .where('pm.user_id', '=', userId);
  // Only projects of companies where the viewer manages users: an admin of one company sees and
  // removes nothing of another company they are a plain member of.
  const visible = viewerCompanyIds(db, viewer, true);
  if (visible) query = query.where('p.company_id', 'in', visible);
  if (companyId !== undefined) query = query.where('p.company_id', '=', companyId);
  const rows = await query.orderBy('p.title').orderBy('p.id').execute();
  return rows.map((r) => ({ projectId: r.id, title: r.title, companyId: r.company_id, role: r.role }));
}

export async function removeProjectRole(db: Kysely<Database>, projectId: string, userId: string): Promise<void> {
  await db.deleteFrom('project_members').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
}

/** Whether the viewer shares a company with the user (the viewer's access not revoked). */
export async function sharesCompany(db: Kysely<Database>, viewerId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('company_memberships as mine')
    .innerJoin('company_memberships as theirs', 'theirs.company_id', 'mine.company_id')
    .select('mine.company_id')
    .where('mine.user_id', '=', viewerId)
    .where('mine.access_revoked_at', 'is', null)
    .where('theirs.user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether the user's account is the caller's alone to suspend: every company the user is an active
 * member of is one where the client caller holds the admin role. Staff callers always may.
 */
export async function accountWithinCallerCompanies(
  db: Kysely<Database>,
  userId: string,
  caller: UserViewer,
): Promise<boolean> {
  if (caller.isTevora) return true;
  const outside = await db
    .selectFrom('company_memberships as theirs')
    .select('theirs.company_id')
    .where('theirs.user_id', '=', userId)
    .where('theirs.access_revoked_at', 'is', null)
    .where('theirs.company_id', 'not in', viewerCompanyIds(db, caller, true)!)
    .executeTakeFirst();
  return outside === undefined;
}
