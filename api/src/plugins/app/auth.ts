import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  createSession,
  deleteSession,
  deleteSessionByToken,
  isSessionActive,
  touchSession,
  type SessionRecord,
} from '../../db/sessions';
import { findSessionWithUser, type SessionAlong, type SessionWithUser, type UserRecord } from '../../db/users';
import type { Policy } from './policies';

export const SESSION_COOKIE = 'pe_session_token';
/** last_seen_at is written at most this often: one write a minute per session, not one per request. */
const TOUCH_INTERVAL_MS = 60_000;

export interface AuthContext {
  session: SessionRecord;
  user: UserRecord;
}

const resolved = new WeakMap<FastifyRequest, Promise<AuthContext | null>>();
const alongSession = new WeakMap<FastifyRequest, NonNullable<SessionWithUser['along']>>();

/** What the route's policy will read of the route's `:id`, when it reads a project or a company. */
function alongOf(request: FastifyRequest): SessionAlong | undefined {
  const policy = request.routeOptions.config?.policy as Policy | undefined;
  if (typeof policy !== 'object') return undefined;
  const id = (request.params as { id?: unknown } | undefined)?.id;
  // An id with a NUL character is refused at preValidation, naming the parameter (error-handler.ts);
  // PostgreSQL cannot compare one, so it is not read here, before that check (this runs in onRequest).
  if (typeof id !== 'string' || id === '' || id.includes('\u0000')) return undefined;
  if ('project' in policy) return { project: id };
  if ('company' in policy) return { company: id };
  return undefined;
}

/**
 * The rows of the route's project or company that were read with the request's session (policies.ts
 * uses them instead of a query of its own); undefined when they were not.
 */
export function readAlongSession(request: FastifyRequest): SessionWithUser['along'] {
  return alongSession.get(request);
}

async function resolve(request: FastifyRequest): Promise<AuthContext | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const { db, config } = request.server;
  const found = await findSessionWithUser(db, token, alongOf(request));
  if (!found) return null;
  const { session, user, along } = found;
  if (along) alongSession.set(request, along);
  const now = new Date();
  if (!isSessionActive(session, config.sessionIdleMinutes, now)) {
    await deleteSession(db, session.id);
    return null;
  }
  if (user.status !== 'active') return null;
  if (now.getTime() - Date.parse(session.lastSeenAt) >= TOUCH_INTERVAL_MS) {
    await touchSession(db, session.id, now);
    session.lastSeenAt = now.toISOString();
  }
  return { session, user };
}

/** The signed-in user of this request, or null (no cookie, unknown, expired, or suspended). Loaded once per request. */
export function getAuth(request: FastifyRequest): Promise<AuthContext | null> {
  let pending = resolved.get(request);
  if (!pending) {
    pending = resolve(request);
    resolved.set(request, pending);
  }
  return pending;
}

/** For routes behind a signed-in policy: the policy already rejected requests without a session. */
export async function requireAuth(request: FastifyRequest): Promise<AuthContext> {
  const auth = await getAuth(request);
  if (!auth) throw new Error('requireAuth called on a route without a signed-in policy');
  return auth;
}

/** The options of the portal's own cookies: the whole site, HttpOnly, SameSite=Lax, Secure over TLS. */
export function cookieBase(request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieBase(request), maxAge: maxAgeSeconds });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieBase(request));
}

/**
 * Signs the browser in as `userId` with a new session (a new token at every sign-in) and ends the
 * session the browser had before, whoever it belonged to.
 */
export async function startSession(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  const { db, config } = request.server;
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await deleteSessionByToken(db, previous);
  const { token } = await createSession(db, {
    userId,
    userAgent: request.headers['user-agent'] ?? null,
    maxHours: config.sessionMaxHours,
  });
  setSessionCookie(request, reply, token, config.sessionMaxHours * 3600);
  await db.updateTable('users').set({ last_sign_in_at: new Date().toISOString() }).where('id', '=', userId).execute();
}

/** Sessions live in the database; this plugin only checks that the cookie parser is there. */
export default fp(async function auth(_app: FastifyInstance) {}, {
  name: 'auth',
  dependencies: ['@fastify/cookie'],
});
