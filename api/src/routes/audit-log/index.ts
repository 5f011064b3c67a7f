import type { FastifyInstance } from 'fastify';
import { auditLogQuerySchema, type AuditEntry } from '@portal/shared/core/settings';
import { listAuditRecords } from '../../db/audit-log';
import { validationError } from '../../lib/http-error';

/** The administrative changes, newest first, for staff admins (who changed what, when, before and after). */
export default async function auditLogRoutes(app: FastifyInstance) {
  app.get('/api/v1/audit-log', { config: { policy: 'staffAdmin' } }, async (request, reply) => {
    const parsed = auditLogQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success) throw validationError(parsed.error, 'query parameter');
    const { page, pageSize, search, action, targetType, actorId, companyId, from, to } = parsed.data;
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
    const body: { results: AuditEntry[]; total: number; page: number; pageSize: number } = {
      results,
      total,
      page,
      pageSize,
    };
    return reply.header('cache-control', 'no-store').send(body);
  });
}
