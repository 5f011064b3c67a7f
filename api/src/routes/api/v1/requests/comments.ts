/**
 * Evidence requests (issue 8): comments. Anyone who sees a request reads and writes its comments;
 * internal ones only staff managers write and only staff read. Contract: shared/src/core/requests.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { RequestComment } from '@portal/shared/core/requests';
import * as api from '@portal/shared/core/requests/api';
import { recordRequestEvents, requestUserRefs, touchRequest } from '../../../../db/requests';
import type { Database } from '../../../../db/schema';
import { nowIso, toBool, toIso } from '../../../../db/values';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import {
  deliverRequestNotices,
  queueRequestNotices,
  requestCommenterIds,
  requestParticipants,
} from '../../../../modules/requests/notices';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { policyRequest } from '../../../../plugins/app/policies';
import { settleMissing } from '../../../../modules/projects/writes';

const requestNotFound = () => new HttpError(404, 'request_not_found');

/** The comments of a request the caller may read, oldest first (`ids`: only those). */
async function listComments(
  db: Kysely<Database>,
  requestId: string,
  options: { staff: boolean; ids?: string[] },
): Promise<RequestComment[]> {
  const rows = await db
    .selectFrom('request_comments')
    .selectAll()
    .where('request_id', '=', requestId)
    .$if(!options.staff, (q) => q.where('internal', '=', false))
    .$if(options.ids !== undefined, (q) => q.where('id', 'in', options.ids!))
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const authors = await requestUserRefs(db, [...new Set(rows.flatMap((r) => (r.author_id ? [r.author_id] : [])))]);
  return rows.map((row) => ({
    id: row.id,
    requestId: row.request_id,
    author: row.author_id ? (authors.get(row.author_id) ?? null) : null,
    body: row.body,
    internal: toBool(row.internal),
    createdAt: toIso(row.created_at),
  }));
}

export default async function requestCommentsRoutes(app: FastifyInstance) {
  const { db } = app;

  route(app, api.listRequestComments, async (request, reply) => {
    const access = policyRequest(request);
    const results = await listComments(db, access.request.id, { staff: access.staff });
    reply.header('cache-control', 'no-store');
    return { results };
  });

  route(app, api.createRequestComment, async (request, reply) => {
    const access = policyRequest(request);
    const { user } = await requireAuth(request);
    const input = request.body;
    if (input.internal && !access.manage)
      throw new HttpError(403, 'forbidden', 'Only staff can write internal comments.');
    const target = access.request;
    const id = randomUUID();
    const createdAt = nowIso();
    // A request deleted meanwhile: its foreign key refuses the comment, answered as the policy would.
    const pending = await settleMissing(requestNotFound, () =>
      db.transaction().execute(async (trx) => {
        // The earlier commenters, before this comment joins them.
        const commenters = await requestCommenterIds(trx, target.id);
        await trx
          .insertInto('request_comments')
          .values({
            id,
            request_id: target.id,
            author_id: user.id,
            body: input.body,
            internal: input.internal,
            created_at: createdAt,
          })
          .execute();
        await recordRequestEvents(trx, [
          {
            requestId: target.id,
            actorId: user.id,
            type: 'comment',
            detail: { internal: input.internal },
            internal: input.internal,
            createdAt,
          },
        ]);
        await touchRequest(trx, target.id, createdAt);
        await audit(
          request,
          {
            action: 'request.comment.create',
            targetType: 'request',
            targetId: target.id,
            targetLabel: target.reference,
            companyId: target.companyId,
            after: { commentId: id, internal: input.internal, body: input.body },
          },
          trx,
        );
        const { requesterId, assigneeIds } = await requestParticipants(trx, target.id);
        return queueRequestNotices(trx, [
          {
            kind: 'comment',
            request: { id: target.id, companyId: target.companyId, reference: target.reference, title: target.title },
            actorId: user.id,
            userIds: [...(requesterId ? [requesterId] : []), ...assigneeIds, ...commenters],
            staffOnly: input.internal,
            summary: input.body,
          },
        ]);
      }),
    );
    void deliverRequestNotices(app, request.log, pending);
    const [comment] = await listComments(db, target.id, { staff: true, ids: [id] });
    return reply.code(201).send(comment);
  });
}
