/**
 * The building blocks of the api's answers (each area's `results.ts` composes them): answers are
 * strict objects, so the tests catch a field missing, of another type, or undocumented.
 */
import { z } from 'zod';

/** An instant as the api writes it (`toISOString()`). */
export const timestamp = z.iso.datetime();
/** A date without a time, `YYYY-MM-DD`. */
export const day = z.iso.date();
export const id = z.string().min(1);
export const count = z.number().int().min(0);
/** The fields of a page of a `page`/`pageSize` list. */
export const page = { total: count, page: z.number().int().min(1), pageSize: z.number().int().min(1) };
/** `{ id, name }`: a practice, a team... */
export const ref = z.strictObject({ id, name: z.string() });
/** `{ results: [...] }`: a list without pages. */
export const results = <T extends z.ZodType>(item: T) => z.strictObject({ results: z.array(item) });

/** Why `body` is not what `schema` allows, as `path: message` of the first issue, or null when it is. */
export function resultProblem(schema: z.ZodType, body: unknown): string | null {
  const checked = schema.safeParse(body);
  if (checked.success) return null;
  const [issue] = checked.error.issues;
  return `${issue.path.join('.') || '(the body)'}: ${issue.message}`;
}
