import argon2 from 'argon2';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import { signInSchema } from '@portal/shared/core/schemas';
import { createSession, deleteSessionByToken } from '../../db/sessions';
import { findUserCredentialsByEmail } from '../../db/users';
import { SESSION_COOKIE, clearSessionCookie, getAuth, setSessionCookie } from '../../plugins/auth';
import { renderLoginPage, type LoginPageInput } from './login-page';

export const LOGIN_PATH = '/auth/saml/login';
export const TO_URL_COOKIE = 'toUrl';

/** The return address the shell remembered, if it is a path on this origin (no open redirect). */
export function safeReturnPath(value: string | undefined): string {
  if (!value || !value.startsWith('/')) return '/';
  if (value.startsWith('//') || value.startsWith('/\\')) return '/';
  // Browsers drop tabs and newlines in URLs: `/\t/evil` would become `//evil`.
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c === '\x7f' || c === '\\')) return '/';
  try {
    const resolved = new URL(value, 'http://portal.invalid');
    if (resolved.origin !== 'http://portal.invalid') return '/';
  } catch {
    return '/';
  }
  return value;
}

let dummyHash: Promise<string> | null = null;
/** Verifying against a real hash when the user is unknown keeps the reply time the same (no user enumeration). */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= argon2.hash(`no-such-user-${Math.random()}`, { type: argon2.argon2id });
  return dummyHash;
}

async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  try {
    if (!hash) {
      await argon2.verify(await dummyPasswordHash(), password);
      return false;
    }
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

function page(reply: FastifyReply, status: number, input: Omit<LoginPageInput, 'brandName'>, brandName: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(renderLoginPage({ brandName, ...input }));
}

export default async function authRoutes(app: FastifyInstance) {
  const { config, db } = app;

  app.get(LOGIN_PATH, { config: { policy: 'public' } }, async (request, reply) => {
    if (await getAuth(request)) return reply.redirect('/', 303);
    return page(reply, 200, {}, config.brandName);
  });

  app.post(LOGIN_PATH, { config: { policy: 'public' } }, async (request: FastifyRequest, reply) => {
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email : '';
    const parsed = signInSchema.safeParse({ email, password: typeof body.password === 'string' ? body.password : '' });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path[0] === 'password' ? 'password' : 'email';
      return page(reply, 400, { email, error: issue.message, errorField: field }, config.brandName);
    }

    const found = await findUserCredentialsByEmail(db, parsed.data.email);
    const valid = await verifyPassword(found?.passwordHash ?? null, parsed.data.password);
    if (!found || !valid) {
      request.log.info({ reason: found ? 'wrong password' : 'unknown user' }, 'sign-in failed');
      return page(reply, 401, { email, error: ERROR_MESSAGES.failed_login }, config.brandName);
    }
    if (found.user.status !== 'active') {
      request.log.info({ userId: found.user.id }, 'sign-in refused: user suspended');
      return page(reply, 403, { email, error: `${ERROR_MESSAGES.user_is_inactive} Please contact your ${config.brandName} Portal admin.` }, config.brandName);
    }

    const { token } = await createSession(db, {
      userId: found.user.id,
      userAgent: request.headers['user-agent'] ?? null,
      maxHours: config.sessionMaxHours,
    });
    setSessionCookie(request, reply, token, config.sessionMaxHours * 3600);
    reply.clearCookie(TO_URL_COOKIE, { path: '/' });
    request.log.info({ userId: found.user.id }, 'signed in');
    return reply.redirect(safeReturnPath(request.cookies[TO_URL_COOKIE]), 303);
  });

  app.get('/auth/saml/logout', { config: { policy: 'public' } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSessionByToken(db, token);
    clearSessionCookie(request, reply);
    return reply.header('cache-control', 'no-store').redirect(LOGIN_PATH, 303);
  });
}
