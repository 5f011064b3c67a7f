/**
 * The transfer boxes: a page of a user's received or sent transfers in a company, and the transfers
 * as the api answers them, with recipients, files and the downloads the viewer may see.
 */
import type { Kysely } from 'kysely';
import type { FileUserRef, Transfer, TransferDownload, TransferFile } from '@portal/shared/core/files';
import { orderByName } from '../roster';
import type { Database } from '../schema';
import { toCount, toIso } from '../values';
import { userRef } from './internal';

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
