import { ZodError, type z } from 'zod';
import { nameUnknownFields, validationError } from './http-error';

/**
 * The text fields of a multipart form (read from the stream or into memory by the handler), checked
 * with the operation's `form.fields` as fastify checks a JSON body: 400 validation_failed naming each
 * field that failed (an unknown field by its name). A repeated field is one field to the caller:
 * `recipientIds`, not `recipientIds.0`.
 */
export function checkFormFields<S extends z.ZodType>(schema: S, fields: Record<string, unknown>): z.output<S> {
  const checked = schema.safeParse(fields);
  if (checked.success) return checked.data;
  const issues = checked.error.issues.map((issue) => ({
    ...issue,
    path: issue.path.filter((key) => typeof key !== 'number'),
  }));
  throw validationError(nameUnknownFields(new ZodError(issues)), 'field');
}
