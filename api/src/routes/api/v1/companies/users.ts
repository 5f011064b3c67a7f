import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as api from '@portal/shared/core/companies/api';
import type { ModuleName } from '@portal/shared/core/modules';
import type { CompanyUser, UserModulesAccess } from '@portal/shared/core/settings';
import type { CompanyRecord } from '../../../../db/companies';
import {
  createCompanyUser,
  emailTaken,
  findCompanyUser,
  isLeadRole,
  listCompanyUsers,
  projectRolesInCompany,
  removeCompanyUser,
  setCompanyAccessRevoked,
  setCompanyUserRole,
  type CompanyUserRecord,
} from '../../../../db/company-users';
import { companyFederatesEmail } from '../../../../db/identity-providers';
import { moduleAccessFor, setUserModuleAccess, userModuleAccess } from '../../../../db/module-access';
import { createPasswordToken } from '../../../../db/password-tokens';
import { isUniqueViolation, nowIso } from '../../../../db/values';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { imageUrl } from '../../../../lib/images';
import { pageWindow } from '../../../../lib/paging';
import { RESET_PASSWORD_PATH, linkOrigin, mailBody } from '../../../../lib/password-reset';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { policyCompany } from '../../../../plugins/app/policies';
import { LOGIN_PATH } from '../../../../modules/auth/login-page';

/** How long an invitation's set-password link works. */
export const INVITE_LINK_TTL_DAYS = 7;

export function toCompanyUserDto(user: CompanyUserRecord): CompanyUser {
  return { ...user, avatar: imageUrl('users', user.id, user.avatar) };
}

const EMAIL_TAKEN_DETAILS = [{ field: 'email', message: 'Email address already in use.' }];

/** The members of a company: list, invite, role, revoke and restore access, remove, module access. */
export default async function companiesUsersRoutes(app: FastifyInstance) {
  const { db, config } = app;

  /** The member `userId` of the route's company, or 404 user_not_found (also for users of other companies). */
  async function memberOf(
    request: FastifyRequest,
    userId: string,
  ): Promise<{ company: CompanyRecord; member: CompanyUserRecord }> {
    const company = policyCompany(request);
    const member = await findCompanyUser(db, company.id, userId);
    if (!member) throw new HttpError(404, 'user_not_found');
    return { company, member };
  }

  async function notSelf(request: FastifyRequest, member: CompanyUserRecord, message: string): Promise<void> {
    const { user } = await requireAuth(request);
    if (user.id === member.id) throw new HttpError(400, 'bad_request', message);
  }

  async function reloaded(companyId: string, userId: string): Promise<CompanyUser> {
    const member = await findCompanyUser(db, companyId, userId);
    if (!member) throw new HttpError(404, 'user_not_found');
    return toCompanyUserDto(member);
  }

  route(app, api.listCompanyUsers, async (request) => {
    const company = policyCompany(request);
    const { page, pageSize, ignorePagination, search, role, status, sort } = request.query;
    const window = pageWindow({ page, pageSize, ignorePagination });
    const { results, total } = await listCompanyUsers(db, company.id, {
      search: search || undefined,
      role,
      status,
      sort,
      limit: window.limit,
      offset: window.offset,
    });
    return window.reply(results.map(toCompanyUserDto), total);
  });

  /**
   * Invites a new user: the account and the membership in one transaction, then the mail (a
   * set-password link, or for a company with an identity provider a note to use single sign-on).
   * If the mail cannot be sent the account is removed again: nothing is left of a failed invite.
   */
  route(app, api.inviteCompanyUser, async (request, reply) => {
    const company = policyCompany(request);
    const { user: inviter } = await requireAuth(request);
    const input = request.body;
    if (await emailTaken(db, input.email))
      throw new HttpError(409, 'email_already_taken', undefined, EMAIL_TAKEN_DETAILS);
    // Invited to sign in through the company's identity provider only when it has verified the email's domain.
    const federated = await companyFederatesEmail(db, company.id, input.email);

    let created: { userId: string; token: string | null };
    try {
      created = await db.transaction().execute(async (trx) => {
        const userId = await createCompanyUser(trx, company.id, {
          ...input,
          title: input.title ?? null,
          isFederated: federated,
        });
        const token = federated
          ? null
          : (await createPasswordToken(trx, { userId, purpose: 'invite', ttlMinutes: INVITE_LINK_TTL_DAYS * 24 * 60 }))
              .token;
        await audit(
          request,
          {
            action: 'user.invite',
            targetType: 'user',
            targetId: userId,
            targetLabel: input.email,
            companyId: company.id,
            after: {
              email: input.email,
              firstName: input.firstName,
              lastName: input.lastName,
              title: input.title ?? null,
              role: input.role,
              isFederated: federated,
            },
          },
          trx,
        );
        return { userId, token };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, 'email_already_taken', undefined, EMAIL_TAKEN_DETAILS);
      throw error;
    }

    const portal = `${config.brandName} Portal`;
    const origin = linkOrigin(app);
    const intro = `${inviter.firstName} ${inviter.lastName} added you to the ${portal} for ${company.name}.`;
    const body = created.token
      ? mailBody([
          `Hello ${input.firstName},`,
          intro,
          `Choose your password here: ${origin}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(created.token)}`,
          `The link works once and expires in ${INVITE_LINK_TTL_DAYS} days. Your sign-in email is ${input.email}.`,
        ])
      : mailBody([
          `Hello ${input.firstName},`,
          intro,
          `You sign in with your company's single sign-on: go to ${origin}${LOGIN_PATH}, enter ${input.email} and you will be taken to your company's sign-in page. The portal never asks you for a password.`,
        ]);
    try {
      await app.mailer.send({
        to: input.email,
        subject: `You are invited to the ${portal}`,
        text: body.text,
        html: body.html,
      });
    } catch (error) {
      request.log.error(
        { err: error, userId: created.userId },
        'invitation mail could not be sent: invitation withdrawn',
      );
      // Withdrawn whole: the account and the record of inviting it.
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('audit_log')
          .where('action', '=', 'user.invite')
          .where('target_id', '=', created.userId)
          .execute();
        await trx.deleteFrom('users').where('id', '=', created.userId).execute();
      });
      throw new HttpError(
        503,
        'service_unavailable',
        'The invitation mail could not be sent, so nobody was invited. Please try again later.',
      );
    }
    return reply.code(201).send(await reloaded(company.id, created.userId));
  });

  route(app, api.updateCompanyUserRole, async (request) => {
    const { company, member } = await memberOf(request, request.params.userId);
    await notSelf(request, member, 'You cannot change your own role: ask another administrator.');
    const { role } = request.body;
    if (role !== member.role) {
      await db.transaction().execute(async (trx) => {
        await setCompanyUserRole(trx, company.id, member.id, role);
        await audit(
          request,
          {
            action: 'user.role.update',
            targetType: 'user',
            targetId: member.id,
            targetLabel: member.email,
            companyId: company.id,
            before: { role: member.role },
            after: { role },
          },
          trx,
        );
      });
    }
    return reloaded(company.id, member.id);
  });

  /** The member stays listed but no longer sees the company; their sessions go on (they may work for other companies). */
  route(app, api.revokeCompanyAccess, async (request) => {
    const { company, member } = await memberOf(request, request.params.userId);
    await notSelf(request, member, 'You cannot revoke your own access.');
    if (!member.accessRevoked) {
      await db.transaction().execute(async (trx) => {
        await setCompanyAccessRevoked(trx, company.id, member.id, nowIso());
        await audit(
          request,
          {
            action: 'user.access.revoke',
            targetType: 'user',
            targetId: member.id,
            targetLabel: member.email,
            companyId: company.id,
            before: { accessRevoked: false },
            after: { accessRevoked: true },
          },
          trx,
        );
      });
    }
    return reloaded(company.id, member.id);
  });

  route(app, api.restoreCompanyAccess, async (request) => {
    const { company, member } = await memberOf(request, request.params.userId);
    if (member.accessRevoked) {
      await db.transaction().execute(async (trx) => {
        await setCompanyAccessRevoked(trx, company.id, member.id, null);
        await audit(
          request,
          {
            action: 'user.access.restore',
            targetType: 'user',
            targetId: member.id,
            targetLabel: member.email,
            companyId: company.id,
            before: { accessRevoked: true },
            after: { accessRevoked: false },
          },
          trx,
        );
      });
    }
    return reloaded(company.id, member.id);
  });

  /** Removes the member with their teams, module values and project roles in the company; a lead role must be reassigned first. */
  route(app, api.removeCompanyUser, async (request, reply) => {
    const { company, member } = await memberOf(request, request.params.userId);
    await notSelf(request, member, 'You cannot remove yourself from the company.');
    await db.transaction().execute(async (trx) => {
      const roles = await projectRolesInCompany(trx, company.id, member.id);
      const leads = roles.filter((r) => isLeadRole(r.role));
      if (leads.length > 0) {
        throw new HttpError(
          409,
          'lead_user_can_not_be_revoked',
          `${member.firstName} ${member.lastName} is ${leads.map((l) => `${l.role} of ${l.title}`).join(', ')}: reassign the role first.`,
        );
      }
      await removeCompanyUser(trx, company.id, member.id);
      await audit(
        request,
        {
          action: 'user.remove',
          targetType: 'user',
          targetId: member.id,
          targetLabel: member.email,
          companyId: company.id,
          before: {
            role: member.role,
            accessRevoked: member.accessRevoked,
            teams: member.teams.map((t) => t.name),
            projectRoles: roles.map((r) => ({ project: r.title, role: r.role })),
          },
          after: null,
        },
        trx,
      );
    });
    return reply.code(204).send();
  });

  async function modulesAccess(company: CompanyRecord, userId: string): Promise<UserModulesAccess> {
    const [own, effective] = await Promise.all([
      userModuleAccess(db, company.id, userId),
      moduleAccessFor(db, userId, company.id),
    ]);
    return { modulesAccess: own, effective, company: company.modulesAccess };
  }

  route(app, api.getCompanyUserModulesAccess, async (request) => {
    const { company, member } = await memberOf(request, request.params.userId);
    return modulesAccess(company, member.id);
  });

  route(app, api.updateCompanyUserModulesAccess, async (request) => {
    const { company, member } = await memberOf(request, request.params.userId);
    const current = await userModuleAccess(db, company.id, member.id);
    const changes = (Object.entries(request.body) as [ModuleName, boolean | null | undefined][]).filter(
      (entry): entry is [ModuleName, boolean | null] => entry[1] !== undefined && current[entry[0]] !== entry[1],
    );
    if (changes.length > 0) {
      await db.transaction().execute(async (trx) => {
        for (const [module, enabled] of changes) await setUserModuleAccess(trx, company.id, member.id, module, enabled);
        await audit(
          request,
          {
            action: 'user.modules.update',
            targetType: 'user',
            targetId: member.id,
            targetLabel: member.email,
            companyId: company.id,
            before: Object.fromEntries(changes.map(([m]) => [m, current[m]])),
            after: Object.fromEntries(changes),
          },
          trx,
        );
      });
    }
    return modulesAccess(company, member.id);
  });
}
