import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_MESSAGES, resetPasswordFailure } from '@portal/shared/core/errors';
import * as api from '@portal/shared/core/portal/api';
import { passwordPolicyForUser } from '../../db/password-policies';
import { consumePasswordToken, createPasswordToken, findUsablePasswordToken } from '../../db/password-tokens';
import { deleteSessionByToken } from '../../db/sessions';
import {
  findUserCredentialsByEmail,
  findUserCredentialsById,
  setUserPassword,
  type UserCredentials,
} from '../../db/users';
import {
  RESET_LINK_TTL_MINUTES,
  sendPasswordResetLink,
  sendSsoPasswordNote,
  signsInWithSso,
} from '../../lib/password-reset';
import { hashPassword, isPasswordExpired, newPasswordProblem, verifyPassword } from '../../lib/passwords';
import {
  beginSignInAttempt,
  clearSignInFailures,
  signInSucceeded,
  takeForgotPasswordAttempt,
  waitText,
} from '../../modules/auth/sign-in-limits';
import { SAML_BINDING_COOKIE, SAML_REQUEST_TTL_MS, samlBindingFor } from '../../lib/saml';
import { samlRedirectForEmail } from '../../lib/saml-login';
import { HttpError, type ErrorDetail } from '../../lib/http-error';
import { SESSION_COOKIE, clearSessionCookie, getAuth, startSession } from '../../plugins/app/auth';
import { route } from '../../lib/contract';
import {
  LOGIN_PATH,
  escapeHtml,
  renderAuthPage,
  renderLoginPage,
  type LoginPageInput,
} from '../../modules/auth/login-page';
import { FORM_PAGE, TO_URL_COOKIE, formFields, safeReturnPath } from '../../modules/auth/sign-in-forms';
import {
  renderChoosePasswordPage,
  renderForgotPasswordPage,
  renderForgotPasswordSentPage,
  renderPasswordLinkProblemPage,
  type ChoosePasswordPageInput,
} from '../../modules/auth/password-pages';

export const SIGN_OUT_PATH = api.signOut.url;

/** The sign-out page's CSRF token: derived from the session token, which another site cannot read. */
function signOutToken(sessionToken: string): string {
  return createHash('sha256').update(`sign-out:${sessionToken}`).digest('base64url');
}

function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
/** The change token issued after a correct but expired password: enough to choose a new one, not a session. */
export const EXPIRED_PASSWORD_TOKEN_TTL_MINUTES = 10;

/** The first problem the form's schema found (the page shows it), or null when it accepted the form. */
function formProblem(request: FastifyRequest): ErrorDetail | null {
  const error = request.validationError;
  if (!error) return null;
  if (error instanceof HttpError && error.details?.length) return error.details[0];
  throw error;
}

function sendPage(reply: FastifyReply, status: number, html: string) {
  return (
    reply
      .code(status)
      .header('cache-control', 'no-store')
      // A reset token in the address must not travel to another site in a Referer.
      .header('referrer-policy', 'same-origin')
      .type('text/html; charset=utf-8')
      .send(html)
  );
}

export default async function authRoutes(app: FastifyInstance) {
  const { config, db } = app;
  const brandName = config.brandName;

  const loginPage = (reply: FastifyReply, status: number, input: Omit<LoginPageInput, 'brandName'>) =>
    sendPage(reply, status, renderLoginPage({ brandName, ...input }));
  const choosePage = (reply: FastifyReply, status: number, input: Omit<ChoosePasswordPageInput, 'brandName'>) =>
    sendPage(reply, status, renderChoosePasswordPage({ brandName, ...input }));
  const linkProblem = (reply: FastifyReply, status: number, message: string) =>
    sendPage(reply, status, renderPasswordLinkProblemPage({ brandName, message }));
  const inactiveMessage = `${ERROR_MESSAGES.user_is_inactive} Please contact your ${brandName} Portal admin.`;

  async function signInAndReturn(request: FastifyRequest, reply: FastifyReply, userId: string) {
    await startSession(request, reply, userId);
    reply.clearCookie(TO_URL_COOKIE, { path: '/' });
    request.log.info({ userId }, 'signed in');
    return reply.header('cache-control', 'no-store').redirect(safeReturnPath(request.cookies[TO_URL_COOKIE]), 303);
  }

  route(app, api.showSignInPage, async (request, reply) => {
    if (await getAuth(request)) return reply.redirect('/', 303);
    return loginPage(reply, 200, {});
  });

  /**
   * Identifier-first: an email alone goes to the company's identity provider, or on to the password
   * step (unknown emails too: the answer does not tell who has an account). Email and password
   * together sign in at once (scripts, autofill), unless the company signs in with SSO.
   */
  route(
    app,
    api.signIn,
    async (request, reply) => {
      const problem = formProblem(request);
      if (problem) {
        // The email first (the form's first field); then the password, on the password step.
        const fields = formFields(request);
        if (problem.field === 'email') {
          return loginPage(reply, 400, {
            step: fields.step === 'password' ? 'password' : 'email',
            email: fields.email ?? '',
            error: problem.message,
            errorField: 'email',
          });
        }
        return loginPage(reply, 400, {
          step: 'password',
          email: (fields.email ?? '').trim(),
          error: problem.message,
          errorField: problem.field === 'password' ? 'password' : null,
        });
      }
      const { email, password = '', step } = request.body;
      if (password === '' && step === 'password') {
        return loginPage(reply, 400, {
          step: 'password',
          email,
          error: 'Password is required',
          errorField: 'password',
        });
      }

      const returnPath = safeReturnPath(request.cookies[TO_URL_COOKIE]);
      const binding = samlBindingFor(request.cookies[SAML_BINDING_COOKIE]);
      const identityProvider = await samlRedirectForEmail(app, email, returnPath, binding);
      if (identityProvider) {
        // The response must come back to this browser: the ACS checks this cookie against the request.
        reply.setCookie(SAML_BINDING_COOKIE, binding, {
          path: '/auth',
          httpOnly: true,
          secure: true,
          sameSite: 'none',
          maxAge: SAML_REQUEST_TTL_MS / 1000,
        });
        return reply.header('cache-control', 'no-store').redirect(identityProvider, 303);
      }
      if (password === '') return loginPage(reply, 200, { step: 'password', email });

      const attempt = await beginSignInAttempt(db, email, request.ip);
      if (!attempt.allowed) {
        request.log.warn({ retryAfterSeconds: attempt.retryAfterSeconds }, 'sign-in refused: too many failed attempts');
        reply.header('retry-after', attempt.retryAfterSeconds);
        return loginPage(reply, 429, {
          step: 'password',
          email,
          error: `Too many failed sign-in attempts. Please wait ${waitText(attempt.retryAfterSeconds)} and try again, or reset your password.`,
          errorField: null,
        });
      }
      const found = await findUserCredentialsByEmail(db, email);
      const valid = await verifyPassword(found?.passwordHash ?? null, password);
      if (!found || !valid) {
        request.log.info({ reason: found ? 'wrong password' : 'unknown user' }, 'sign-in failed');
        return loginPage(reply, 401, {
          step: 'password',
          email,
          error: ERROR_MESSAGES.failed_login,
          errorField: 'password',
        });
      }
      await signInSucceeded(db, email, request.ip);
      if (found.user.status !== 'active') {
        request.log.info({ userId: found.user.id }, 'sign-in refused: user suspended');
        return loginPage(reply, 403, { step: 'password', email, error: inactiveMessage, errorField: null });
      }

      const policy = await passwordPolicyForUser(db, found.user, config.staffPasswordPolicy);
      if (isPasswordExpired(found.passwordChangedAt, policy)) {
        // No session yet: a short-lived token lets this browser choose the new password, then signs in.
        const { token } = await createPasswordToken(db, {
          userId: found.user.id,
          purpose: 'reset',
          ttlMinutes: EXPIRED_PASSWORD_TOKEN_TTL_MINUTES,
        });
        request.log.info({ userId: found.user.id }, 'sign-in: password expired, a new one is required');
        return choosePage(reply, 200, { token, policy, reason: 'expired' });
      }
      return signInAndReturn(request, reply, found.user.id);
    },
    FORM_PAGE,
  );

  /**
   * Sign-out is a POST with CSRF proof: a same-origin Origin or Referer (the shell's form post), or the
   * token of the confirmation page. A GET (a link, an image another site embeds) only shows that page
   * with its button, so no other site can sign a user out.
   */
  const signOutPage = (reply: FastifyReply, token: string | null) =>
    sendPage(
      reply,
      200,
      renderAuthPage({
        brandName,
        title: 'Sign out',
        heading: 'Sign out',
        lead: token ? `Sign out of the ${brandName} Portal on this browser?` : 'You are signed out.',
        body: token
          ? `  <form method="post" action="${SIGN_OUT_PATH}">
    <input type="hidden" name="token" value="${escapeHtml(token)}">
    <button type="submit">Sign out</button>
  </form>
  <p class="aside"><a href="/">Stay signed in</a></p>`
          : `  <p class="aside"><a href="${LOGIN_PATH}">Sign in</a></p>`,
      }),
    );

  route(app, api.showSignOutPage, async (request, reply) => {
    const session = request.cookies[SESSION_COOKIE];
    return signOutPage(reply, session ? signOutToken(session) : null);
  });

  route(app, api.signOut, async (request, reply) => {
    const session = request.cookies[SESSION_COOKIE];
    if (session) {
      // The csrf plugin already refused a cross-site Origin or Referer; here one of them, or the page's token, must be there.
      const sameOrigin = request.headers.origin !== undefined || request.headers.referer !== undefined;
      const token = formFields(request).token;
      if (!sameOrigin && !(token !== undefined && tokensEqual(token, signOutToken(session)))) {
        request.log.info('sign-out without CSRF proof: confirmation page shown');
        return signOutPage(reply, signOutToken(session));
      }
      await deleteSessionByToken(db, session);
    }
    clearSessionCookie(request, reply);
    return reply.header('cache-control', 'no-store').redirect(LOGIN_PATH, 303);
  });

  route(app, api.showForgotPasswordPage, async (_request, reply) =>
    sendPage(reply, 200, renderForgotPasswordPage({ brandName })),
  );

  /** Always the same answer for any well-formed email (no user enumeration); limited per email and per address. */
  route(
    app,
    api.requestPasswordReset,
    async (request, reply) => {
      const problem = formProblem(request);
      if (problem) {
        const email = formFields(request).email ?? '';
        return sendPage(reply, 400, renderForgotPasswordPage({ brandName, email, error: problem.message }));
      }
      const { email } = request.body;
      const attempt = await takeForgotPasswordAttempt(db, email, request.ip);
      if (!attempt.allowed) {
        reply.header('retry-after', attempt.retryAfterSeconds);
        return sendPage(
          reply,
          429,
          renderForgotPasswordPage({
            brandName,
            email,
            error: `Too many reset requests. Please wait ${waitText(attempt.retryAfterSeconds)} and try again.`,
          }),
        );
      }
      const found = await findUserCredentialsByEmail(db, email);
      if (found && found.user.status === 'active') {
        try {
          if (await signsInWithSso(db, found.user)) await sendSsoPasswordNote(app, request, found.user);
          else await sendPasswordResetLink(app, request, found.user, 'user');
        } catch (error) {
          request.log.error({ err: error, userId: found.user.id }, 'password reset mail could not be sent');
          return sendPage(
            reply,
            503,
            renderForgotPasswordPage({ brandName, email, error: resetPasswordFailure(brandName) }),
          );
        }
      }
      return sendPage(reply, 200, renderForgotPasswordSentPage({ brandName, linkMinutes: RESET_LINK_TTL_MINUTES }));
    },
    FORM_PAGE,
  );

  const INVALID_LINK = 'This link is invalid, has already been used, or has expired. Ask for a new one below.';

  /** The user behind a usable token, or why the link cannot be used. */
  async function tokenUser(token: string): Promise<{ found: UserCredentials } | { status: number; message: string }> {
    const record = token ? await findUsablePasswordToken(db, token) : null;
    const found = record ? await findUserCredentialsById(db, record.userId) : null;
    if (!found) return { status: 400, message: INVALID_LINK };
    if (found.user.status !== 'active') return { status: 403, message: inactiveMessage };
    if (await signsInWithSso(db, found.user)) {
      return {
        status: 400,
        message: "You sign in with your company's single sign-on: your password is managed there, not in the portal.",
      };
    }
    return { found };
  }

  // A token the query schema refuses (given twice) is no token: the link page says so.
  route(
    app,
    api.showResetPasswordPage,
    async (request, reply) => {
      const token = (!request.validationError && request.query.token) || '';
      const check = await tokenUser(token);
      if (!('found' in check)) return linkProblem(reply, check.status, check.message);
      const policy = await passwordPolicyForUser(db, check.found.user, config.staffPasswordPolicy);
      return choosePage(reply, 200, { token, policy, reason: 'reset' });
    },
    FORM_PAGE,
  );

  /** Sets the password under the user's policy, uses the token up, ends every session, then signs this browser in. */
  // The page checks its fields itself, in its order (the link, then the password under the user's
  // policy, then the confirmation), on the form as posted, whether or not the form's schema accepted it.
  route(
    app,
    api.resetPassword,
    async (request, reply) => {
      const fields = formFields(request);
      const token = fields.token ?? '';
      const reason = fields.reason === 'expired' ? 'expired' : 'reset';
      const check = await tokenUser(token);
      if (!('found' in check)) return linkProblem(reply, check.status, check.message);
      const { found } = check;
      const policy = await passwordPolicyForUser(db, found.user, config.staffPasswordPolicy);
      const password = fields.password ?? '';
      const problem = await newPasswordProblem(password, policy, found.passwordHash, 'Password');
      if (problem) return choosePage(reply, 400, { token, policy, reason, error: problem, errorField: 'password' });
      if ((fields.confirmPassword ?? '') !== password) {
        return choosePage(reply, 400, {
          token,
          policy,
          reason,
          error: 'Passwords do not match',
          errorField: 'confirmPassword',
        });
      }
      // Exactly one of two racing posts gets the token.
      if (!(await consumePasswordToken(db, token))) return linkProblem(reply, 400, INVALID_LINK);
      await setUserPassword(db, found.user.id, await hashPassword(password));
      await clearSignInFailures(db, found.user.email, request.ip);
      request.log.info({ userId: found.user.id, reason }, 'password set');
      return signInAndReturn(request, reply, found.user.id);
    },
    FORM_PAGE,
  );
}
