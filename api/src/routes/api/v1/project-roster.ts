import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  CLIENT_ROLES,
  LEAD_ROLES,
  PROJECT_ROLES,
  STAFF_ROLES,
  UNIQUE_ROLES,
  type ProjectRole,
  type RoleAssignment,
} from '@portal/shared/core/projects';
import * as api from '@portal/shared/core/projects/api';
import { sharesCompany } from '../../../db/company-users';
import { moduleAccessFor } from '../../../db/module-access';
import {
  isActiveCompanyMember,
  isCompanyMember,
  listProjectMembers,
  memberRole,
  removeMember,
  rosterCandidates,
  setMemberRole,
  uniqueRoleHolders,
  userProjects,
  type ProjectScope,
} from '../../../db/roster';
import { roleHolder } from '../../../db/projects';
import type { Database } from '../../../db/schema';
import { findUserById, type UserRecord } from '../../../db/users';
import { audit } from '../../../lib/audit';
import { HttpError } from '../../../lib/http-error';
import { requireAuth } from '../../../plugins/app/auth';
import { route } from '../../../lib/contract';
import { policyProject, projectAccessFor, type ProjectAccess } from '../../../plugins/app/policies';
import { managesProjects } from '../../../modules/projects/permissions';
import { settleDuplicate } from '../../../modules/projects/writes';

const userNotFound = () => new HttpError(404, 'user_not_found');
const forbiddenRole = () => new HttpError(403, 'forbidden_role_assignment');

const isLead = (role: ProjectRole | null): boolean => role !== null && LEAD_ROLES.includes(role);

/** Rules 5 and 6 of a role change: whether a user holding `current` may be given `next`. */
function changeAllowed(current: ProjectRole | null, next: ProjectRole): boolean {
  if (current === next) return true;
  if (
    (current === 'Lead Consultant' && next === 'Project Manager') ||
    (current === 'Project Manager' && next === 'Lead Consultant')
  )
    return false;
  return !isLead(current);
}

/** How the caller may change the roster: any role (staff managers), client roles to clients (the Client Lead), or not at all. */
type RosterPower = 'all' | 'clientLead' | 'none';

function rosterPower(caller: UserRecord, access: ProjectAccess): RosterPower {
  if (managesProjects(caller)) return 'all';
  if (!caller.isTevora && access.role === 'Client Lead') return 'clientLead';
  return 'none';
}

const cannotChangeRoster = (caller: UserRecord) =>
  caller.isTevora
    ? new HttpError(403, 'user_can_not_update_project')
    : new HttpError(403, 'client_cannot_add_user_to_project');

/** Whether `role` may go to this user at all: staff roles to staff, client roles to clients, never lead consultant to an auditor. */
function fitsUser(role: ProjectRole, user: { isTevora: boolean; isAuditor: boolean }): boolean {
  if (user.isTevora) return !CLIENT_ROLES.includes(role) && !(user.isAuditor && role === 'Lead Consultant');
  return !STAFF_ROLES.includes(role);
}

type Holders = Awaited<ReturnType<typeof uniqueRoleHolders>>;

/** The roles the caller could give a user now (the PATCH rules, seen from the picker). */
function givableRoles(
  power: RosterPower,
  target: { id: string; isTevora: boolean; isAuditor: boolean; role: ProjectRole | null },
  holders: Holders,
): ProjectRole[] {
  if (power === 'none' || (power === 'clientLead' && target.isTevora)) return [];
  return PROJECT_ROLES.filter((role) => {
    const holder = holders.get(role);
    // A Client Lead never takes a role away from staff.
    if (power === 'clientLead' && holder && holder.isTevora && holder.userId !== target.id) return false;
    return fitsUser(role, target) && changeAllowed(target.role, role);
  });
}

/** The project roster and role assignments. */
export default async function projectRosterRoutes(app: FastifyInstance) {
  const { db } = app;

  route(app, api.listProjectMembers, async (request) => ({
    results: await listProjectMembers(db, policyProject(request).project.id),
  }));

  // The roster's pickers, for those who may change the roster: a Client Lead sees the company's users only.
  route(app, api.listAssignableUsers, async (request) => {
    const access = policyProject(request);
    const { user } = await requireAuth(request);
    const power = rosterPower(user, access);
    if (power === 'none') throw cannotChangeRoster(user);
    const [candidates, holders] = await Promise.all([
      rosterCandidates(db, access.project.id, access.project.companyId, { clientsOnly: power === 'clientLead' }),
      uniqueRoleHolders(db, access.project.id),
    ]);
    return {
      results: candidates.map(({ role, isAuditor, ...candidate }) => ({
        ...candidate,
        roles: givableRoles(power, { id: candidate.id, isTevora: candidate.isTevora, isAuditor, role }, holders),
      })),
    };
  });

  /** Which projects the caller sees: staff managers all, auditors their own, clients their companies' with projects on. */
  async function scopeOf(caller: UserRecord): Promise<ProjectScope> {
    if (managesProjects(caller)) return { all: true };
    if (caller.isTevora) return { projectsOf: caller.id };
    const memberships = await db
      .selectFrom('company_memberships')
      .select('company_id')
      .where('user_id', '=', caller.id)
      .where('access_revoked_at', 'is', null)
      .execute();
    const companyIds: string[] = [];
    for (const { company_id } of memberships) {
      if ((await moduleAccessFor(db, caller.id, company_id)).projects) companyIds.push(company_id);
    }
    return { companyIds };
  }

  route(app, api.listUserProjects, async (request) => {
    const { user: caller } = await requireAuth(request);
    const target = await findUserById(db, request.params.id);
    const visible =
      target && (target.id === caller.id || managesProjects(caller) || (await sharesCompany(db, caller.id, target.id)));
    if (!visible) throw userNotFound();
    return { results: await userProjects(db, target.id, await scopeOf(caller)) };
  });

  /** The project of `projectId` as the caller sees it: 404 when it is not theirs to see. */
  async function accessTo(caller: UserRecord, projectId: string): Promise<ProjectAccess> {
    const access = await projectAccessFor(db, caller, projectId);
    if (!access) throw new HttpError(404, 'project_not_found');
    return access;
  }

  route(app, api.getRoleAssignment, async (request) => {
    const { user: caller } = await requireAuth(request);
    const { userId } = request.params;
    const { projectId } = request.query;
    const { project } = await accessTo(caller, projectId);
    const target = await findUserById(db, userId);
    const role = target ? await memberRole(db, project.id, target.id) : null;
    // Users who could never be on this roster are not revealed.
    if (!target || (!target.isTevora && role === null && !(await isCompanyMember(db, project.companyId, target.id))))
      throw userNotFound();
    return { userId: target.id, projectId: project.id, role };
  });

  route(app, api.updateRoleAssignment, async (request) => {
    const { user: caller } = await requireAuth(request);
    const { userId } = request.params;
    const { projectId, role } = request.body;
    const access = await accessTo(caller, projectId);
    // The one-holder index catches another request giving the same role at the same time.
    return settleDuplicate(
      () => new HttpError(409, 'project_role_taken'),
      () => db.transaction().execute((trx) => assign(request, trx, { caller, access, userId, role })),
    );
  });

  /** The PATCH rules, in the order the contract lists them; any error rolls the whole change back. */
  async function assign(
    request: FastifyRequest,
    trx: Kysely<Database>,
    {
      caller,
      access,
      userId,
      role,
    }: { caller: UserRecord; access: ProjectAccess; userId: string; role: ProjectRole | null },
  ): Promise<RoleAssignment> {
    const { project } = access;
    const reply: RoleAssignment = { userId, projectId: project.id, role };

    // 1. Who may change the roster.
    const power = rosterPower(caller, access);
    if (power === 'none') throw cannotChangeRoster(caller);
    if (power === 'clientLead' && role !== null && STAFF_ROLES.includes(role)) throw forbiddenRole();

    // 2. The target: staff or an active member of the company (a removal also reaches a revoked member still on the roster).
    const target = await findUserById(trx, userId);
    const current = target ? await memberRole(trx, project.id, target.id) : null;
    const eligible =
      target !== null &&
      (target.isTevora ||
        (await isActiveCompanyMember(trx, project.companyId, target.id)) ||
        (role === null && current !== null));
    if (!target || !eligible) throw userNotFound();
    if (power === 'clientLead' && target.isTevora) throw forbiddenRole();
    if (role !== null && target.status !== 'active') throw new HttpError(400, 'user_is_inactive');

    // 3. Removal.
    if (role === null) {
      if (current === null) throw new HttpError(404, 'user_not_in_project');
      if (isLead(current)) throw new HttpError(409, 'lead_user_can_not_be_revoked');
    }
    // 4. Nothing to change.
    if (role === current) return reply;

    if (role !== null) {
      // 5 and 6. One role per user: a lead keeps theirs until it is given to someone else.
      if (
        (current === 'Lead Consultant' && role === 'Project Manager') ||
        (current === 'Project Manager' && role === 'Lead Consultant')
      ) {
        throw new HttpError(409, 'same_project_lead_and_manager');
      }
      if (isLead(current)) {
        throw isLead(role)
          ? new HttpError(409, 'forbidden_role_assignment_for_lead')
          : new HttpError(409, 'lead_user_can_not_be_revoked');
      }
      // 7. Staff roles to staff, client roles to clients; auditors never lead.
      if (!fitsUser(role, target)) throw forbiddenRole();
      // 8. A role held by one user moves from its previous holder (a Client Lead never moves staff).
      if (UNIQUE_ROLES.includes(role)) {
        const holderId = await roleHolder(trx, project.id, role);
        const holder = holderId && holderId !== target.id ? await findUserById(trx, holderId) : null;
        if (holder && power === 'clientLead' && holder.isTevora) throw forbiddenRole();
        if (holder) {
          const next: ProjectRole | null =
            role === 'Lead Consultant' || (role === 'Project Manager' && holder.isTevora) ? 'Consultant' : null;
          if (next) await setMemberRole(trx, project.id, holder.id, next);
          else await removeMember(trx, project.id, holder.id);
          await auditRole(request, trx, project, holder, role, next);
        }
      }
      // 9. The target's one row.
      await setMemberRole(trx, project.id, target.id, role);
    } else {
      await removeMember(trx, project.id, target.id);
    }
    await auditRole(request, trx, project, target, current, role);
    return reply;
  }

  async function auditRole(
    request: FastifyRequest,
    trx: Kysely<Database>,
    project: ProjectAccess['project'],
    user: UserRecord,
    before: ProjectRole | null,
    after: ProjectRole | null,
  ): Promise<void> {
    await audit(
      request,
      {
        action: 'project.role',
        targetType: 'project',
        targetId: project.id,
        targetLabel: project.title,
        companyId: project.companyId,
        before: { userId: user.id, email: user.email, role: before },
        after: { userId: user.id, email: user.email, role: after },
      },
      trx,
    );
  }
}
