/**
 * Sending a transfer: who in the company may receive one (active users who may reach it), and writing
 * the transfer with its recipients and its files.
 */
import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { TransferUser } from '@portal/shared/core/files';
import { orderByName } from '../roster';
import type { Database } from '../schema';
import { inTransaction, toBool } from '../values';
import { userRef } from './internal';

/**
 * Who may receive a transfer in the company: active users who may reach it, that is its client
 * members whose access stands and staff who are not auditors. `u` is the users table.
 */
function mayReceive(db: Kysely<Database>, companyId: string) {
  return (eb: ExpressionBuilder<Database & { u: Database['users'] }, 'u'>) =>
    eb.and([
      eb('u.status', '=', 'active'),
      eb.or([
        eb.and([eb('u.is_tevora', '=', true), eb('u.is_auditor', '=', false)]),
        eb.and([
          eb('u.is_tevora', '=', false),
          eb(
            'u.id',
            'in',
            db
              .selectFrom('company_memberships')
              .select('user_id')
              .where('company_id', '=', companyId)
              .where('access_revoked_at', 'is', null),
          ),
        ]),
      ]),
    ]);
}

/** The users of the company who may receive a transfer, by name, without `exceptUserId` (the caller). */
export async function listTransferRecipients(
  db: Kysely<Database>,
  companyId: string,
  exceptUserId: string,
): Promise<TransferUser[]> {
  const rows = await db
    .selectFrom('users as u')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.is_tevora'])
    .where(mayReceive(db, companyId))
    .where('u.id', '!=', exceptUserId)
    .$call(orderByName)
    .execute();
  return rows.map((r) => ({ ...userRef(r), staff: toBool(r.is_tevora) }));
}

/** Which of `userIds` may receive a transfer in the company. */
export async function allowedRecipientIds(
  db: Kysely<Database>,
  companyId: string,
  userIds: string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.id', 'in', userIds)
    .where(mayReceive(db, companyId))
    .execute();
  return new Set(rows.map((r) => r.id));
}

export interface NewTransferFile {
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  storageKey: string;
}

export interface NewTransfer {
  companyId: string;
  senderId: string;
  recipientIds: string[];
  message: string | null;
  passphraseHash: string | null;
  expiresAt: string;
  createdAt: string;
  files: NewTransferFile[];
}

/** Writes the transfer, its recipients and its files (whose bytes are already committed); answers its id and file ids. */
export async function insertTransfer(
  db: Kysely<Database>,
  input: NewTransfer,
): Promise<{ id: string; fileIds: string[] }> {
  const id = randomUUID();
  const fileIds = input.files.map(() => randomUUID());
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('transfers')
      .values({
        id,
        company_id: input.companyId,
        sender_id: input.senderId,
        message: input.message,
        passphrase_hash: input.passphraseHash,
        expires_at: input.expiresAt,
        created_at: input.createdAt,
      })
      .execute();
    await trx
      .insertInto('transfer_recipients')
      .values(
        input.recipientIds.map((userId) => ({
          transfer_id: id,
          user_id: userId,
          company_id: input.companyId,
          created_at: input.createdAt,
        })),
      )
      .execute();
    // The files keep the order they were sent in: each is a millisecond after the one before.
    const base = Date.parse(input.createdAt);
    await trx
      .insertInto('transfer_files')
      .values(
        input.files.map((f, i) => ({
          id: fileIds[i],
          transfer_id: id,
          name: f.name,
          content_type: f.contentType,
          size: f.size,
          sha256: f.sha256,
          storage_key: f.storageKey,
          created_at: new Date(base + i).toISOString(),
        })),
      )
      .execute();
  });
  return { id, fileIds };
}
