/** Rows for tests that write the task tables directly, as another writer of the database would (the triggers' tests). */
import { randomUUID } from 'node:crypto';
import type { ModuleName } from '@portal/shared/core/modules';

/** Every module on: the module access of a test company that is not about modules. */
export const ALL_MODULES: Record<ModuleName, boolean> = {
  risks: true,
  projects: true,
  requests: true,
  reports: true,
  assets: true,
};

/** A task row of the project, created now: top-level, or a subtask of `parentId`. */
export function taskRow(projectId: string, companyId: string, parentId: string | null = null, status = 'OPEN') {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    project_id: projectId,
    company_id: companyId,
    parent_id: parentId,
    reference_id: null,
    title: `Task ${randomUUID().slice(0, 8)}`,
    description: null,
    status,
    due_date: null,
    created_by: null,
    created_at: now,
    updated_at: now,
  };
}

/** A comment on the task, without an author. */
export function commentRow(taskId: string) {
  return {
    id: randomUUID(),
    task_id: taskId,
    author_id: null,
    body: 'A comment',
    created_at: new Date().toISOString(),
  };
}
