/** How the projects routes read their input: bodies, path parameters and list queries, one way everywhere. */
import { ZodError, z } from 'zod';
import { hasNoNul, nulMessage } from '@portal/shared/core/settings';
import { HttpError, validationError } from '../../lib/http-error';

export type InputPlace = 'field' | 'query parameter' | 'path parameter';

/** An id in the path: present, bounded, without NUL characters (PostgreSQL refuses them in text). */
export const idParam = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(100, `${field} is too long`)
    .refine(hasNoNul, nulMessage(field));

/** 400 validation_failed for a field the schema let through but a rule of the call refuses. */
export const invalidField = (field: string, message: string) =>
  new HttpError(400, 'validation_failed', `Invalid field: ${field}`, [{ field, message }]);

/** The value parsed by `schema`, or 400 validation_failed naming what failed. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: InputPlace): z.infer<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  // A query list is one parameter to the caller: `status`, not `status.1`.
  const error =
    where === 'query parameter'
      ? new ZodError(
          parsed.error.issues.map((issue) => ({ ...issue, path: issue.path.filter((key) => typeof key !== 'number') })),
        )
      : parsed.error;
  throw validationError(error, where);
}

/**
 * The query as the schemas expect it: `key[]=a&key[]=b` (how the web encodes arrays), `key=a&key=b` and
 * any mix of the two become one list under `key`.
 */
export function listQuery(query: unknown): Record<string, unknown> {
  // No prototype: a parameter named `__proto__` stays a parameter.
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    out[name] = name in out || key !== name ? [out[name] ?? [], value ?? []].flat() : value;
  }
  return out;
}

/** A list call's query: `listQuery`, then the schema. */
export function parseListQuery<T extends z.ZodType>(schema: T, query: unknown): z.infer<T> {
  return parseInput(schema, listQuery(query), 'query parameter');
}
