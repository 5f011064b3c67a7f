import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/users/api';
import { listAuditRecords } from '../../../../db/audit-log';
import { route } from '../../../../lib/contract';

/** The administrative changes, newest first, for staff admins (who changed what, when, before and after). */
export default async function auditLogRoutes(app: FastifyInstance) {
  route(app, api.listAuditLog, async (request, reply) => {
    const { page, pageSize, search, action, targetType, actorId, companyId, from, to } = request.query;
    const { results, total } = await listAuditRecords(app.db, {
      search: search || undefined,
      action: action || undefined,
      targetType: targetType || undefined,
      actorId: actorId || undefined,
      companyId: companyId || undefined,
      from,
      to,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    reply.header('cache-control', 'no-store');
    return { results, total, page, pageSize };
  });
}
