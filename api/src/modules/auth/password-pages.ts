/** The password pages under /auth: forgot password, and choosing a new password (reset link or expired password). */
import type { PasswordPolicy } from '@portal/shared/core/schemas';
import { RESET_PASSWORD_PATH } from '../../lib/password-reset';
import { FORGOT_PASSWORD_PATH, LOGIN_PATH, escapeHtml, invalidAttributes, renderAuthPage } from './login-page';

const SSO_NOTE =
  "If you sign in with your company's single sign-on, your password is managed by your company: reset it there.";

export interface ForgotPasswordPageInput {
  brandName: string;
  email?: string;
  error?: string | null;
}

export function renderForgotPasswordPage({ brandName, email = '', error = null }: ForgotPasswordPageInput): string {
  const body = `  <form method="post" action="${FORGOT_PASSWORD_PATH}" novalidate>
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required maxlength="320" value="${escapeHtml(email)}"${invalidAttributes(error, true)} autofocus>
    <button type="submit">Send reset link</button>
  </form>
  <p class="aside">${escapeHtml(SSO_NOTE)}</p>
  <p class="aside"><a href="${LOGIN_PATH}">Back to sign in</a></p>`;
  return renderAuthPage({
    brandName,
    title: 'Forgot password',
    heading: 'Forgot your password?',
    lead: 'Enter the email you sign in with and we will send you a link to choose a new password.',
    error,
    body,
  });
}

/** The same answer whether or not the account exists (no user enumeration). */
export function renderForgotPasswordSentPage({
  brandName,
  linkMinutes,
}: {
  brandName: string;
  linkMinutes: number;
}): string {
  const body = `  <p>The link works once and expires in ${linkMinutes} minutes. Nothing arrived? Check your spam folder, or ask again in a few minutes.</p>
  <p class="aside">${escapeHtml(SSO_NOTE)}</p>
  <p class="aside"><a href="${LOGIN_PATH}">Back to sign in</a></p>`;
  return renderAuthPage({
    brandName,
    title: 'Check your email',
    heading: 'Check your email',
    notice: 'If an account exists for that email, we sent a link to reset its password.',
    body,
  });
}

export interface ChoosePasswordPageInput {
  brandName: string;
  token: string;
  policy: PasswordPolicy;
  /** `expired`: right after signing in with a password the policy retired; `reset`: from a reset link. */
  reason: 'expired' | 'reset';
  error?: string | null;
  errorField?: 'password' | 'confirmPassword' | null;
}

export function renderChoosePasswordPage({
  brandName,
  token,
  policy,
  reason,
  error = null,
  errorField = null,
}: ChoosePasswordPageInput): string {
  const about = (field: 'password' | 'confirmPassword') => errorField === field || errorField === null;
  const passwordDescription =
    error && about('password')
      ? ' aria-invalid="true" aria-describedby="form-error password-hint"'
      : ' aria-describedby="password-hint"';
  const rotation =
    policy.rotationInDays > 0
      ? ` It has to be changed every ${policy.rotationInDays} day${policy.rotationInDays === 1 ? '' : 's'}.`
      : '';
  const body = `  <form method="post" action="${RESET_PASSWORD_PATH}" novalidate>
    <input type="hidden" name="token" value="${escapeHtml(token)}">
    <input type="hidden" name="reason" value="${reason}">
    <label for="password">New password</label>
    <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${policy.minimumLength}" maxlength="256"${passwordDescription}${errorField === 'confirmPassword' ? '' : ' autofocus'}>
    <p id="password-hint" class="hint">At least ${policy.minimumLength} characters.${rotation}</p>
    <label for="confirmPassword">Confirm new password</label>
    <input id="confirmPassword" name="confirmPassword" type="password" autocomplete="new-password" required maxlength="256"${invalidAttributes(error, about('confirmPassword'))}${errorField === 'confirmPassword' ? ' autofocus' : ''}>
    <button type="submit">Set password and sign in</button>
  </form>
  <p class="aside"><a href="${LOGIN_PATH}">Back to sign in</a></p>`;
  return renderAuthPage({
    brandName,
    title: 'Choose a new password',
    heading: 'Choose a new password',
    lead:
      reason === 'expired'
        ? 'Your password has expired. Choose a new one to continue.'
        : 'Choose the password you will sign in with.',
    error,
    body,
  });
}

/** A reset link that is unknown, used, or expired, or whose account cannot take a local password. */
export function renderPasswordLinkProblemPage({ brandName, message }: { brandName: string; message: string }): string {
  const body = `  <p class="aside"><a href="${FORGOT_PASSWORD_PATH}">Send a new link</a></p>
  <p class="aside"><a href="${LOGIN_PATH}">Back to sign in</a></p>`;
  return renderAuthPage({
    brandName,
    title: 'Choose a new password',
    heading: 'Choose a new password',
    error: message,
    body,
  });
}
