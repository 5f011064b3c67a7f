import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  portalMessageBodySchema,
  portalMessageDismissSchema,
  portalMessageKeySchema,
  type PortalMessage,
  type SystemSettingsList,
} from '@portal/shared/core/schemas';
import {
  deletePortalMessage,
  dismissPortalMessage,
  findPortalMessage,
  insertPortalMessage,
  listPortalMessages,
  updatePortalMessage,
  type PortalMessageForUser,
  type PortalMessageRecord,
} from '../../db/portal-messages';
import { listSystemSettingFiles } from '../../db/system-setting-files';
import { audit } from '../../lib/audit';
import { HttpError, validationError } from '../../lib/http-error';
import { requireAuth } from '../../plugins/auth';

/** `keys[]=Banner` (as the web sends arrays) or `keys=Banner`; one value or several. */
export const listQuerySchema = z.object({
  keys: z.array(portalMessageKeySchema).max(10, 'keys: at most 10 keys').optional(),
});

const idSchema = z.object({ id: z.string().min(1).max(100) });

function keysOf(query: unknown): unknown {
  const q = (query ?? {}) as Record<string, unknown>;
  const raw = q['keys[]'] ?? q.keys;
  if (raw === undefined) return undefined;
  return Array.isArray(raw) ? raw : [raw];
}

/**
 * Best-effort only: script elements are removed before storing (repeated, so that removing one
 * cannot assemble another). The web sanitizes every message with DOMPurify before showing it;
 * that, not this, is what keeps handlers and other active content out of the page.
 */
export function stripScripts(html: string): string {
  let previous: string;
  let current = html;
  do {
    previous = current;
    current = current.replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, '').replace(/<\/?script\b[^>]*>?/gi, '');
  } while (current !== previous);
  return current;
}

function toDto(message: PortalMessageRecord, dismissed = false): PortalMessage {
  return {
    id: message.id,
    key: message.key,
    status: message.status,
    value: message.value,
    version: message.version,
    dismissed,
    updatedAt: message.updatedAt,
  };
}

function parseId(request: FastifyRequest): string {
  const parsed = idSchema.safeParse(request.params);
  if (!parsed.success) throw validationError(parsed.error, 'path parameter');
  return parsed.data.id;
}

function parseBody(request: FastifyRequest) {
  const parsed = portalMessageBodySchema.safeParse(request.body ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'field');
  return { ...parsed.data, value: stripScripts(parsed.data.value) };
}

/** What the audit log keeps of a message. */
const audited = (m: PortalMessageRecord) => ({ key: m.key, status: m.status, value: m.value, version: m.version });

const notFound = () => new HttpError(404, 'not_found', 'System setting not found.');

/**
 * System settings: the portal messages (maintenance banner, help, bell).
 * Everyone signed in reads the active ones and closes them; staff admins see all and edit them.
 */
export default async function systemSettingsRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/api/v1/system-settings', { config: { policy: 'signedIn' } }, async (request, reply) => {
    const { user } = await requireAuth(request);
    const parsed = listQuerySchema.safeParse({ keys: keysOf(request.query) });
    if (!parsed.success) throw validationError(parsed.error, 'query parameter');
    const messages = await listPortalMessages(db, {
      userId: user.id,
      keys: parsed.data.keys,
      // Drafts (inactive messages) are for the admins who edit them.
      includeInactive: user.isTevora && user.isAdmin,
    });
    const body: SystemSettingsList = { data: messages.map((m: PortalMessageForUser) => toDto(m, m.dismissed)) };
    return reply.header('cache-control', 'no-store').send(body);
  });

  // Clients call create with or without a trailing slash: both spellings work.
  for (const url of ['/api/v1/system-settings', '/api/v1/system-settings/']) {
    app.post(url, { config: { policy: 'staffAdmin' } }, async (request, reply) => {
      const input = parseBody(request);
      const message = await db.transaction().execute(async (trx) => {
        const created = await insertPortalMessage(trx, input);
        await audit(
          request,
          {
            action: 'systemSetting.create',
            targetType: 'systemSetting',
            targetId: created.id,
            targetLabel: created.key,
            after: audited(created),
          },
          trx,
        );
        return created;
      });
      return reply.code(201).send(toDto(message));
    });
  }

  app.put('/api/v1/system-settings/:id', { config: { policy: 'staffAdmin' } }, async (request) => {
    const id = parseId(request);
    const input = parseBody(request);
    const message = await db.transaction().execute(async (trx) => {
      const before = await findPortalMessage(trx, id);
      const updated = before ? await updatePortalMessage(trx, id, input) : null;
      if (!before || !updated) throw notFound();
      await audit(
        request,
        {
          action: 'systemSetting.update',
          targetType: 'systemSetting',
          targetId: id,
          targetLabel: updated.key,
          before: audited(before),
          after: audited(updated),
        },
        trx,
      );
      return updated;
    });
    return toDto(message);
  });

  app.delete('/api/v1/system-settings/:id', { config: { policy: 'staffAdmin' } }, async (request, reply) => {
    const id = parseId(request);
    const files = await db.transaction().execute(async (trx) => {
      const before = await findPortalMessage(trx, id);
      // Its file rows go with it (foreign key cascade); their bytes go once the delete has committed.
      const attached = await listSystemSettingFiles(trx, id);
      if (!before || !(await deletePortalMessage(trx, id))) throw notFound();
      await audit(
        request,
        {
          action: 'systemSetting.delete',
          targetType: 'systemSetting',
          targetId: id,
          targetLabel: before.key,
          before: audited(before),
        },
        trx,
      );
      return attached;
    });
    await Promise.all(files.map((f) => app.storage.remove(f.storageKey)));
    return reply.code(204).send();
  });

  /** The user closed this version of the message; it shows again when the message changes. */
  app.post('/api/v1/system-settings/:id/dismiss', { config: { policy: 'signedIn' } }, async (request, reply) => {
    const { user } = await requireAuth(request);
    const id = parseId(request);
    const parsed = portalMessageDismissSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error, 'field');
    // Inactive messages too: the banner may have been switched off while the user was closing it.
    const message = await findPortalMessage(db, id);
    if (!message) throw notFound();
    if (parsed.data.version > message.version) {
      throw new HttpError(400, 'validation_failed', 'Invalid field: version', [
        { field: 'version', message: `version must be at most ${message.version}` },
      ]);
    }
    await dismissPortalMessage(db, { messageId: id, userId: user.id, version: parsed.data.version });
    return reply.code(204).send();
  });
}
