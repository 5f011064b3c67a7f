/**
 * What the result schemas share: the type check that ties a schema to its shared contract, and the
 * building blocks of the api's answers.
 */
import { z } from 'zod';

/** true when A and B are the same type (each assignable to the other). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only when T is true: `assertSame<Same<z.output<typeof schema>, Contract>>()`. */
export function assertSame<T extends true>(): T | undefined {
  return undefined;
}

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

/** Why `body` is not what `schema` allows, as `path: message` of the first issue, or null when it is. */
export function resultProblem(schema: z.ZodType, body: unknown): string | null {
  const checked = schema.safeParse(body);
  if (checked.success) return null;
  const [issue] = checked.error.issues;
  return `${issue.path.join('.') || '(the body)'}: ${issue.message}`;
}
