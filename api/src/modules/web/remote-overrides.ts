/**
 * Per-browser remote overrides: staff point one remote at another address (a release under test, a
 * dev server) for their own browser alone, to try it before the manifest points everyone at it. The
 * overrides live in a cookie of the browser, signed (HMAC-SHA256 with the secret that signs download
 * links, lib/signed-urls.ts) and bound to the user who set it: a cookie copied to another user, edited
 * or of a user no longer staff changes nothing. /remotes.json applies them (remotes the user may
 * mount only), and the page's Content-Security-Policy allows their origins for that browser.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RemotesManifest } from '@portal/shared/core/schemas';
import type { UserRecord } from '../../db/users';
import { cookieBase } from '../../plugins/app/auth';
import { fileUrlSecret } from '../../lib/signed-urls';

export const REMOTE_OVERRIDES_COOKIE = 'pe_remote_overrides';

/** Who may set and use overrides: staff who are not auditors. */
export const mayOverrideRemotes = (user: Pick<UserRecord, 'isTevora' | 'isAuditor'>) =>
  user.isTevora && !user.isAuditor;

const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`remote-overrides:${payload}`).digest('base64url');

async function secretOf(request: FastifyRequest): Promise<string> {
  return fileUrlSecret(request.server.db, request.server.config.fileUrlSecret);
}

/** The overrides this browser's cookie holds for `user`: empty when there is none, or it is not theirs or not intact. */
export async function overridesOf(request: FastifyRequest, user: UserRecord): Promise<Record<string, string>> {
  const cookie = request.cookies[REMOTE_OVERRIDES_COOKIE];
  if (!cookie || !mayOverrideRemotes(user)) return {};
  const dot = cookie.lastIndexOf('.');
  if (dot < 1) return {};
  const payload = cookie.slice(0, dot);
  const expected = Buffer.from(sign(await secretOf(request), payload));
  const given = Buffer.from(cookie.slice(dot + 1));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return {};
  try {
    const { u, o } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u?: unknown; o?: unknown };
    if (u !== user.id || !o || typeof o !== 'object') return {};
    return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** Writes the overrides to the browser's cookie (cleared when none is left): for this session's life. */
export async function setOverrides(
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRecord,
  overrides: Record<string, string>,
): Promise<void> {
  const base = cookieBase(request);
  if (Object.keys(overrides).length === 0) {
    reply.clearCookie(REMOTE_OVERRIDES_COOKIE, base);
    return;
  }
  const payload = Buffer.from(JSON.stringify({ u: user.id, o: overrides })).toString('base64url');
  reply.setCookie(REMOTE_OVERRIDES_COOKIE, `${payload}.${sign(await secretOf(request), payload)}`, base);
}

/** `listed` with this browser's overrides applied (only to remotes already listed: the user may mount them). */
export function applyOverrides(listed: RemotesManifest, overrides: Record<string, string>): RemotesManifest {
  return Object.fromEntries(Object.entries(listed).map(([name, url]) => [name, overrides[name] ?? url]));
}

/** The answer of the override operations: this browser's overrides, by remote name. */
export const overridesAnswer = (overrides: Record<string, string>) => ({
  results: Object.entries(overrides)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([remote, url]) => ({ remote, url })),
});
