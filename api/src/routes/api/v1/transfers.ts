import type { FastifyInstance } from 'fastify';
import { TRANSFER_MAX_FILES, type Transfer } from '@portal/shared/core/files';
import * as api from '@portal/shared/core/files/api';
import {
  allowedRecipientIds,
  deleteTransfer,
  insertTransfer,
  listTransferIds,
  listTransferRecipients,
  transfersByIds,
  type NewTransferFile,
} from '../../../db/transfers';
import { audit } from '../../../lib/audit';
import { addFileKind } from '../../../lib/file-kinds';
import { HttpError } from '../../../lib/http-error';
import { checkFormFields } from '../../../lib/form-fields';
import { hashPassword } from '../../../lib/passwords';
import { formCommits, readStreamedForm } from '../../../lib/uploads';
import { requireAuth } from '../../../plugins/app/auth';
import { invalidField, route } from '../../../lib/contract';
import { policyCompany } from '../../../plugins/app/policies';
import {
  TRANSFER_SWEEP_INTERVAL_MS,
  sweepExpiredTransfers,
  transferFileKind,
  transferFor,
  transferNotFound,
} from '../../../modules/transfers/access';

const DAY_MS = 86_400_000;

/** The text fields of the form, checked with the operation's: `recipientIds[]` counts as `recipientIds`. */
function transferFields(fields: Record<string, string | string[]>) {
  const input: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(fields)) {
    const name = key === 'recipientIds[]' ? 'recipientIds' : key;
    input[name] = name in input ? [input[name], value].flat() : value;
  }
  return checkFormFields(api.createTransfer.form.fields, input);
}

/**
 * Safe transfer (issue 6): a user of a company sends files to other users of that company through
 * expiring links, optionally behind a passphrase; the sender and the recipients see it until it
 * expires, when the sweep removes it.
 */
export default async function transfersRoutes(app: FastifyInstance) {
  const { db } = app;

  addFileKind(app.fileKinds, transferFileKind(db));

  // The sweep of expired transfers: once at start, then every 10 minutes until the app closes.
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const sweep = () => {
    running ??= sweepExpiredTransfers({ db, storage: app.storage, log: app.log })
      .catch((error: unknown) => app.log.error({ err: error }, 'the sweep of expired transfers failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  app.addHook('onReady', async () => {
    await sweep();
    timer = setInterval(() => void sweep(), TRANSFER_SWEEP_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  });

  async function transferReply(transferId: string, viewerId: string): Promise<Transfer> {
    const [transfer] = await transfersByIds(db, [transferId], viewerId);
    if (!transfer) throw transferNotFound();
    return transfer;
  }

  route(app, api.listTransferRecipients, async (request, reply) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    const results = await listTransferRecipients(db, company.id, user.id);
    reply.header('cache-control', 'no-store');
    return { results };
  });

  route(app, api.listTransfers, async (request, reply) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    const { page, pageSize, box } = request.query;
    const { ids, total } = await listTransferIds(db, {
      companyId: company.id,
      userId: user.id,
      box,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    reply.header('cache-control', 'no-store');
    return { results: await transfersByIds(db, ids, user.id), total, page, pageSize };
  });

  route(app, api.createTransfer, async (request, reply) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    // Every file is staged (streamed, size and content checked) before any field is judged.
    const form = await readStreamedForm(request, {
      storage: app.storage,
      fileField: 'files',
      maxFiles: TRANSFER_MAX_FILES,
      maxBytes: app.config.uploadMaxBytes,
      required: true,
    });
    const commits = formCommits(form, app.storage);
    let transferId: string;
    try {
      const input = transferFields(form.fields);
      const recipientIds = [...new Set(input.recipientIds)];
      const allowed = await allowedRecipientIds(db, company.id, recipientIds);
      if (recipientIds.some((id) => id === user.id || !allowed.has(id))) {
        throw invalidField('recipientIds', 'recipientIds must name active users of this company, other than yourself');
      }
      // The passphrase is kept only as its hash, and never logged or audited.
      const passphraseHash = input.passphrase ? await hashPassword(input.passphrase) : null;
      const files: NewTransferFile[] = [];
      for (const file of form.files) {
        const storageKey = await commits.commit(file);
        files.push({
          name: file.name,
          contentType: file.contentType,
          size: file.blob.size,
          sha256: file.blob.sha256,
          storageKey,
        });
      }
      const createdAt = new Date();
      const expiresAt = new Date(createdAt.getTime() + input.expiresInDays * DAY_MS).toISOString();
      transferId = await db.transaction().execute(async (trx) => {
        const { id, fileIds } = await insertTransfer(trx, {
          companyId: company.id,
          senderId: user.id,
          recipientIds,
          message: input.message ?? null,
          passphraseHash,
          expiresAt,
          createdAt: createdAt.toISOString(),
          files,
        });
        await audit(
          request,
          {
            action: 'transfer.create',
            targetType: 'transfer',
            targetId: id,
            targetLabel: files.map((f) => f.name).join(', '),
            companyId: company.id,
            after: {
              recipientIds,
              expiresAt,
              hasPassphrase: passphraseHash !== null,
              files: files.map((f, i) => ({ id: fileIds[i], name: f.name, size: f.size, sha256: f.sha256 })),
            },
          },
          trx,
        );
        return id;
      });
    } catch (error) {
      // Nothing stays behind a refused or failed transfer: staged bytes are discarded, committed ones removed.
      await commits.undo();
      throw error;
    }
    return reply.code(201).send(await transferReply(transferId, user.id));
  });

  route(app, api.getTransfer, async (request, reply) => {
    const { user } = await requireAuth(request);
    const { id } = request.params;
    if (!(await transferFor(db, user, id))) throw transferNotFound();
    reply.header('cache-control', 'no-store');
    return transferReply(id, user.id);
  });

  route(app, api.deleteTransfer, async (request, reply) => {
    const { user } = await requireAuth(request);
    const { id } = request.params;
    const transfer = await transferFor(db, user, id);
    if (!transfer) throw transferNotFound();
    if (!transfer.isSender) throw new HttpError(403, 'forbidden', 'Only the sender can withdraw a transfer.');
    const before = await transferReply(id, user.id);
    const storageKeys = await db.transaction().execute(async (trx) => {
      const keys = await deleteTransfer(trx, id);
      await audit(
        request,
        {
          action: 'transfer.delete',
          targetType: 'transfer',
          targetId: id,
          targetLabel: before.files.map((f) => f.name).join(', '),
          companyId: transfer.companyId,
          before: {
            recipientIds: before.recipients.map((r) => r.id),
            expiresAt: before.expiresAt,
            files: before.files.map((f) => ({ id: f.id, name: f.name, size: f.size, sha256: f.sha256 })),
          },
        },
        trx,
      );
      return keys;
    });
    // Only once the rows are gone: a failed delete never leaves a row naming missing bytes.
    await Promise.allSettled(storageKeys.map((key) => app.storage.remove(key)));
    return reply.code(204).send();
  });
}
