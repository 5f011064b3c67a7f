import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { insertAuditRecord, type AuditRecordInput } from '../db/audit-log';
import type { Database } from '../db/schema';
import { getAuth } from '../plugins/auth';

export type AuditChange = Omit<AuditRecordInput, 'actorId' | 'actorEmail' | 'requestId'>;

/**
 * Records an administrative change made by the signed-in caller of `request`. Pass `db` to record it
 * inside the transaction that made the change, so the change and its record commit together.
 */
export async function audit(request: FastifyRequest, change: AuditChange, db: Kysely<Database> = request.server.db): Promise<void> {
  const auth = await getAuth(request);
  await insertAuditRecord(db, {
    ...change,
    actorId: auth?.user.id ?? null,
    actorEmail: auth?.user.email ?? 'anonymous',
    requestId: request.id,
  });
}
