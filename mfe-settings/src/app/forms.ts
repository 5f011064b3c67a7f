import type { FormInstance } from '@portal/shared/ui/extra';
import { IMAGE_MAX_BYTES, IMAGE_RULE, IMAGE_SIZE_RULE, sniffImageType } from '@portal/shared/core/settings';
import { showOnForm } from '@portal/shared/core/errors';

export { schemaRule } from '@portal/shared/core/errors';

/**
 * Puts a refused call's messages beside the form's fields, in the form's words; true when it did (the
 * shell then shows no toast for it: showOnForm in @portal/shared/core/errors).
 */
export function showFieldErrors<T>(form: FormInstance<T>, error: unknown): boolean {
  return showOnForm(form, error);
}

const sentence = (rule: string) => rule.charAt(0).toUpperCase() + rule.slice(1);

/**
 * Why an image cannot be sent, in the words a form shows under the image's label (the api names the
 * field: `avatar must be at most 2 MB`; the form says "Must be at most 2 MB"), or null. Reads only
 * the first bytes.
 */
export async function imageProblem(file: Blob): Promise<string | null> {
  if (file.size === 0) return 'The file is empty';
  if (file.size > IMAGE_MAX_BYTES) return sentence(IMAGE_SIZE_RULE);
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return sniffImageType(head) ? null : sentence(IMAGE_RULE);
}

/** The form rule of an image field: checked by its bytes and size before anything is sent. */
export function imageRule() {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (!(value instanceof Blob)) return;
      const problem = await imageProblem(value);
      if (problem) throw new Error(problem);
    },
  };
}
