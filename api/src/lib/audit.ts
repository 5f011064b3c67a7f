import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { insertAuditRecord, insertAuditRecords, type AuditRecordInput } from '../db/audit-log';
import type { Database } from '../db/schema';
import { getAuth } from '../plugins/app/auth';

export type AuditChange = Omit<AuditRecordInput, 'actorId' | 'actorEmail' | 'requestId'>;

/**
 * Records an administrative change made by the signed-in caller of `request`. Pass `db` to record it
 * inside the transaction that made the change, so the change and its record commit together.
 */
export async function audit(
  request: FastifyRequest,
  change: AuditChange,
  db: Kysely<Database> = request.server.db,
): Promise<void> {
  const auth = await getAuth(request);
  await insertAuditRecord(db, {
    ...change,
    actorId: auth?.user.id ?? null,
    actorEmail: auth?.user.email ?? 'anonymous',
    requestId: request.id,
  });
}

/** `audit` for many changes of one call (a bulk change), written in a few inserts. */
export async function auditAll(
  request: FastifyRequest,
  changes: AuditChange[],
  db: Kysely<Database> = request.server.db,
): Promise<void> {
  if (changes.length === 0) return;
  const auth = await getAuth(request);
  await insertAuditRecords(
    db,
    changes.map((change) => ({
      ...change,
      actorId: auth?.user.id ?? null,
      actorEmail: auth?.user.email ?? 'anonymous',
      requestId: request.id,
    })),
  );
}
