import type { ControlCreate, ControlDetail, ControlUpdate } from '@portal/shared/core/projects';

export interface ControlFormValues {
  name: string;
  title: string;
  description?: string;
}

export function controlCreateBody(values: ControlFormValues): ControlCreate {
  const description = values.description?.trim();
  return { name: values.name.trim(), title: values.title.trim(), ...(description ? { description } : {}) };
}

/** Only what changed (a rename is checked for uniqueness; an unchanged name need not be). */
export function controlUpdateBody(values: ControlFormValues, before: ControlDetail): ControlUpdate {
  const name = values.name.trim();
  const title = values.title.trim();
  const description = values.description?.trim() || null;
  return {
    ...(name !== before.name ? { name } : {}),
    ...(title !== before.title ? { title } : {}),
    ...(description !== (before.description ?? null) ? { description } : {}),
  };
}
