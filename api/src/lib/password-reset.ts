import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { findFederationByEmail } from '../db/identity-providers';
import { createPasswordToken, deletePasswordToken } from '../db/password-tokens';
import type { Database } from '../db/schema';
import type { UserRecord } from '../db/users';
import { escapeHtml } from './html';

export const RESET_PASSWORD_PATH = '/auth/reset-password';
/** How long an e-mailed reset link works. */
export const RESET_LINK_TTL_MINUTES = 60;

/**
 * Whether the user signs in through single sign-on: marked federated by a SAML sign-in, or a client
 * of a company with an identity provider (sign-in goes there, so a local password would be a back door).
 */
export async function signsInWithSso(
  db: Kysely<Database>,
  user: Pick<UserRecord, 'email' | 'isFederated'>,
): Promise<boolean> {
  return user.isFederated || (await findFederationByEmail(db, user.email)) !== null;
}

/** Links in mail point at PUBLIC_URL (in development http://localhost:<PORT>), never at the Host a request named. */
export function linkOrigin(app: FastifyInstance): string {
  return app.config.publicUrl;
}

/** A plain mail of paragraphs, as text and as escaped HTML. */
export function mailBody(lines: string[]): { text: string; html: string } {
  return {
    text: `${lines.join('\n\n')}\n`,
    html: `<!doctype html><html><body>${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</body></html>`,
  };
}

/**
 * Mails the user a one-time link to choose a password (`/auth/reset-password?token=…`, valid 60
 * minutes). Rejects when the mail could not be sent; the token is then withdrawn.
 */
export async function sendPasswordResetLink(
  app: FastifyInstance,
  request: FastifyRequest,
  user: Pick<UserRecord, 'id' | 'email' | 'firstName'>,
  requestedBy: 'user' | 'admin',
): Promise<void> {
  const { token } = await createPasswordToken(app.db, {
    userId: user.id,
    purpose: 'reset',
    ttlMinutes: RESET_LINK_TTL_MINUTES,
  });
  const link = `${linkOrigin(app)}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
  const portal = `${app.config.brandName} Portal`;
  const body = mailBody([
    `Hello ${user.firstName},`,
    requestedBy === 'admin'
      ? `An administrator of the ${portal} asked for your password to be reset.`
      : `Someone, hopefully you, asked to reset the password of your ${portal} account.`,
    `Choose a new password here: ${link}`,
    `The link works once and expires in ${RESET_LINK_TTL_MINUTES} minutes. If you did not ask for it, ignore this message: your password stays as it is.`,
  ]);
  try {
    await app.mailer.send({
      to: user.email,
      subject: `Reset your ${portal} password`,
      text: body.text,
      html: body.html,
    });
  } catch (error) {
    await deletePasswordToken(app.db, token);
    throw error;
  }
  request.log.info({ userId: user.id, requestedBy }, 'password reset link sent');
}

/** What a single sign-on user gets instead of a link: their password is not ours to reset. */
export async function sendSsoPasswordNote(
  app: FastifyInstance,
  request: FastifyRequest,
  user: Pick<UserRecord, 'id' | 'email' | 'firstName'>,
): Promise<void> {
  const portal = `${app.config.brandName} Portal`;
  const body = mailBody([
    `Hello ${user.firstName},`,
    `Someone, hopefully you, asked to reset the password of your ${portal} account.`,
    `You sign in to the ${portal} with your company's single sign-on, so the portal has no password of yours to reset. Use your company's single sign-on to sign in, and ask your company's IT team if you cannot.`,
  ]);
  await app.mailer.send({ to: user.email, subject: `Your ${portal} password`, text: body.text, html: body.html });
  request.log.info({ userId: user.id }, 'password reset asked by a single sign-on user: note sent');
}
