import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, PortalMessagesTable } from './schema';
import { nowIso, toIso } from './values';

export type PortalMessageKey = PortalMessagesTable['key'];
export type PortalMessageStatus = PortalMessagesTable['status'];

export interface PortalMessageRecord {
  id: string;
  key: PortalMessageKey;
  status: PortalMessageStatus;
  value: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** A message as one user sees it: whether they closed its current version. */
export interface PortalMessageForUser extends PortalMessageRecord {
  dismissed: boolean;
}

export interface PortalMessageInput {
  key: PortalMessageKey;
  status: PortalMessageStatus;
  value: string;
}

type Row = {
  id: string;
  key: PortalMessageKey;
  status: PortalMessageStatus;
  value: string;
  version: number | string;
  created_at: Date | string;
  updated_at: Date | string;
};

function toRecord(row: Row): PortalMessageRecord {
  return {
    id: row.id,
    key: row.key,
    status: row.status,
    value: row.value,
    version: Number(row.version),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/**
 * The messages of the given keys (all keys when none are given), active first, then the most
 * recently changed: the banner is the first item of the list fetched by key.
 */
export async function listPortalMessages(
  db: Kysely<Database>,
  options: { userId: string; keys?: PortalMessageKey[]; includeInactive: boolean },
): Promise<PortalMessageForUser[]> {
  let query = db
    .selectFrom('portal_messages as m')
    .leftJoin('portal_message_dismissals as d', (join) =>
      join.onRef('d.message_id', '=', 'm.id').on('d.user_id', '=', options.userId),
    )
    .select([
      'm.id',
      'm.key',
      'm.status',
      'm.value',
      'm.version',
      'm.created_at',
      'm.updated_at',
      'd.version as dismissed_version',
    ])
    .orderBy((eb) => eb.case().when('m.status', '=', 'active').then(0).else(1).end())
    .orderBy('m.updated_at', 'desc')
    .orderBy('m.id');
  if (options.keys && options.keys.length > 0) query = query.where('m.key', 'in', options.keys);
  if (!options.includeInactive) query = query.where('m.status', '=', 'active');
  const rows = await query.execute();
  return rows.map((row) => ({
    ...toRecord(row),
    dismissed: row.dismissed_version !== null && Number(row.dismissed_version) === Number(row.version),
  }));
}

export async function findPortalMessage(db: Kysely<Database>, id: string): Promise<PortalMessageRecord | null> {
  const row = await db.selectFrom('portal_messages').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function insertPortalMessage(
  db: Kysely<Database>,
  input: PortalMessageInput,
): Promise<PortalMessageRecord> {
  const now = nowIso();
  const row = {
    id: randomUUID(),
    key: input.key,
    status: input.status,
    value: input.value,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('portal_messages').values(row).execute();
  return toRecord(row);
}

/** Replaces key, status and value and bumps the version (a closed banner shows again). Null: no such message. */
export async function updatePortalMessage(
  db: Kysely<Database>,
  id: string,
  input: PortalMessageInput,
): Promise<PortalMessageRecord | null> {
  const result = await db
    .updateTable('portal_messages')
    .set((eb) => ({
      key: input.key,
      status: input.status,
      value: input.value,
      version: eb('version', '+', 1),
      updated_at: nowIso(),
    }))
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  return findPortalMessage(db, id);
}

/** Deletes the message and its dismissals (cascade). Whether it existed. */
export async function deletePortalMessage(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('portal_messages').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Records that the user closed this version of the message (one row per message and user). */
export async function dismissPortalMessage(
  db: Kysely<Database>,
  input: { messageId: string; userId: string; version: number },
): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('portal_message_dismissals')
    .values({ message_id: input.messageId, user_id: input.userId, version: input.version, dismissed_at: now })
    .onConflict((oc) =>
      oc.columns(['message_id', 'user_id']).doUpdateSet({ version: input.version, dismissed_at: now }),
    )
    .execute();
}
