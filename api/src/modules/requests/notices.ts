/**
 * Notifications of evidence requests (issue 8): the bell and e-mail for assignment, status change,
 * comment, due soon and overdue. Contract: shared/src/core/requests ("Notifications"). The bells are
 * written in the change's transaction; the mails go out after it commits (deliverRequestNotices).
 * By concern: notice-texts.ts (what a notice is and says), notice-audience.ts (who may hear it),
 * notice-delivery.ts (sending after the commit); reminder-targets.ts (who is due a reminder). This
 * file queues them and names what the rest of the api uses.
 */
import type { Kysely } from 'kysely';
import { createNotifications, type NewNotification } from '../../db/notifications';
import { displayName, requestParticipantsByRequest } from '../../db/requests';
import type { Database } from '../../db/schema';
import { RequestAudience } from './notice-audience';
import { noPendingNotices, type PendingNotices } from './notice-delivery';
import { oneLine, requestLink, requestNoticeText, requestStates, type RequestNotice } from './notice-texts';

export { RequestAudience, type RequestRecipient } from './notice-audience';
export {
  closeRequestDeliveries,
  deliverRequestNotices,
  mergePendingNotices,
  noPendingNotices,
  type PendingNotices,
  type RequestMail,
} from './notice-delivery';
export { requestLink, type RequestNotice, type RequestNoticeKind } from './notice-texts';

/**
 * Creates the bell notifications in `trx` (link /requests/:id) for every recipient who may still hear
 * about the request, and returns what to deliver after the commit. Pass an `audience` to share its
 * answers between calls (the sweep does).
 */
export async function queueRequestNotices(
  trx: Kysely<Database>,
  notices: RequestNotice[],
  audience = new RequestAudience(trx),
): Promise<PendingNotices> {
  const pending = noPendingNotices();
  if (notices.length === 0) return pending;
  const states = await requestStates(
    trx,
    notices.map((n) => n.request.id),
  );
  const actors = await audience.usersOf(notices.flatMap((n) => (n.actorId ? [n.actorId] : [])));
  // Who sees what, asked for all recipients at once (recipients() below then answers from it).
  await audience.learn(notices);
  const touched = new Set<string>();
  const bells: NewNotification[] = [];
  for (const notice of notices) {
    const state = states.get(notice.request.id);
    // The request went meanwhile (deleted in the same change): nobody to tell.
    if (!state) continue;
    const actor = notice.actorId ? actors.get(notice.actorId) : null;
    const text = requestNoticeText(notice, state, actor ? displayName(actor) : 'Someone');
    const title = oneLine(text.title);
    const path = requestLink(notice.request.id);
    for (const user of await audience.recipients(notice.request, notice.userIds, {
      actorId: notice.actorId,
      staffOnly: notice.staffOnly,
    })) {
      bells.push({ userId: user.id, companyId: notice.request.companyId, title, body: text.body, link: path });
      touched.add(user.id);
      pending.mails.push({ to: user.email, subject: title, body: text.body, path });
    }
  }
  await createNotifications(trx, bells);
  pending.userIds = [...touched];
  return pending;
}

/** The people of a request: its requester and its assignees (team members expanded), active users only. */
export async function requestParticipants(
  db: Kysely<Database>,
  requestId: string,
): Promise<{ requesterId: string | null; assigneeIds: string[] }> {
  return (await requestParticipantsByRequest(db, [requestId])).get(requestId) ?? { requesterId: null, assigneeIds: [] };
}

/** Everyone who commented on the request (authors still known). */
export async function requestCommenterIds(db: Kysely<Database>, requestId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('request_comments')
    .select('author_id')
    .distinct()
    .where('request_id', '=', requestId)
    .where('author_id', 'is not', null)
    .execute();
  return rows.flatMap((r) => (r.author_id ? [r.author_id] : []));
}
