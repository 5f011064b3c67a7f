import type { FormInstance } from '@portal/shared/ui/extra';
import { showOnForm } from '@portal/shared/core/errors';

/** Conflicts the api reports by code alone: the field they belong to (the contract names it). */
const FIELD_OF_CONFLICT: Record<string, string> = {
  task_reference_id_already_exist_on_project: 'referenceId',
  control_name_must_be_unique: 'name',
  project_already_exist: 'title',
};

/**
 * Puts a refused call's messages beside the form's fields, in the form's words: the `details` of a 400,
 * or the field a 409 conflict is about. When the form shows them all, the shell shows no toast.
 */
export function markServerErrors<T>(form: FormInstance<T>, error: unknown): void {
  showOnForm(form, error, FIELD_OF_CONFLICT);
}

/** Whether a failed query was a 404 (the thing does not exist or is not visible to the caller). */
export function isNotFound(error: unknown): boolean {
  return (error as { status?: unknown } | undefined)?.status === 404;
}
