import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Notification, NotificationList, UnreadCount } from '@portal/shared/core/schemas';
import {
  countUnreadNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationRecord,
} from '../../db/notifications';
import { HttpError, validationError } from '../../lib/http-error';
import { requireAuth } from '../../plugins/auth';

export const NOTIFICATIONS_MAX_PAGE_SIZE = 100;

export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(NOTIFICATIONS_MAX_PAGE_SIZE).default(20),
});

const idSchema = z.object({ id: z.string().min(1).max(100) });

function toDto(n: NotificationRecord): Notification {
  return {
    id: n.id,
    companyId: n.companyId,
    title: n.title,
    body: n.body,
    link: n.link,
    createdAt: n.createdAt,
    readAt: n.readAt,
  };
}

/** The bell (a list plus an unread count), each user's own notifications only. */
export default async function notificationsRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/api/v1/notifications', { config: { policy: 'signedIn' } }, async (request, reply) => {
    const { user } = await requireAuth(request);
    const parsed = listQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success) throw validationError(parsed.error, 'query parameter');
    const { page, pageSize } = parsed.data;
    const { results, total, unreadCount } = await listNotifications(db, user.id, {
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    const body: NotificationList = { results: results.map(toDto), total, page, pageSize, unreadCount };
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.post('/api/v1/notifications/read-all', { config: { policy: 'signedIn' } }, async (request) => {
    const { user } = await requireAuth(request);
    await markAllNotificationsRead(db, user.id);
    await app.liveEvents.touch(user.id);
    const body: UnreadCount = { unreadCount: await countUnreadNotifications(db, user.id) };
    return body;
  });

  app.post('/api/v1/notifications/:id/read', { config: { policy: 'signedIn' } }, async (request) => {
    const { user } = await requireAuth(request);
    const parsed = idSchema.safeParse(request.params);
    if (!parsed.success) throw validationError(parsed.error, 'path parameter');
    // Another user's notification is answered like a missing one.
    if (!(await markNotificationRead(db, user.id, parsed.data.id)))
      throw new HttpError(404, 'not_found', 'Notification not found.');
    await app.liveEvents.touch(user.id);
    const body: UnreadCount = { unreadCount: await countUnreadNotifications(db, user.id) };
    return body;
  });

  /**
   * Server-sent events: `unread` with `{ unreadCount }` on connect and whenever it changes, a
   * heartbeat comment every 25 s. Ends when the client goes away, when its session ends (checked on
   * every poll), after 15 minutes (the browser reconnects) and when the app closes.
   */
  app.get('/api/v1/notifications/stream', { config: { policy: 'signedIn' } }, async (request, reply) => {
    const { user, session } = await requireAuth(request);
    const stream = new PassThrough();
    let remove: (() => void) | null = null;
    let gone = false;
    // Listening before the first await: a client that leaves while the count is read is not kept.
    reply.raw.on('close', () => {
      gone = true;
      remove?.();
      stream.destroy();
    });
    remove = await app.liveEvents.add(
      user.id,
      {
        write: (text) => {
          if (!stream.destroyed && !stream.writableEnded) stream.write(text);
        },
        close: () => stream.end(),
      },
      session.id,
    );
    if (gone) remove();
    stream.on('close', remove);
    return (
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        // nginx and similar proxies would otherwise hold events back in their buffers
        .header('x-accel-buffering', 'no')
        .send(stream)
    );
  });
}
