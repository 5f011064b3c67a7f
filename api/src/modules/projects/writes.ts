/** What the projects routes' edits share: a name the unique index settles, and the audit's before and after. */
import { isForeignKeyViolation, isUniqueViolation } from '../../db/values';
import type { HttpError } from '../../lib/http-error';

/**
 * Runs `work`, which checks that a name is free and then writes it. A concurrent request may take the
 * name between the check and the write: the unique index refuses the write, answered as `conflict()`
 * like the check would have.
 */
export async function settleDuplicate<T>(conflict: () => HttpError, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}

/**
 * Runs `work`, which checks that the rows it names exist and then writes. Should one go meanwhile (a
 * concurrent delete), the foreign key refuses the write, answered as `missing()` like the check would have.
 */
export async function settleMissing<T>(missing: () => HttpError, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw missing();
    throw error;
  }
}

/** The fields among `keys` that `input` sets to another value than `current` holds, as the audit's before and after. */
export function changedFields<C, K extends keyof C & string>(
  current: C,
  input: Partial<Pick<C, K>>,
  keys: readonly K[],
): { before: Partial<Pick<C, K>>; after: Partial<Pick<C, K>> } {
  const before: Partial<Pick<C, K>> = {};
  const after: Partial<Pick<C, K>> = {};
  for (const key of keys) {
    if (input[key] !== undefined && input[key] !== current[key]) {
      before[key] = current[key];
      after[key] = input[key];
    }
  }
  return { before, after };
}
