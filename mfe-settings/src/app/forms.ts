import type { FormInstance } from '@portal/shared/ui/extra';
import { IMAGE_MAX_BYTES, IMAGE_RULE, IMAGE_SIZE_RULE, sniffImageType } from '@portal/shared/core/settings';
import { fieldErrors } from '@portal/shared/web/api';

export { zodRule } from '@portal/shared/web/api';

/** Puts the api's per-field messages of a 400 (or 409) on the form; true when there were any. */
export function showFieldErrors<T>(form: FormInstance<T>, error: unknown): boolean {
  const errors = fieldErrors(error);
  if (!errors.length) return false;
  form.setFields(errors as Parameters<FormInstance<T>['setFields']>[0]);
  return true;
}

/** Why an image cannot be sent, named like the api names it (`avatar must be at most 2 MB`), or null. Reads only the first bytes. */
export async function imageProblem(file: Blob, field: string): Promise<string | null> {
  if (file.size === 0) return `${field} is empty`;
  if (file.size > IMAGE_MAX_BYTES) return `${field} ${IMAGE_SIZE_RULE}`;
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return sniffImageType(head) ? null : `${field} ${IMAGE_RULE}`;
}

/** The form rule of an image field: checked by its bytes and size before anything is sent. */
export function imageRule(field: string) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (!(value instanceof Blob)) return;
      const problem = await imageProblem(value, field);
      if (problem) throw new Error(problem);
    },
  };
}
