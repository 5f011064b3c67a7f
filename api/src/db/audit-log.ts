import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AuditEntry } from '@portal/shared/core/settings';
import type { Database } from './schema';
import { likePattern, nowIso, toCount, toIso } from './values';

/** One administrative change: who, what, when, before and after. */
export interface AuditRecordInput {
  actorId: string | null;
  actorEmail: string;
  /** e.g. `company.update`, `user.invite`, `team.member.add`. */
  action: string;
  targetType: string;
  targetId: string | null;
  targetLabel?: string;
  companyId?: string | null;
  before?: unknown;
  after?: unknown;
  requestId?: string | null;
  /** When it happened; now unless given (the demo seed records earlier changes). */
  createdAt?: string;
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));

const auditRow = (input: AuditRecordInput, now: string) => ({
  id: randomUUID(),
  created_at: input.createdAt ?? now,
  actor_id: input.actorId,
  actor_email: input.actorEmail,
  action: input.action,
  target_type: input.targetType,
  target_id: input.targetId,
  target_label: input.targetLabel ?? '',
  company_id: input.companyId ?? null,
  before: json(input.before),
  after: json(input.after),
  request_id: input.requestId ?? null,
});

export async function insertAuditRecord(db: Kysely<Database>, input: AuditRecordInput): Promise<void> {
  await db.insertInto('audit_log').values(auditRow(input, nowIso())).execute();
}

/** Rows per insert of insertAuditRecords: within every bind parameter limit. */
const AUDIT_BATCH = 200;

/** Many records (a bulk change's), in a few multi-row inserts. */
export async function insertAuditRecords(db: Kysely<Database>, inputs: AuditRecordInput[]): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < inputs.length; i += AUDIT_BATCH) {
    await db
      .insertInto('audit_log')
      .values(inputs.slice(i, i + AUDIT_BATCH).map((input) => auditRow(input, now)))
      .execute();
  }
}

export interface AuditQuery {
  search?: string;
  action?: string;
  targetType?: string;
  actorId?: string;
  companyId?: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Newest first; `action` matches the action or any action under it (`team` finds `team.member.add`). */
export async function listAuditRecords(
  db: Kysely<Database>,
  query: AuditQuery,
): Promise<{ results: AuditEntry[]; total: number }> {
  let base = db.selectFrom('audit_log');
  if (query.action) {
    // LIKE needs its escape character declared, or `!_` would match literally.
    const under = `${query.action.replace(/[!%_]/g, (c) => `!${c}`)}.%`;
    base = base.where((eb) => eb.or([eb('action', '=', query.action!), sql<boolean>`action like ${under} escape '!'`]));
  }
  if (query.targetType) base = base.where('target_type', '=', query.targetType);
  if (query.actorId) base = base.where('actor_id', '=', query.actorId);
  if (query.companyId) base = base.where('company_id', '=', query.companyId);
  if (query.from) base = base.where('created_at', '>=', new Date(query.from).toISOString());
  if (query.to) base = base.where('created_at', '<=', new Date(query.to).toISOString());
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where(
      sql<boolean>`(lower(actor_email) like ${pattern} escape '!' or lower(action) like ${pattern} escape '!' or lower(target_label) like ${pattern} escape '!')`,
    );
  }
  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return {
    total: toCount(totalRow.n as string | number),
    results: rows.map((r) => ({
      id: r.id,
      createdAt: toIso(r.created_at),
      actor: { id: r.actor_id, email: r.actor_email },
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      targetLabel: r.target_label,
      companyId: r.company_id,
      before: parse(r.before),
      after: parse(r.after),
      requestId: r.request_id,
    })),
  };
}
