import type { FormInstance } from '@portal/shared/ui/extra';
import { ERROR_MESSAGES, isMappedErrorCode } from '@portal/shared/core/errors';
import { fieldErrors } from '@portal/shared/web/api';

/** Conflicts the api reports by code alone: the field they belong to (the contract names it). */
const FIELD_OF_CONFLICT: Record<string, string> = {
  task_reference_id_already_exist_on_project: 'referenceId',
  control_name_must_be_unique: 'name',
  project_already_exist: 'title',
};

/**
 * Puts a failed call's per-field messages on the form (the shell shows the toast): the `details` of a
 * 400, or the field a 409 conflict is about. Nested paths (`assigneeIds.2`) land on their field.
 */
export function markServerErrors<T>(form: FormInstance<T>, error: unknown): void {
  const fields = fieldErrors(error).map(({ name, errors }) => ({ name: name.split('.')[0], errors }));
  if (!fields.length) {
    const code = (error as { data?: { code?: unknown } } | undefined)?.data?.code;
    const field = typeof code === 'string' ? FIELD_OF_CONFLICT[code] : undefined;
    if (field && isMappedErrorCode(code)) fields.push({ name: field, errors: [ERROR_MESSAGES[code]] });
  }
  if (fields.length) form.setFields(fields as Parameters<FormInstance<T>['setFields']>[0]);
}

/** Whether a failed query was a 404 (the thing does not exist or is not visible to the caller). */
export function isNotFound(error: unknown): boolean {
  return (error as { status?: unknown } | undefined)?.status === 404;
}
