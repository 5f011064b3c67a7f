import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, NotificationsTable } from './schema';
import { nowIso, toCount, toIso } from './values';

export interface NotificationRecord {
  id: string;
  userId: string;
  companyId: string | null;
  title: string;
  body: string;
  link: string | null;
  createdAt: string;
  readAt: string | null;
}

export interface NewNotification {
  userId: string;
  title: string;
  body?: string;
  /** A path inside the portal (`/v2/projects/…`); anything else is dropped. */
  link?: string | null;
  companyId?: string | null;
  /** Defaults to now; the seed backdates its examples. */
  createdAt?: string;
}

export const NOTIFICATION_TITLE_MAX_LENGTH = 200;
export const NOTIFICATION_BODY_MAX_LENGTH = 2000;

function toRecord(row: Selectable<NotificationsTable>): NotificationRecord {
  return {
    id: row.id,
    userId: row.user_id,
    companyId: row.company_id,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: toIso(row.created_at),
    readAt: row.read_at === null ? null : toIso(row.read_at),
  };
}

/** Only same-origin paths: a notification link must never become `javascript:` or another site. */
export function safeNotificationLink(link: string | null | undefined): string | null {
  if (!link) return null;
  return /^\/(?![/\\])/.test(link) && !/[\s\p{Cc}]/u.test(link) ? link : null;
}

/**
 * Adds a notification for a user; later features call it (and then `app.liveEvents.touch(userId)`
 * for an immediate bell update; otherwise the stream's poll brings it within seconds).
 */
export async function createNotification(db: Kysely<Database>, input: NewNotification): Promise<NotificationRecord> {
  const row = notificationRow(input);
  await db.insertInto('notifications').values(row).execute();
  return toRecord(row);
}

/** Notifications of one change to many people (an import of many requests): multi-row inserts of 500. */
export async function createNotifications(db: Kysely<Database>, inputs: NewNotification[]): Promise<void> {
  for (let i = 0; i < inputs.length; i += 500) {
    await db
      .insertInto('notifications')
      .values(inputs.slice(i, i + 500).map(notificationRow))
      .execute();
  }
}

function notificationRow(input: NewNotification) {
  return {
    id: randomUUID(),
    user_id: input.userId,
    company_id: input.companyId ?? null,
    title: input.title.slice(0, NOTIFICATION_TITLE_MAX_LENGTH),
    body: (input.body ?? '').slice(0, NOTIFICATION_BODY_MAX_LENGTH),
    link: safeNotificationLink(input.link),
    created_at: input.createdAt ?? nowIso(),
    read_at: null,
  };
}

/** A user's notifications, newest first, with the total and the unread count. */
export async function listNotifications(
  db: Kysely<Database>,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ results: NotificationRecord[]; total: number; unreadCount: number }> {
  const [rows, counts] = await Promise.all([
    db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('notifications')
      .select((eb) => [
        eb.fn.countAll<string | number>().as('total'),
        eb.fn.count<string | number>('id').filterWhere('read_at', 'is', null).as('unread'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { results: rows.map(toRecord), total: toCount(counts.total), unreadCount: toCount(counts.unread) };
}

export async function countUnreadNotifications(db: Kysely<Database>, userId: string): Promise<number> {
  return (await countUnreadByUser(db, [userId])).get(userId) ?? 0;
}

/** Unread counts of many users in one query (users without unread notifications are absent: 0). */
export async function countUnreadByUser(db: Kysely<Database>, userIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (userIds.length === 0) return counts;
  const rows = await db
    .selectFrom('notifications')
    .select((eb) => ['user_id', eb.fn.countAll<string | number>().as('unread')])
    .where('user_id', 'in', userIds)
    .where('read_at', 'is', null)
    .groupBy('user_id')
    .execute();
  for (const row of rows) counts.set(row.user_id, toCount(row.unread));
  return counts;
}

/**
 * Marks one of the user's notifications read (an already read one keeps its time).
 * False when the user has no such notification: another user's id is not revealed.
 */
export async function markNotificationRead(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: nowIso() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return true;
  const existing = await db
    .selectFrom('notifications')
    .select('id')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return existing !== undefined;
}

/** Marks every unread notification of the user read; how many changed. */
export async function markAllNotificationsRead(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: nowIso() })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
