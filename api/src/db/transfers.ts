/**
 * Safe transfers (issue 6): files a user of a company sends to other users of that company, until
 * they expire. A transfer is visible only to its sender and its recipients, and only until
 * `expires_at`; the sweep deletes expired ones (their rows cascade; the caller removes the bytes).
 */
import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { FileUserRef, Transfer, TransferDownload, TransferFile, TransferUser } from '@portal/shared/core/files';
import { orderByName } from './roster';
import type { Database } from './schema';
import { inTransaction, toBool, toCount, toIso } from './values';

type UserRow = { id: string; first_name: string; last_name: string; email: string };

const userRef = (r: UserRow): FileUserRef => ({
  id: r.id,
  name: `${r.first_name} ${r.last_name}`.trim(),
  email: r.email,
});

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

export type TransferBox = 'received' | 'sent';

/** One page of a box in a company, newest first: received (not expired) or sent (not expired) by `userId`. */
export async function listTransferIds(
  db: Kysely<Database>,
  query: { companyId: string; userId: string; box: TransferBox; limit: number; offset: number; now?: Date },
): Promise<{ ids: string[]; total: number }> {
  const now = (query.now ?? new Date()).toISOString();
  const base =
    query.box === 'received'
      ? db
          .selectFrom('transfer_recipients as r')
          .innerJoin('transfers as t', 't.id', 'r.transfer_id')
          .where('r.user_id', '=', query.userId)
          .where('r.company_id', '=', query.companyId)
          .where('t.expires_at', '>', now)
      : db
          .selectFrom('transfers as t')
          .where('t.sender_id', '=', query.userId)
          .where('t.company_id', '=', query.companyId)
          .where('t.expires_at', '>', now);
  const total = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select('t.id')
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return { ids: rows.map((r) => r.id), total: toCount(total.n as string | number) };
}

/**
 * The transfers as the api answers them, in the order of `ids`, as `viewerId` sees them: the sender
 * sees every download of each file, a recipient only their own.
 */
export async function transfersByIds(db: Kysely<Database>, ids: string[], viewerId: string): Promise<Transfer[]> {
  if (ids.length === 0) return [];
  const transfers = await db
    .selectFrom('transfers as t')
    .leftJoin('users as u', 'u.id', 't.sender_id')
    .select(['t.id', 't.company_id', 't.sender_id', 't.message', 't.passphrase_hash', 't.expires_at', 't.created_at'])
    .select(['u.first_name', 'u.last_name', 'u.email'])
    .where('t.id', 'in', ids)
    .execute();
  const recipients = await db
    .selectFrom('transfer_recipients as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.transfer_id', 'u.id', 'u.first_name', 'u.last_name', 'u.email'])
    .where('r.transfer_id', 'in', ids)
    .$call(orderByName)
    .execute();
  const files = await db
    .selectFrom('transfer_files as f')
    .select(['f.id', 'f.transfer_id', 'f.name', 'f.size', 'f.content_type', 'f.sha256'])
    .where('f.transfer_id', 'in', ids)
    .orderBy('f.created_at')
    .orderBy('f.id')
    .execute();
  const senderOf = new Map(transfers.map((t) => [t.id, t.sender_id]));
  const fileIds = files.map((f) => f.id);
  const downloads =
    fileIds.length === 0
      ? []
      : await db
          .selectFrom('transfer_downloads as d')
          .innerJoin('transfer_files as f', 'f.id', 'd.transfer_file_id')
          .leftJoin('users as u', 'u.id', 'd.user_id')
          .select([
            'd.transfer_file_id',
            'f.transfer_id',
            'd.user_id',
            'd.downloaded_at',
            'u.first_name',
            'u.last_name',
            'u.email',
          ])
          .where('d.transfer_file_id', 'in', fileIds)
          .orderBy('d.downloaded_at')
          .orderBy('d.id')
          .execute();

  const downloadsOf = new Map<string, TransferDownload[]>();
  for (const d of downloads) {
    // A recipient sees only their own downloads; the sender sees everybody's.
    if (senderOf.get(d.transfer_id) !== viewerId && d.user_id !== viewerId) continue;
    const user =
      d.user_id !== null && d.email !== null
        ? userRef({ id: d.user_id, first_name: d.first_name ?? '', last_name: d.last_name ?? '', email: d.email })
        : null;
    const list = downloadsOf.get(d.transfer_file_id) ?? [];
    list.push({ user, at: toIso(d.downloaded_at) });
    downloadsOf.set(d.transfer_file_id, list);
  }
  const filesOf = new Map<string, TransferFile[]>();
  for (const f of files) {
    const list = filesOf.get(f.transfer_id) ?? [];
    list.push({
      id: f.id,
      name: f.name,
      size: Number(f.size),
      contentType: f.content_type,
      sha256: f.sha256,
      downloads: downloadsOf.get(f.id) ?? [],
    });
    filesOf.set(f.transfer_id, list);
  }
  const recipientsOf = new Map<string, FileUserRef[]>();
  for (const r of recipients) {
    const list = recipientsOf.get(r.transfer_id) ?? [];
    list.push(userRef(r));
    recipientsOf.set(r.transfer_id, list);
  }
  const byId = new Map(
    transfers.map((t): [string, Transfer] => [
      t.id,
      {
        id: t.id,
        companyId: t.company_id,
        sender:
          t.sender_id !== null && t.email !== null
            ? userRef({ id: t.sender_id, first_name: t.first_name ?? '', last_name: t.last_name ?? '', email: t.email })
            : null,
        recipients: recipientsOf.get(t.id) ?? [],
        message: t.message,
        hasPassphrase: t.passphrase_hash !== null,
        expiresAt: toIso(t.expires_at),
        createdAt: toIso(t.created_at),
        files: filesOf.get(t.id) ?? [],
      },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Deletes the transfer (its rows cascade) and answers the storage keys of its files; the caller removes the bytes after commit. */
export async function deleteTransfer(db: Kysely<Database>, transferId: string): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    const keys = await trx
      .selectFrom('transfer_files')
      .select('storage_key')
      .where('transfer_id', '=', transferId)
      .execute();
    await trx.deleteFrom('transfers').where('id', '=', transferId).execute();
    return keys.map((k) => k.storage_key);
  });
}

/**
 * Deletes up to `limit` transfers whose expiry has passed (their rows cascade) and answers the storage
 * keys of their files, for the caller to remove once this has committed.
 */
export async function deleteExpiredTransfers(
  db: Kysely<Database>,
  now: Date,
  limit = 200,
): Promise<{ transfers: number; storageKeys: string[] }> {
  return inTransaction(db, async (trx) => {
    const expired = await trx
      .selectFrom('transfers')
      .select('id')
      .where('expires_at', '<=', now.toISOString())
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    const ids = expired.map((t) => t.id);
    if (ids.length === 0) return { transfers: 0, storageKeys: [] };
    const keys = await trx.selectFrom('transfer_files').select('storage_key').where('transfer_id', 'in', ids).execute();
    await trx.deleteFrom('transfers').where('id', 'in', ids).execute();
    return { transfers: ids.length, storageKeys: keys.map((k) => k.storage_key) };
  });
}
