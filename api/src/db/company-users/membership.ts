/**
 * Changing a company's members: creating a user with their membership, their role, revoking or
 * restoring their access, their roles on the company's projects, removing them from the company,
 * and whether an email already has an account.
 */
import type { Kysely } from 'kysely';
import type { CompanyRoleName } from '@portal/shared/core/settings';
import { addCompanyMember } from '../companies';
import { isLead } from '../projects';
import type { Database, ProjectRoleName } from '../schema';
import { insertUser } from '../users';
import { inTransaction } from '../values';

export interface NewCompanyUser {
  email: string;
  firstName: string;
  lastName: string;
  title: string | null;
  role: CompanyRoleName;
  /** Signs in with the company's identity provider: no password, ever. */
  isFederated: boolean;
}

/** A new user (no password yet) and their membership; pass a transaction so both commit together. */
export async function createCompanyUser(
  db: Kysely<Database>,
  companyId: string,
  input: NewCompanyUser,
): Promise<string> {
  const id = await insertUser(db, {
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    title: input.title,
    isFederated: input.isFederated,
    firstLogin: true,
  });
  await addCompanyMember(db, companyId, id, input.role);
  return id;
}

export async function setCompanyUserRole(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
  role: CompanyRoleName,
): Promise<void> {
  await db
    .updateTable('company_memberships')
    .set({ role })
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .execute();
}

/** Revokes (a time) or restores (null) the member's access to the company; the membership stays. */
export async function setCompanyAccessRevoked(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
  revokedAt: string | null,
): Promise<void> {
  await db
    .updateTable('company_memberships')
    .set({ access_revoked_at: revokedAt })
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .execute();
}

export interface CompanyProjectRole {
  projectId: string;
  title: string;
  role: ProjectRoleName;
}

/** The user's roles on the company's projects. */
export async function projectRolesInCompany(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
): Promise<CompanyProjectRole[]> {
  const rows = await db
    .selectFrom('project_members')
    .innerJoin('projects', 'projects.id', 'project_members.project_id')
    .select(['projects.id', 'projects.title', 'project_members.role'])
    .where('projects.company_id', '=', companyId)
    .where('project_members.user_id', '=', userId)
    .orderBy('projects.title')
    .execute();
  return rows.map((r) => ({ projectId: r.id, title: r.title, role: r.role }));
}

export function isLeadRole(role: ProjectRoleName): boolean {
  return isLead([{ projectId: '', role }]);
}

/**
 * Removes the user from the company: their membership, their places in its teams, their module
 * values there and their roles on its projects. The account itself stays (other companies).
 */
export async function removeCompanyUser(db: Kysely<Database>, companyId: string, userId: string): Promise<void> {
  const work = async (trx: Kysely<Database>) => {
    await trx
      .deleteFrom('team_members')
      .where('user_id', '=', userId)
      .where('team_id', 'in', trx.selectFrom('teams').select('id').where('company_id', '=', companyId))
      .execute();
    await trx
      .deleteFrom('user_modules_access')
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .execute();
    await trx
      .deleteFrom('project_members')
      .where('user_id', '=', userId)
      .where('project_id', 'in', trx.selectFrom('projects').select('id').where('company_id', '=', companyId))
      .execute();
    await trx
      .deleteFrom('company_memberships')
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .execute();
  };
  await inTransaction(db, work);
}

/** Whether the user has an account at all (any email is unique across the portal). */
export async function emailTaken(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}
