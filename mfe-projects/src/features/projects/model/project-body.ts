import type { Project, ProjectType, ProjectUpdate } from '@portal/shared/core/projects';

export interface ProjectFormValues {
  title: string;
  description?: string;
  type: ProjectType;
  practiceId?: string | null;
  startDate?: string;
  dueDate?: string;
}

export function projectFormValues(project: Project): ProjectFormValues {
  return {
    title: project.title,
    description: project.description ?? '',
    type: project.type,
    practiceId: project.practice?.id ?? null,
    startDate: project.startDate ?? '',
    dueDate: project.dueDate ?? '',
  };
}

/**
 * Only what changed: the api refuses some changes once a project has tasks (its practice, its type
 * unless every task is OPEN or INCOMPLETE), and an unchanged field must not trip those rules.
 */
export function projectUpdateBody(values: ProjectFormValues, before: Project): ProjectUpdate {
  const body: ProjectUpdate = {};
  const title = values.title.trim();
  const description = values.description?.trim() || null;
  const practiceId = values.practiceId || null;
  const startDate = values.startDate || null;
  const dueDate = values.dueDate || null;
  if (title !== before.title) body.title = title;
  if (description !== (before.description ?? null)) body.description = description;
  if (values.type !== before.type) body.type = values.type;
  if (practiceId !== (before.practice?.id ?? null)) body.practiceId = practiceId;
  if (startDate !== before.startDate) body.startDate = startDate;
  if (dueDate !== before.dueDate) body.dueDate = dueDate;
  return body;
}
