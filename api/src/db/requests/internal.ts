/**
 * What the files of this folder share and the folder does not export: the 400 for a bad field, the
 * chunking of long id lists, a user row as a RequestUserRef, and a request's own row as every read
 * of requests loads it.
 */
import type { Kysely } from 'kysely';
import type { RequestPriority, RequestStatus, RequestUserRef } from '@portal/shared/core/requests';
import { HttpError } from '../../lib/http-error';
import type { Database } from '../schema';
import { toBool } from '../values';

/** 400 validation_failed naming `field`. */
export const invalidField = (field: string, message: string) =>
  new HttpError(400, 'validation_failed', `Invalid field: ${field}`, [{ field, message }]);

/** Ids in one `in (...)` list and rows in one multi-row insert: within every bind parameter limit. */
export const CHUNK = 500;

export function inChunks<T>(values: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

export const userRefOf = (r: {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_tevora: boolean | number;
}): RequestUserRef => ({
  id: r.id,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  isTevora: toBool(r.is_tevora),
});

export interface RequestRow {
  id: string;
  company_id: string;
  project_id: string | null;
  task_id: string | null;
  control_id: string | null;
  reference: string;
  title: string;
  description: string | null;
  internal_note: string | null;
  priority: RequestPriority;
  due_date: string | null;
  status: RequestStatus;
  return_reason: string | null;
  requester_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  submitted_at: Date | string | null;
  accepted_at: Date | string | null;
  canceled_at: Date | string | null;
  project_title: string | null;
}

export async function requestRows(db: Kysely<Database>, ids: string[]): Promise<RequestRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('requests')
    .leftJoin('projects', 'projects.id', 'requests.project_id')
    .select([
      'requests.id',
      'requests.company_id',
      'requests.project_id',
      'requests.task_id',
      'requests.control_id',
      'requests.reference',
      'requests.title',
      'requests.description',
      'requests.internal_note',
      'requests.priority',
      'requests.due_date',
      'requests.status',
      'requests.return_reason',
      'requests.requester_id',
      'requests.created_at',
      'requests.updated_at',
      'requests.submitted_at',
      'requests.accepted_at',
      'requests.canceled_at',
      'projects.title as project_title',
    ])
    .where('requests.id', 'in', ids)
    .execute();
}
