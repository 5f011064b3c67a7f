/** The practice a task tracker template belongs to (issue 7), and names kept unique under concurrent writes. */
import type { Kysely } from 'kysely';
import { findPractice, type PracticeRecord } from '../../db/practices';
import type { Database } from '../../db/schema';
import { isUniqueViolationOf } from '../../db/values';
import { HttpError } from '../../lib/http-error';

export const practiceNotFound = () => new HttpError(404, 'practice_not_found');

/**
 * Runs `work`, which checks a name is free and then writes it. A concurrent writer may take the name
 * meanwhile: the unique index named among `names` refuses the write, answered as `conflict()` like the
 * check would have; any other failure stays what it is.
 */
export async function settleUnique<T>(
  names: readonly string[],
  conflict: () => HttpError,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolationOf(error, ...names)) throw conflict();
    throw error;
  }
}

export async function practiceOrThrow(db: Kysely<Database>, id: string): Promise<PracticeRecord> {
  const practice = await findPractice(db, id);
  if (!practice) throw practiceNotFound();
  return practice;
}

/** The practice, which must be active to take new templates: 400 invalid_practice when retired. */
export async function activePracticeOrThrow(db: Kysely<Database>, id: string): Promise<PracticeRecord> {
  const practice = await practiceOrThrow(db, id);
  if (practice.status !== 'active') {
    throw new HttpError(400, 'invalid_practice', undefined, [
      { field: 'id', message: `The practice "${practice.name}" is retired: restore it before adding templates to it.` },
    ]);
  }
  return practice;
}
