/**
 * One request as its page shows it: the detail as the caller may see it, its evidence files (with who
 * uploaded each), and its history (appending entries in order, and reading them as staff or a client
 * may see them). What the caller may do with it is modules/requests/permissions.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { RequestDetail, RequestEvent, RequestEventType, RequestFile } from '@portal/shared/core/requests';
import type { RequestAccess } from '../request-access';
import type { Database } from '../schema';
import { nowIso, toCount, toIso } from '../values';
import { inChunks, requestRows, userRefOf } from './internal';
import { summariesOf } from './list';

/** An evidence file as stored: who uploaded it (null: a user since removed), for the rules to decide who may remove it. */
export type StoredRequestFile = Omit<RequestFile, 'canDelete'> & { uploaderId: string | null };

/** A request as the caller may see it, before what they may do with it (permissions.ts adds that). */
export type StoredRequestDetail = Omit<RequestDetail, 'permissions' | 'files'> & { files: StoredRequestFile[] };

/** The evidence files of a request, oldest first (then by name, then id), as the caller sees them. */
export async function listRequestFiles(db: Kysely<Database>, requestId: string): Promise<StoredRequestFile[]> {
  const rows = await db
    .selectFrom('request_files as f')
    .leftJoin('users as u', 'u.id', 'f.uploaded_by')
    .select([
      'f.id',
      'f.request_id',
      'f.name',
      'f.content_type',
      'f.size',
      'f.uploaded_by',
      'f.created_at',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.is_tevora',
    ])
    .where('f.request_id', '=', requestId)
    .orderBy('f.created_at')
    .orderBy('f.name')
    .orderBy('f.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    requestId: r.request_id,
    name: r.name,
    contentType: r.content_type,
    size: toCount(r.size),
    uploadedBy:
      r.uploaded_by !== null && r.email !== null
        ? userRefOf({
            id: r.uploaded_by,
            first_name: r.first_name ?? '',
            last_name: r.last_name ?? '',
            email: r.email,
            is_tevora: r.is_tevora ?? false,
          })
        : null,
    createdAt: toIso(r.created_at),
    uploaderId: r.uploaded_by,
  }));
}

/** The full request as the caller may see it (internalNote null for clients). */
export async function requestDetail(
  db: Kysely<Database>,
  access: Pick<RequestAccess, 'request' | 'staff'>,
  today: string,
): Promise<StoredRequestDetail> {
  const [row] = await requestRows(db, [access.request.id]);
  if (!row) throw new Error(`request ${access.request.id} is gone`);
  const [[summary], task, control, files] = await Promise.all([
    summariesOf(db, [row], { staff: access.staff, today }),
    row.task_id
      ? db.selectFrom('tasks').select(['id', 'reference_id', 'title']).where('id', '=', row.task_id).executeTakeFirst()
      : Promise.resolve(undefined),
    row.control_id
      ? db.selectFrom('controls').select(['id', 'name', 'title']).where('id', '=', row.control_id).executeTakeFirst()
      : Promise.resolve(undefined),
    listRequestFiles(db, row.id),
  ]);
  return {
    ...summary,
    description: row.description,
    internalNote: access.staff ? row.internal_note : null,
    task: task ? { id: task.id, referenceId: task.reference_id, title: task.title } : null,
    control: control ? { id: control.id, name: control.name, title: control.title } : null,
    returnReason: row.status === 'returned' ? row.return_reason : null,
    submittedAt: row.submitted_at === null ? null : toIso(row.submitted_at),
    acceptedAt: row.accepted_at === null ? null : toIso(row.accepted_at),
    canceledAt: row.canceled_at === null ? null : toIso(row.canceled_at),
    files,
  };
}

/** How many evidence files a request holds. */
export async function requestFileCount(db: Kysely<Database>, requestId: string): Promise<number> {
  const row = await db
    .selectFrom('request_files')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('request_id', '=', requestId)
    .executeTakeFirstOrThrow();
  return toCount(row.n as string | number);
}

export interface NewRequestEvent {
  requestId: string;
  actorId: string | null;
  type: RequestEventType;
  detail: RequestEvent['detail'];
  /** Staff-only entry (internal comments): clients never see it. */
  internal?: boolean;
  /** Defaults to now. */
  createdAt?: string;
}

let lastEventMs = 0;
let eventSequence = 0;

/**
 * A UUIDv7-shaped id that grows with time and, within this process, with every call: the history
 * sorts by (created_at, id), so entries written in the same millisecond keep the order they were made.
 */
function sequentialId(): string {
  const now = Date.now();
  if (now > lastEventMs) {
    lastEventMs = now;
    eventSequence = 0;
  } else if (++eventSequence > 0xfff) {
    lastEventMs += 1;
    eventSequence = 0;
  }
  const time = lastEventMs.toString(16).padStart(12, '0');
  const random = randomBytes(8);
  random[0] = (random[0] & 0x3f) | 0x80;
  const tail = random.toString('hex');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${eventSequence.toString(16).padStart(3, '0')}-${tail.slice(0, 4)}-${tail.slice(4)}`;
}

/** Appends to a request's history (in the change's transaction). */
export async function recordRequestEvents(db: Kysely<Database>, events: NewRequestEvent[]): Promise<void> {
  const now = nowIso();
  for (const part of inChunks(events)) {
    await db
      .insertInto('request_events')
      .values(
        part.map((e) => ({
          id: sequentialId(),
          request_id: e.requestId,
          actor_id: e.actorId,
          type: e.type,
          detail: JSON.stringify(e.detail),
          internal: e.internal ?? false,
          created_at: e.createdAt ?? now,
        })),
      )
      .execute();
  }
}

/**
 * A request's history, oldest first. Without `staff`, internal entries are left out and the internal
 * note is not named among an edit's fields (an edit of the note alone is an internal entry).
 */
export async function listRequestEvents(
  db: Kysely<Database>,
  requestId: string,
  options: { staff: boolean },
): Promise<RequestEvent[]> {
  const rows = await db
    .selectFrom('request_events as e')
    .leftJoin('users as u', 'u.id', 'e.actor_id')
    .select([
      'e.id',
      'e.request_id',
      'e.type',
      'e.detail',
      'e.created_at',
      'e.actor_id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.is_tevora',
    ])
    .where('e.request_id', '=', requestId)
    .$if(!options.staff, (q) => q.where('e.internal', '=', false))
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
  const events: RequestEvent[] = [];
  for (const r of rows) {
    const detail = JSON.parse(r.detail) as RequestEvent['detail'];
    if (!options.staff && detail.fields) {
      detail.fields = detail.fields.filter((f) => f !== 'internalNote');
      if (detail.fields.length === 0) continue;
    }
    events.push({
      id: r.id,
      requestId: r.request_id,
      type: r.type as RequestEventType,
      actor:
        r.actor_id !== null && r.email !== null
          ? userRefOf({
              id: r.actor_id,
              first_name: r.first_name ?? '',
              last_name: r.last_name ?? '',
              email: r.email,
              is_tevora: r.is_tevora ?? false,
            })
          : null,
      detail,
      createdAt: toIso(r.created_at),
    });
  }
  return events;
}
