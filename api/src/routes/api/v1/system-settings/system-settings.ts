import type { FastifyInstance } from 'fastify';
import type { BodyOf } from '@portal/shared/core/contract';
import type { PortalMessage } from '@portal/shared/core/schemas';
import * as api from '@portal/shared/core/portal/api';
import {
  deletePortalMessage,
  dismissPortalMessage,
  findPortalMessage,
  insertPortalMessage,
  listPortalMessages,
  updatePortalMessage,
  type PortalMessageRecord,
} from '../../../../db/portal-messages';
import { listSystemSettingFiles } from '../../../../db/system-setting-files';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';

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

/** A message as the caller wrote it: script elements stripped. */
function messageInput(body: BodyOf<typeof api.createPortalMessage>) {
  return { ...body, value: stripScripts(body.value) };
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

  route(app, api.listPortalMessages, async (request, reply) => {
    const { user } = await requireAuth(request);
    const messages = await listPortalMessages(db, {
      userId: user.id,
      keys: request.query.keys,
      // Drafts (inactive messages) are for the admins who edit them.
      includeInactive: user.isTevora && user.isAdmin,
    });
    reply.header('cache-control', 'no-store');
    return { data: messages.map((m) => toDto(m, m.dismissed)) };
  });

  // Clients call create with or without a trailing slash: both spellings work.
  for (const operation of [api.createPortalMessage, api.createPortalMessageTrailingSlash]) {
    route(app, operation, async (request, reply) => {
      const input = messageInput(request.body);
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

  route(app, api.updatePortalMessage, async (request) => {
    const { id } = request.params;
    const input = messageInput(request.body);
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

  route(app, api.deletePortalMessage, async (request, reply) => {
    const { id } = request.params;
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
  route(app, api.dismissPortalMessage, async (request, reply) => {
    const { user } = await requireAuth(request);
    const { id } = request.params;
    const { version } = request.body;
    // Inactive messages too: the banner may have been switched off while the user was closing it.
    const message = await findPortalMessage(db, id);
    if (!message) throw notFound();
    if (version > message.version) {
      throw new HttpError(400, 'validation_failed', 'Invalid field: version', [
        { field: 'version', message: `version must be at most ${message.version}` },
      ]);
    }
    await dismissPortalMessage(db, { messageId: id, userId: user.id, version });
    return reply.code(204).send();
  });
}
