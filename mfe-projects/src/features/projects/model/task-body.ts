/** Request bodies from the task form's values: empty optional fields are left out (create) or cleared (edit). */
import type { TaskCreate, TaskDetail, TaskStatus, TaskUpdate } from '@portal/shared/core/projects';

export interface TaskFormValues {
  title: string;
  referenceId?: string;
  description?: string;
  dueDate?: string;
  assigneeIds?: string[];
  status?: TaskStatus;
}

export function taskCreateBody(values: TaskFormValues, parentId?: string): TaskCreate {
  const body: TaskCreate = { title: values.title.trim(), status: values.status ?? 'OPEN' };
  const referenceId = values.referenceId?.trim();
  const description = values.description?.trim();
  if (referenceId) body.referenceId = referenceId;
  if (description) body.description = description;
  if (values.dueDate) body.dueDate = values.dueDate;
  if (values.assigneeIds?.length) body.assigneeIds = values.assigneeIds;
  if (parentId) body.parentId = parentId;
  return body;
}

const sameMembers = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/** Only what changed, so an edit never re-sends (and re-checks) fields the user left alone. */
export function taskUpdateBody(values: TaskFormValues, before: TaskDetail): TaskUpdate {
  const body: TaskUpdate = {};
  const title = values.title.trim();
  const referenceId = values.referenceId?.trim() || null;
  const description = values.description?.trim() || null;
  const dueDate = values.dueDate || null;
  const assigneeIds = values.assigneeIds ?? [];
  if (title !== before.title) body.title = title;
  if (referenceId !== before.referenceId) body.referenceId = referenceId;
  if (description !== (before.description ?? null)) body.description = description;
  if (dueDate !== before.dueDate) body.dueDate = dueDate;
  if (
    !sameMembers(
      assigneeIds,
      before.assignees.map((a) => a.id),
    )
  )
    body.assigneeIds = assigneeIds;
  return body;
}

export function taskFormValues(task: TaskDetail): TaskFormValues {
  return {
    title: task.title,
    referenceId: task.referenceId ?? '',
    description: task.description ?? '',
    dueDate: task.dueDate ?? '',
    assigneeIds: task.assignees.map((a) => a.id),
  };
}
