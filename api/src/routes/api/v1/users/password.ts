import type { FastifyInstance } from 'fastify';
import { resetPasswordFailure } from '@portal/shared/core/errors';
import * as api from '@portal/shared/core/users/api';
import { accountWithinCallerCompanies } from '../../../../db/company-users';
import { passwordPolicyForUser } from '../../../../db/password-policies';
import { findUserCredentialsById, setUserPassword, unsuspendUser } from '../../../../db/users';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { sendPasswordResetLink, signsInWithSso } from '../../../../lib/password-reset';
import { hashPassword, newPasswordProblem, verifyPassword } from '../../../../lib/passwords';
import { beginSignInAttempt, signInSucceeded, waitText } from '../../../../modules/auth/sign-in-limits';
import { requireAuth, startSession } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { policyTargetUser } from '../../../../plugins/app/policies';

/** Passwords and suspension of users (reset-password, unsuspend; the settings screen's password change). */
export default async function userPasswordRoutes(app: FastifyInstance) {
  const { db, config } = app;

  /**
   * The signed-in user changes their own password. Every other session of theirs ends; this browser
   * gets a new session. Wrong current passwords count as failed sign-ins.
   */
  route(app, api.changePassword, async (request, reply) => {
    const { user } = await requireAuth(request);
    const { currentPassword, newPassword } = request.body;
    if (await signsInWithSso(db, user)) {
      throw new HttpError(
        400,
        'federated_user',
        "You sign in with your company's single sign-on: change your password there.",
      );
    }
    const attempt = await beginSignInAttempt(db, user.email, request.ip);
    if (!attempt.allowed) {
      reply.header('retry-after', attempt.retryAfterSeconds);
      throw new HttpError(
        429,
        'too_many_requests',
        `Too many wrong passwords: please wait ${waitText(attempt.retryAfterSeconds)} and try again.`,
      );
    }
    const credentials = await findUserCredentialsById(db, user.id);
    if (!credentials || !(await verifyPassword(credentials.passwordHash, currentPassword))) {
      throw new HttpError(400, 'current_password_incorrect', undefined, [
        { field: 'currentPassword', message: 'The current password is not correct.' },
      ]);
    }
    await signInSucceeded(db, user.email, request.ip);
    const policy = await passwordPolicyForUser(db, user, config.staffPasswordPolicy);
    const problem = await newPasswordProblem(newPassword, policy, credentials.passwordHash, 'newPassword');
    if (problem) throw new HttpError(400, 'validation_failed', problem, [{ field: 'newPassword', message: problem }]);
    await setUserPassword(db, user.id, await hashPassword(newPassword));
    await startSession(request, reply, user.id);
    request.log.info({ userId: user.id }, 'password changed');
    return reply.code(204).send();
  });

  /** Mails the user a one-time link to choose a new password. */
  route(app, api.sendPasswordReset, async (request, reply) => {
    const target = policyTargetUser(request);
    if (target.status !== 'active')
      throw new HttpError(400, 'user_is_inactive', 'The user is suspended: unsuspend them first.');
    if (await signsInWithSso(db, target)) {
      throw new HttpError(
        400,
        'federated_user',
        "This user signs in with their company's single sign-on: their password is managed there.",
      );
    }
    try {
      await sendPasswordResetLink(app, request, target, 'admin');
    } catch (error) {
      request.log.error({ err: error, userId: target.id }, 'password reset mail could not be sent');
      throw new HttpError(503, 'reset_password_failed', resetPasswordFailure(config.brandName));
    }
    await audit(request, {
      action: 'user.passwordReset',
      targetType: 'user',
      targetId: target.id,
      targetLabel: target.email,
      after: { resetLinkSent: true },
    });
    return reply.code(204).send();
  });

  route(app, api.unsuspendUser, async (request, reply) => {
    const target = policyTargetUser(request);
    const { user: caller } = await requireAuth(request);
    if (!(await accountWithinCallerCompanies(db, target.id, caller))) {
      throw new HttpError(
        403,
        'forbidden',
        'This user also belongs to companies you do not administer: revoke their access to your company instead.',
      );
    }
    if (target.status === 'suspended') {
      await db.transaction().execute(async (trx) => {
        await unsuspendUser(trx, target.id);
        await audit(
          request,
          {
            action: 'user.unsuspend',
            targetType: 'user',
            targetId: target.id,
            targetLabel: target.email,
            before: { status: 'suspended' },
            after: { status: 'active' },
          },
          trx,
        );
      });
    }
    request.log.info({ userId: target.id }, 'user unsuspended');
    return reply.code(204).send();
  });
}
