import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Updateable } from 'kysely';
import type { AssignedObject, StaffUser, UserDetail, UserStatus } from '@portal/shared/core/settings';
import * as api from '@portal/shared/core/users/api';
import {
  accountWithinCallerCompanies,
  assignedProjectsFor,
  isLeadRole,
  removeProjectRole,
  userCompaniesFor,
  userSignInState,
} from '../../../../db/company-users';
import { practicesOfUsers, setStaffPractices } from '../../../../db/practices';
import {
  findStaffUser,
  listStaffUsers,
  practicesOfStaffUser,
  setStaffAdmin,
  unknownPracticeIds,
  type StaffUserRecord,
} from '../../../../db/staff';
import type { UsersTable } from '../../../../db/schema';
import { findUserById, setUserStatus, type UserRecord } from '../../../../db/users';
import { nowIso } from '../../../../db/values';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { deleteImage, imageUrl } from '../../../../lib/images';
import { signsInWithSso } from '../../../../lib/password-reset';
import { requireAuth } from '../../../../plugins/app/auth';
import { invalidField, route } from '../../../../lib/contract';
import { policyTargetUser } from '../../../../plugins/app/policies';

/** The fields of userAdminUpdateSchema: a PATCH changes only those the body names. */
const ADMIN_FIELDS = ['firstName', 'lastName', 'title', 'primaryPhone', 'status'] as const;
const COLUMN_OF = {
  firstName: 'first_name',
  lastName: 'last_name',
  title: 'title',
  primaryPhone: 'primary_phone',
} as const;

/** Users seen by administrators (company admins and staff), and the staff users and their roles. */
export default async function usersAdminRoutes(app: FastifyInstance) {
  const { db, config } = app;

  async function userDetail(request: FastifyRequest, userId: string): Promise<UserDetail> {
    const { user: viewer } = await requireAuth(request);
    const user = await findUserById(db, userId);
    const state = await userSignInState(db, userId);
    if (!user || !state) throw new HttpError(404, 'user_not_found');
    return {
      id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      title: user.title,
      primaryPhone: user.primaryPhone,
      avatar: imageUrl('users', user.id, user.avatar),
      status: user.status,
      invited: state.invited,
      isTevora: user.isTevora,
      isAuditor: user.isAuditor,
      isAdmin: user.isAdmin,
      isFederated: await signsInWithSso(db, user),
      lastSignInAt: state.lastSignInAt,
      createdAt: user.createdAt,
      companies: await userCompaniesFor(db, user.id, viewer),
    };
  }

  async function toStaffDto(user: StaffUserRecord): Promise<StaffUser> {
    const practices = await practicesOfUsers(db, [user.id]);
    return { ...user, avatar: imageUrl('users', user.id, user.avatar), practices: practices.get(user.id) ?? [] };
  }

  async function staffTarget(id: string): Promise<StaffUserRecord> {
    const staff = await findStaffUser(db, id);
    if (!staff) throw new HttpError(404, 'user_not_found');
    return staff;
  }

  const label = (user: Pick<UserRecord, 'email'>) => user.email;

  route(app, api.getUser, async (request) => userDetail(request, policyTargetUser(request).id));

  route(app, api.updateUser, async (request) => {
    const target = policyTargetUser(request);
    const { user: caller } = await requireAuth(request);
    // Only the fields the body names change (the schema refuses a body that names none).
    const data = request.body;
    const named = ADMIN_FIELDS.filter((f) => data[f] !== undefined);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const set: Updateable<UsersTable> = {};
    for (const field of named) {
      if (field === 'status') continue;
      const value = data[field] ?? null;
      if (target[field] === value) continue;
      (set as Record<string, string | null>)[COLUMN_OF[field]] = value;
      before[field] = target[field];
      after[field] = value;
    }
    const status = named.includes('status') && data.status !== target.status ? data.status : undefined;
    if (status === 'suspended' && target.id === caller.id)
      throw new HttpError(400, 'bad_request', 'You cannot suspend yourself.');
    if (status && !(await accountWithinCallerCompanies(db, target.id, caller))) {
      throw new HttpError(
        403,
        'forbidden',
        'This user also belongs to companies you do not administer: revoke their access to your company instead of suspending the account.',
      );
    }
    if (Object.keys(set).length > 0 || status) {
      await db.transaction().execute(async (trx) => {
        if (Object.keys(set).length > 0) {
          await trx
            .updateTable('users')
            .set({ ...set, updated_at: nowIso() })
            .where('id', '=', target.id)
            .execute();
          await audit(
            request,
            {
              action: 'user.update',
              targetType: 'user',
              targetId: target.id,
              targetLabel: label(target),
              before,
              after,
            },
            trx,
          );
        }
        if (status) {
          // Suspension ends every session of the user at once (setUserStatus).
          await setUserStatus(trx, target.id, status);
          await audit(
            request,
            {
              action: status === 'suspended' ? 'user.suspend' : 'user.unsuspend',
              targetType: 'user',
              targetId: target.id,
              targetLabel: label(target),
              before: { status: target.status },
              after: { status },
            },
            trx,
          );
        }
      });
    }
    return userDetail(request, target.id);
  });

  route(app, api.getUserStatus, async (request) => {
    const target = policyTargetUser(request);
    const state = await userSignInState(db, target.id);
    const body: UserStatus = {
      status: target.status,
      invited: state?.invited ?? false,
      isFederated: await signsInWithSso(db, target),
    };
    return body;
  });

  route(app, api.deleteUserAvatar, async (request) => {
    const target = policyTargetUser(request);
    if (target.avatar) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ avatar: null, updated_at: nowIso() })
          .where('id', '=', target.id)
          .execute();
        await audit(
          request,
          {
            action: 'user.avatar.delete',
            targetType: 'user',
            targetId: target.id,
            targetLabel: label(target),
            before: { avatar: target.avatar },
            after: { avatar: null },
          },
          trx,
        );
      });
      await deleteImage(config.dataDir, target.avatar);
    }
    return userDetail(request, target.id);
  });

  route(app, api.listAssignedObjects, async (request) => {
    const target = policyTargetUser(request);
    const { user: viewer } = await requireAuth(request);
    const roles = await assignedProjectsFor(db, target.id, viewer, request.query.companyId);
    const results: AssignedObject[] = roles.map((r) => ({
      module: 'projects',
      objectId: r.projectId,
      name: r.title,
      companyId: r.companyId,
      role: r.role,
      removable: !isLeadRole(r.role),
    }));
    return { results };
  });

  route(app, api.removeObjectAccess, async (request, reply) => {
    const target = policyTargetUser(request);
    const { user: viewer } = await requireAuth(request);
    const { objectId } = request.params;
    // Projects are the only objects with per-user access so far; other modules have nothing to remove.
    const found =
      request.query.module === 'projects'
        ? (await assignedProjectsFor(db, target.id, viewer)).find((r) => r.projectId === objectId)
        : undefined;
    if (!found) throw new HttpError(404, 'not_found', 'The user has no access to this object.');
    if (isLeadRole(found.role)) {
      throw new HttpError(
        409,
        'lead_user_can_not_be_revoked',
        `${target.firstName} ${target.lastName} is ${found.role} of ${found.title}: reassign the role first.`,
      );
    }
    await db.transaction().execute(async (trx) => {
      await removeProjectRole(trx, found.projectId, target.id);
      await audit(
        request,
        {
          action: 'user.objectAccess.remove',
          targetType: 'user',
          targetId: target.id,
          targetLabel: label(target),
          companyId: found.companyId,
          before: { module: 'projects', objectId: found.projectId, name: found.title, role: found.role },
          after: null,
        },
        trx,
      );
    });
    return reply.code(204).send();
  });

  route(app, api.listStaff, async (request) => {
    const { page, pageSize, search } = request.query;
    const { results, total } = await listStaffUsers(db, {
      search: search || undefined,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    const practices = await practicesOfUsers(
      db,
      results.map((r) => r.id),
    );
    return {
      results: results.map((r): StaffUser => ({
        ...r,
        avatar: imageUrl('users', r.id, r.avatar),
        practices: practices.get(r.id) ?? [],
      })),
      total,
      page,
      pageSize,
    };
  });

  /** A staff user's admin flag (users.editTevoraAdmins): never one's own, never the last active admin's. */
  route(app, api.setStaffRole, async (request) => {
    const { user: caller } = await requireAuth(request);
    const target = await staffTarget(request.params.id);
    const { role } = request.body;
    const isAdmin = role === 'admin';
    if (target.id === caller.id)
      throw new HttpError(
        400,
        'bad_request',
        'You cannot change your own administrator role: ask another administrator.',
      );
    if (isAdmin !== target.isAdmin) {
      await db.transaction().execute(async (trx) => {
        if (!(await setStaffAdmin(trx, target.id, isAdmin))) {
          throw new HttpError(
            400,
            'bad_request',
            'This is the last active administrator: make someone else an administrator first.',
          );
        }
        await audit(
          request,
          {
            action: 'staff.admin.update',
            targetType: 'user',
            targetId: target.id,
            targetLabel: target.email,
            before: { role: target.isAdmin ? 'admin' : 'staff' },
            after: { role },
          },
          trx,
        );
      });
    }
    return toStaffDto((await findStaffUser(db, target.id))!);
  });

  route(app, api.listStaffPractices, async (request) => {
    const target = await staffTarget(request.params.id);
    return { results: await practicesOfStaffUser(db, target.id) };
  });

  route(app, api.setStaffPractices, async (request) => {
    const target = await staffTarget(request.params.id);
    const ids = [...new Set(request.body.practiceIds)];
    const unknown = await unknownPracticeIds(db, ids);
    if (unknown.length > 0) {
      throw invalidField('practiceIds', `practiceIds names practices that do not exist: ${unknown.join(', ')}`);
    }
    const current = await practicesOfStaffUser(db, target.id);
    const currentIds = new Set(current.map((p) => p.id));
    const changed = ids.length !== currentIds.size || ids.some((id) => !currentIds.has(id));
    if (changed) {
      await db.transaction().execute(async (trx) => {
        await setStaffPractices(trx, target.id, ids);
        const now = await practicesOfStaffUser(trx, target.id);
        await audit(
          request,
          {
            action: 'staff.practices.update',
            targetType: 'user',
            targetId: target.id,
            targetLabel: target.email,
            before: { practices: current.map((p) => p.name) },
            after: { practices: now.map((p) => p.name) },
          },
          trx,
        );
      });
    }
    return { results: await practicesOfStaffUser(db, target.id) };
  });
}
