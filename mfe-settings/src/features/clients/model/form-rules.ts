import type { FormInstance } from '@portal/shared/ui/extra';
import { fieldErrors } from '../../../app/settings-api';

interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
}

/** An antd Form rule that checks a field with the api's own zod schema, so the messages match the server's. */
export function zodRule(schema: Schema) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      const result = schema.safeParse(value ?? undefined);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'Invalid value');
    },
  };
}

/** Puts the api's per-field messages of a 400 (or 409) on the form; true when there were any. */
export function showFieldErrors<T>(form: FormInstance<T>, error: unknown): boolean {
  const errors = fieldErrors(error);
  form.setFields(errors as Parameters<FormInstance<T>['setFields']>[0]);
  return errors.length > 0;
}
