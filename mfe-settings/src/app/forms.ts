import type { FormInstance } from '@portal/shared/ui/extra';
import { IMAGE_MAX_BYTES, IMAGE_RULE, IMAGE_SIZE_RULE, sniffImageType } from '@portal/shared/core/settings';
import { showOnForm } from '@portal/shared/core/errors';

export { zodRule } from '@portal/shared/web/api';

/**
 * Puts a refused call's messages beside the form's fields, in the form's words; true when it did (the
 * shell then shows no toast for it: showOnForm in @portal/shared/core/errors).
 */
export function showFieldErrors<T>(form: FormInstance<T>, error: unknown): boolean {
  return showOnForm(form, error);
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
