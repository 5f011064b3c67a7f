/**
 * Deleting transfers: one (its sender's choice) and the sweep of expired ones. Their rows cascade; the
 * storage keys are answered for the caller to remove the bytes once the deletion has committed.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import { inTransaction } from '../values';

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
