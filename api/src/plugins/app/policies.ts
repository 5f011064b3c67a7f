import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Operation, Policy, ProjectAccessLevel, SettingsPermissionName } from '@portal/shared/core/contract';
import { settingsPermissionsFor, type SettingsPermissions } from '@portal/shared/core/modules';
import { companyRecord, findCompanyRole, findVisibleCompany, type CompanyRecord } from '../../db/companies';
import type { Database, ProjectRoleName } from '../../db/schema';
import { findUserById, type ProjectRead, type UserRecord } from '../../db/users';
import { moduleAccessIn } from '../../db/module-access';
import { preparedQuery } from '../../db/prepared';
import { requestAccessFor, type RequestAccess } from '../../db/request-access';
import { toCount } from '../../db/values';
import { HttpError } from '../../lib/http-error';
import { getAuth, readAlongSession } from './auth';

export type { Policy, ProjectAccessLevel, SettingsPermissionName } from '@portal/shared/core/contract';

/** What a project policy resolved: the project, its company and what the caller may do there. */
export interface ProjectAccess {
  project: { id: string; companyId: string; title: string; status: string };
  company: CompanyRecord;
  /** The caller's role on the project, if any. */
  role: ProjectRoleName | null;
  /** Staff who are not auditors: create, edit, move the project, any role on the roster. */
  manage: boolean;
  /** Manage, or any role on the project: tasks, controls, points of focus. */
  write: boolean;
  /**
   * The number of the project's top-level tasks the database keeps (project_task_counts), read in the
   * same query as the project: the task list's total without filters, a round trip fewer. Null when
   * the row is missing.
   */
  topLevelTasks: number | null;
}

/** A registered route under /api/v1 or /auth and the policy it declared. */
export interface RoutePolicy {
  method: string;
  url: string;
  policy: Policy;
  /** The operation the route was registered from (lib/contract.ts), when it was. */
  operation?: Operation;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy;
  }
  interface FastifyInstance {
    /** Every route that must declare a policy, as registered: the authorization test walks it. */
    routePolicies: RoutePolicy[];
  }
}

/** Paths whose routes must each declare a policy. */
export function needsPolicy(url: string): boolean {
  return url === '/api/v1' || url.startsWith('/api/v1/') || url === '/auth' || url.startsWith('/auth/');
}

const companies = new WeakMap<FastifyRequest, CompanyRecord>();
const targetUsers = new WeakMap<FastifyRequest, UserRecord>();
const projects = new WeakMap<FastifyRequest, ProjectAccess>();
const requests = new WeakMap<FastifyRequest, RequestAccess>();

/** The evidence request a request policy resolved for this call. */
export function policyRequest(request: FastifyRequest): RequestAccess {
  const access = requests.get(request);
  if (!access) throw new Error('policyRequest called on a route without a request policy');
  return access;
}

async function enforceRequest(request: FastifyRequest, caller: UserRecord, level: 'read' | 'manage'): Promise<void> {
  const requestId = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof requestId !== 'string') throw new Error('a request policy needs a route with :id');
  // An empty segment (`/requests//history`) names no request.
  if (requestId === '') throw new HttpError(404, 'request_not_found');
  const access = await requestAccessFor(request.server.db, caller, requestId);
  // Not found both when it does not exist and when it is not the caller's: existence is not revealed.
  if (!access) throw new HttpError(404, 'request_not_found');
  if (level === 'manage' && !access.manage) throw new HttpError(403, 'forbidden');
  requests.set(request, access);
}

/** The project a project policy resolved for this request. */
export function policyProject(request: FastifyRequest): ProjectAccess {
  const access = projects.get(request);
  if (!access) throw new Error('policyProject called on a route without a project policy');
  return access;
}

/**
 * The project, the caller's role in it, its kept count of top-level tasks and its company with the
 * company's module access: one row per module.
 */
const projectWithRole = preparedQuery((db, userId: string, projectId: string) =>
  db
    .selectFrom('projects')
    .leftJoin('project_members', (join) =>
      join.onRef('project_members.project_id', '=', 'projects.id').on('project_members.user_id', '=', userId),
    )
    .innerJoin('companies as c', 'c.id', 'projects.company_id')
    .leftJoin('company_modules_access as m', 'm.company_id', 'c.id')
    .leftJoin('project_task_counts as ptc', 'ptc.project_id', 'projects.id')
    .select([
      'projects.id',
      'projects.company_id',
      'projects.title',
      'projects.status',
      'project_members.role',
      'c.name',
      'c.logo',
      'm.module',
      'm.enabled',
      'ptc.top_level',
    ])
    .where('projects.id', '=', projectId),
);

/** The project as the policies read it; null when there is no such project. */
async function readProject(db: Kysely<Database>, userId: string, projectId: string): Promise<ProjectRead | null> {
  const rows = await projectWithRole(db, userId, projectId);
  const [row] = rows;
  if (!row) return null;
  return {
    id: row.id,
    companyId: row.company_id,
    title: row.title,
    status: row.status,
    role: row.role ?? null,
    topLevel: row.top_level === null ? null : toCount(row.top_level),
    company: companyRecord({ id: row.company_id, name: row.name, logo: row.logo }, rows),
  };
}

/**
 * The caller's access to a project, or null when it is not visible to them (missing, another
 * company's, or an auditor's project without a role). Throws 403 when the projects module is off.
 */
export async function projectAccessFor(
  db: Kysely<Database>,
  caller: UserRecord,
  projectId: string,
  /** The project when already read (with the session: auth.ts readAlongSession). */
  known?: ProjectRead | null,
): Promise<ProjectAccess | null> {
  const read = known !== undefined ? known : await readProject(db, caller.id, projectId);
  if (!read) return null;
  if (caller.isAuditor && !read.role) return null;
  const company = await findVisibleCompany(db, caller, read.companyId, read.company);
  if (!company) return null;
  const access = await moduleAccessIn(db, caller, company);
  if (!access.projects) throw new HttpError(403, 'module_access_denied');
  const manage = caller.isTevora && !caller.isAuditor;
  return {
    project: { id: read.id, companyId: read.companyId, title: read.title, status: read.status },
    company,
    role: read.role,
    manage,
    write: manage || read.role != null,
    topLevelTasks: read.topLevel,
  };
}

async function enforceProject(request: FastifyRequest, caller: UserRecord, level: ProjectAccessLevel): Promise<void> {
  const projectId = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof projectId !== 'string') throw new Error('a project policy needs a route with :id');
  if (projectId === '') throw new HttpError(404, 'project_not_found');
  const along = readAlongSession(request);
  const access = await projectAccessFor(
    request.server.db,
    caller,
    projectId,
    along && 'project' in along ? along.project : undefined,
  );
  // Not found both when it does not exist and when it is not the caller's: existence is not revealed.
  if (!access) throw new HttpError(404, 'project_not_found');
  if ((level === 'write' && !access.write) || (level === 'manage' && !access.manage)) {
    throw new HttpError(403, 'user_can_not_update_project');
  }
  projects.set(request, access);
}

/** The user a target-user policy resolved for this request. */
export function policyTargetUser(request: FastifyRequest): UserRecord {
  const user = targetUsers.get(request);
  if (!user) throw new Error('policyTargetUser called on a route without a targetUser policy');
  return user;
}

type Caller = Pick<UserRecord, 'id' | 'isTevora' | 'isAuditor' | 'isAdmin'>;

function holds(permissions: SettingsPermissions, name: SettingsPermissionName): boolean {
  const [group, key] = name.split('.') as ['users' | 'company', string];
  return (permissions[group] as Record<string, boolean>)[key] === true;
}

/** The caller's settings permissions in a company (derived from the role). */
export async function permissionsIn(
  db: Kysely<Database>,
  caller: Caller,
  companyId: string,
): Promise<SettingsPermissions> {
  const companyRole = caller.isTevora ? null : await findCompanyRole(db, companyId, caller.id);
  return settingsPermissionsFor({
    isTevora: caller.isTevora,
    isAuditor: caller.isAuditor,
    isStaffAdmin: caller.isTevora && caller.isAdmin,
    companyRole,
  });
}

async function enforceTargetUser(
  request: FastifyRequest,
  caller: UserRecord,
  permission: SettingsPermissionName,
  account: boolean,
): Promise<void> {
  const targetId = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof targetId !== 'string') throw new Error('a targetUser policy needs a route with :id');
  if (targetId === '') throw new HttpError(404, 'user_not_found');
  const { db } = request.server;
  const target = await findUserById(db, targetId);
  if (!target) throw new HttpError(404, 'user_not_found');
  if (caller.isTevora) {
    // Staff: the permission does not depend on the company (staff roles are global). Company
    // permissions are about client users: another staff user is managed only by whoever may edit
    // the staff's admins (staff admins), so no staff member can suspend or rename an admin.
    const needed =
      target.isTevora && target.id !== caller.id && permission.startsWith('company.')
        ? 'users.editTevoraAdmins'
        : permission;
    if (!holds(await permissionsIn(db, caller, ''), needed)) throw new HttpError(403, 'forbidden');
    targetUsers.set(request, target);
    return;
  }
  // Client users reach only users of their own companies, and never staff.
  const shared = target.isTevora
    ? []
    : await db
        .selectFrom('company_memberships as mine')
        .innerJoin('company_memberships as theirs', 'theirs.company_id', 'mine.company_id')
        .select('mine.company_id')
        .where('mine.user_id', '=', caller.id)
        .where('mine.access_revoked_at', 'is', null)
        .where('theirs.user_id', '=', target.id)
        .execute();
  if (shared.length === 0) throw new HttpError(404, 'user_not_found');
  let allowedSomewhere = false;
  for (const { company_id } of shared) {
    if (holds(await permissionsIn(db, caller, company_id), permission)) {
      allowedSomewhere = true;
      break;
    }
  }
  if (!allowedSomewhere) throw new HttpError(403, 'forbidden');
  // A change to the account itself (name, status, avatar, password) is seen by every company the
  // user belongs to: a client admin makes it only when they hold the permission in all of them.
  if (account) {
    const theirs = await db
      .selectFrom('company_memberships')
      .select('company_id')
      .where('user_id', '=', target.id)
      .execute();
    const mine = new Set(shared.map((s) => s.company_id));
    for (const { company_id } of theirs) {
      if (!mine.has(company_id) || !holds(await permissionsIn(db, caller, company_id), permission)) {
        throw new HttpError(
          403,
          'forbidden',
          'This user also belongs to a company you do not administer: only its administrators or staff can change their account. To remove them from your company, revoke their access instead.',
        );
      }
    }
  }
  targetUsers.set(request, target);
}

/** The company a company policy resolved for this request. */
export function policyCompany(request: FastifyRequest): CompanyRecord {
  const company = companies.get(request);
  if (!company) throw new Error('policyCompany called on a route without a company policy');
  return company;
}

async function enforce(request: FastifyRequest, policy: Policy): Promise<void> {
  if (policy === 'public') return;
  const auth = await getAuth(request);
  if (!auth) throw new HttpError(401, 'unauthorized');
  const { user } = auth;
  if (policy === 'signedIn') return;
  if (policy === 'staff') {
    if (!user.isTevora) throw new HttpError(403, 'forbidden');
    return;
  }
  if (policy === 'staffAdmin') {
    if (!user.isTevora || !user.isAdmin) throw new HttpError(403, 'forbidden');
    return;
  }
  if ('targetUser' in policy) return enforceTargetUser(request, user, policy.targetUser, policy.account === true);
  if ('staff' in policy) {
    if (!user.isTevora || !holds(await permissionsIn(request.server.db, user, ''), policy.staff))
      throw new HttpError(403, 'forbidden');
    return;
  }
  if ('project' in policy) return enforceProject(request, user, policy.project);
  if ('request' in policy) return enforceRequest(request, user, policy.request);
  const companyId = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof companyId !== 'string') throw new Error('a company policy needs a route with :id');
  if (companyId === '') throw new HttpError(404, 'company_not_found');
  // Not found both when it does not exist and when it is not the user's: existence is not revealed.
  const along = readAlongSession(request);
  const read = along && 'company' in along ? along.company : undefined;
  const company = read === null ? null : await findVisibleCompany(request.server.db, user, companyId, read);
  if (!company) throw new HttpError(404, 'company_not_found');
  if (policy.company === 'member' && policy.module) {
    const access = await moduleAccessIn(request.server.db, user, company);
    if (!access[policy.module]) throw new HttpError(403, 'module_access_denied');
  }
  if (
    policy.company === 'settings' &&
    !holds(await permissionsIn(request.server.db, user, company.id), policy.permission)
  ) {
    throw new HttpError(403, 'forbidden');
  }
  companies.set(request, company);
}

export default fp(
  async function policies(app: FastifyInstance) {
    app.decorate('routePolicies', [] as RoutePolicy[]);
    app.addHook('onRoute', (route: RouteOptions) => {
      if (!needsPolicy(route.url)) return;
      const policy = route.config?.policy;
      if (policy === undefined) {
        throw new Error(`Route ${route.method} ${route.url} declares no policy: add config: { policy }`);
      }
      const operation = route.config?.operation;
      for (const method of [route.method].flat())
        app.routePolicies.push({ method, url: route.url, policy, ...(operation ? { operation } : {}) });
    });
    // Before validation: an anonymous or foreign caller learns nothing about a route's input rules.
    app.addHook('preValidation', async (request) => {
      const policy = request.routeOptions.config?.policy;
      if (policy !== undefined) await enforce(request, policy);
    });
  },
  // error-handler's preValidation hook (no NUL character reaches a query) runs before the policy's
  { name: 'policies', dependencies: ['auth', 'error-handler'] },
);
