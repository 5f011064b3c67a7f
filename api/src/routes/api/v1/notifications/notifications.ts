import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/notifications/api';
import type { Notification } from '@portal/shared/core/schemas';
import {
  countUnreadNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationRecord,
} from '../../../../db/notifications';
import { HttpError } from '../../../../lib/http-error';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';

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

  route(app, api.listNotifications, async (request, reply) => {
    const { user } = await requireAuth(request);
    const { page, pageSize } = request.query;
    const { results, total, unreadCount } = await listNotifications(db, user.id, {
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    reply.header('cache-control', 'no-store');
    return { results: results.map(toDto), total, page, pageSize, unreadCount };
  });

  route(app, api.markAllNotificationsRead, async (request) => {
    const { user } = await requireAuth(request);
    await markAllNotificationsRead(db, user.id);
    await app.liveEvents.touch(user.id);
    return { unreadCount: await countUnreadNotifications(db, user.id) };
  });

  route(app, api.markNotificationRead, async (request) => {
    const { user } = await requireAuth(request);
    // Another user's notification is answered like a missing one.
    if (!(await markNotificationRead(db, user.id, request.params.id)))
      throw new HttpError(404, 'not_found', 'Notification not found.');
    await app.liveEvents.touch(user.id);
    return { unreadCount: await countUnreadNotifications(db, user.id) };
  });

  /**
   * Server-sent events: `unread` with `{ unreadCount }` on connect and whenever it changes, a
   * heartbeat comment every 25 s. Ends when the client goes away, when its session ends (checked on
   * every poll), after 15 minutes (the browser reconnects) and when the app closes.
   */
  route(app, api.followUnreadCount, async (request, reply) => {
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
