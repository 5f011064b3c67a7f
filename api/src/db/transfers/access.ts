/**
 * Access to a transfer: the transfer or one of its files as `userId` may reach them (not expired, and
 * sent or received by them; null otherwise, which the caller answers 404), and recording a download.
 */
import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { toBool } from '../values';

/** A transfer as its access checks need it. */
export interface TransferAccess {
  id: string;
  companyId: string;
  senderId: string | null;
  passphraseHash: string | null;
  /** The caller sent it. */
  isSender: boolean;
  /** The caller is one of its recipients. */
  isRecipient: boolean;
}

function isRecipientOf(userId: string) {
  return (eb: ExpressionBuilder<Database & { t: Database['transfers'] }, 't'>) =>
    eb.exists(
      eb
        .selectFrom('transfer_recipients as r')
        .select(sql.lit(1).as('one'))
        .whereRef('r.transfer_id', '=', 't.id')
        .where('r.user_id', '=', userId),
    );
}

/**
 * The transfer when it has not expired and `userId` sent it or receives it; null otherwise (missing,
 * expired, or someone else's: the caller answers 404 for all three).
 */
export async function findTransferFor(
  db: Kysely<Database>,
  transferId: string,
  userId: string,
  now: Date = new Date(),
): Promise<TransferAccess | null> {
  const row = await db
    .selectFrom('transfers as t')
    .select(['t.id', 't.company_id', 't.sender_id', 't.passphrase_hash'])
    .select((eb) => isRecipientOf(userId)(eb).as('is_recipient'))
    .where('t.id', '=', transferId)
    .where('t.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ? accessOf(row, userId) : null;
}

function accessOf(
  row: {
    id: string;
    company_id: string;
    sender_id: string | null;
    passphrase_hash: string | null;
    is_recipient: unknown;
  },
  userId: string,
): TransferAccess | null {
  const isSender = row.sender_id === userId;
  const isRecipient = toBool(row.is_recipient as number | boolean);
  if (!isSender && !isRecipient) return null;
  return {
    id: row.id,
    companyId: row.company_id,
    senderId: row.sender_id,
    passphraseHash: row.passphrase_hash,
    isSender,
    isRecipient,
  };
}

export interface TransferFileRecord {
  id: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  storageKey: string;
}

/** A file of a transfer `userId` may see (not expired, sender or recipient), with that transfer; null otherwise. */
export async function findTransferFileFor(
  db: Kysely<Database>,
  fileId: string,
  userId: string,
  now: Date = new Date(),
): Promise<{ file: TransferFileRecord; transfer: TransferAccess } | null> {
  const row = await db
    .selectFrom('transfer_files as f')
    .innerJoin('transfers as t', 't.id', 'f.transfer_id')
    .select(['f.id as file_id', 'f.name', 'f.content_type', 'f.size', 'f.sha256', 'f.storage_key'])
    .select(['t.id', 't.company_id', 't.sender_id', 't.passphrase_hash'])
    .select((eb) => isRecipientOf(userId)(eb).as('is_recipient'))
    .where('f.id', '=', fileId)
    .where('t.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!row) return null;
  const transfer = accessOf(row, userId);
  if (!transfer) return null;
  return {
    file: {
      id: row.file_id,
      name: row.name,
      contentType: row.content_type,
      size: Number(row.size),
      sha256: row.sha256,
      storageKey: row.storage_key,
    },
    transfer,
  };
}

export async function insertTransferDownload(
  db: Kysely<Database>,
  transferFileId: string,
  userId: string,
  at: string,
): Promise<void> {
  await db
    .insertInto('transfer_downloads')
    .values({ id: randomUUID(), transfer_file_id: transferFileId, user_id: userId, downloaded_at: at })
    .execute();
}
