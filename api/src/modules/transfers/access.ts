/**
 * Who reaches a transfer and its files (issue 6), the 'transferFile' kind of GET /files/:id/signed-url
 * and GET /files/:id/content, and the sweep that removes expired transfers.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { TRANSFER_PASSPHRASE_HEADER } from '@portal/shared/core/files';
import { findVisibleCompany } from '../../db/companies';
import { moduleAccessFor } from '../../db/module-access';
import type { Database } from '../../db/schema';
import {
  deleteExpiredTransfers,
  findTransferFileFor,
  findTransferFor,
  insertTransferDownload,
  type TransferAccess,
} from '../../db/transfers';
import type { UserRecord } from '../../db/users';
import { nowIso } from '../../db/values';
import type { FileKind } from '../../lib/file-kinds';
import { HttpError } from '../../lib/http-error';
import { verifyPassword } from '../../lib/passwords';
import type { RateLimitStore } from '../../lib/rate-limit';
import type { BlobStorage } from '../../lib/storage';

export const transferNotFound = () => new HttpError(404, 'transfer_not_found');

/**
 * The transfer when the caller sent it or receives it, it has not expired and the caller still reaches
 * its company (a member whose access was revoked no longer does); null otherwise.
 */
export async function transferFor(
  db: Kysely<Database>,
  caller: UserRecord,
  transferId: string,
): Promise<TransferAccess | null> {
  const transfer = await findTransferFor(db, transferId, caller.id);
  if (!transfer || !(await reachesTransfersOf(db, caller, transfer.companyId))) return null;
  return transfer;
}

/** Whether the caller still sees the company and holds its projects module (Safe Transfer lives with it). */
async function reachesTransfersOf(db: Kysely<Database>, caller: UserRecord, companyId: string): Promise<boolean> {
  if (!(await findVisibleCompany(db, caller, companyId))) return false;
  return (await moduleAccessFor(db, caller.id, companyId)).projects;
}

/** Wrong passphrases per transfer and caller: this many in the window, then 429 until it ends. */
export const PASSPHRASE_LIMIT = { max: 5, windowMs: 15 * 60_000 } as const;

/**
 * Checks a recipient's passphrase, counting the failures per transfer and caller in the api's rate-limit
 * store: once PASSPHRASE_LIMIT.max failed in the window, every try (the right one too) is refused with 429
 * until the window ends, before the passphrase is hashed.
 */
async function checkPassphrase(
  store: RateLimitStore,
  key: string,
  hash: string,
  passphrase: string | null,
): Promise<void> {
  const failures = await store.peek(key);
  if (failures && failures.hits >= PASSPHRASE_LIMIT.max) throw tooManyPassphrases(failures.resetAt);
  if (passphrase === null) throw new HttpError(403, 'transfer_passphrase_required');
  if (await verifyPassword(hash, passphrase)) return;
  const counted = await store.hit(key, PASSPHRASE_LIMIT.windowMs);
  if (counted.hits > PASSPHRASE_LIMIT.max) throw tooManyPassphrases(counted.resetAt);
  throw new HttpError(403, 'transfer_passphrase_incorrect');
}

function tooManyPassphrases(resetAt: number): HttpError {
  const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  const error = new HttpError(
    429,
    'too_many_requests',
    `Too many wrong passphrases: please wait ${seconds} seconds and try again.`,
  );
  error.retryAfterSeconds = seconds;
  return error;
}

/** The passphrase the caller sent in the header, or null when there is none. */
function passphraseOf(request: FastifyRequest): string | null {
  const value = request.headers[TRANSFER_PASSPHRASE_HEADER];
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text !== '' ? text : null;
}

/**
 * Transfer files: only the sender and the recipients, only until the transfer expires. A recipient signs
 * a protected transfer's file only with its passphrase (the sender never needs it). Every download
 * through a signed URL is recorded, the sender's own included; the sender sees them all, each recipient
 * their own.
 */
export function transferFileKind(db: Kysely<Database>): FileKind {
  return {
    name: 'transferFile',
    async find({ request, auth, fileId, versionId, phase }) {
      // A transfer file has no versions: its one "version" is the file itself.
      if (versionId !== undefined && versionId !== fileId) return null;
      const found = await findTransferFileFor(db, fileId, auth.user.id);
      if (!found || !(await reachesTransfersOf(db, auth.user, found.transfer.companyId))) return null;
      const { file, transfer } = found;
      if (phase === 'sign' && transfer.passphraseHash !== null && !transfer.isSender) {
        const key = `transfer-passphrase:${transfer.id}:${auth.user.id}`;
        await checkPassphrase(request.server.apiRateLimitStore, key, transfer.passphraseHash, passphraseOf(request));
      }
      const userId = auth.user.id;
      return {
        versionId: file.id,
        name: file.name,
        contentType: file.contentType,
        size: file.size,
        storageKey: file.storageKey,
        onDownload: () => insertTransferDownload(db, file.id, userId, nowIso()),
      };
    },
  };
}

export const TRANSFER_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const SWEEP_BATCH = 200;

/**
 * Deletes every transfer whose expiry has passed (its recipients, files and downloads go with it) and
 * then removes its files' bytes, batch by batch. A blob that fails to go is left to the storage's orphan
 * sweep (no row names it any more).
 */
export async function sweepExpiredTransfers(
  deps: { db: Kysely<Database>; storage: BlobStorage; log?: FastifyBaseLogger },
  now: Date = new Date(),
): Promise<{ transfers: number; files: number }> {
  let transfers = 0;
  let files = 0;
  for (;;) {
    const batch = await deleteExpiredTransfers(deps.db, now, SWEEP_BATCH);
    const removed = await Promise.allSettled(batch.storageKeys.map((key) => deps.storage.remove(key)));
    const failed = removed.filter((r) => r.status === 'rejected').length;
    if (failed > 0) deps.log?.warn({ failed }, 'expired transfer files not removed: the orphan sweep will');
    transfers += batch.transfers;
    files += batch.storageKeys.length;
    if (batch.transfers < SWEEP_BATCH) break;
  }
  if (transfers > 0) deps.log?.info({ transfers, files }, 'expired transfers removed');
  return { transfers, files };
}
