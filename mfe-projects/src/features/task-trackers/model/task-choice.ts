/**
 * Choosing which tasks of a template to apply. A subtask goes only with its parent (the api answers
 * `task_not_supported` otherwise), so checking a subtask checks its parent and unchecking a parent
 * unchecks its subtasks.
 */
import type { TrackerTask } from '@portal/shared/core/practices';

/** Every task id of the template: each task, then its subtasks, in file order. */
export function allTaskIds(tasks: TrackerTask[]): string[] {
  return tasks.flatMap((t) => [t.id, ...t.subtasks.map((s) => s.id)]);
}

/** `chosen` after the user checks or unchecks task `id`. */
export function toggleTask(
  tasks: TrackerTask[],
  chosen: ReadonlySet<string>,
  id: string,
  checked: boolean,
): Set<string> {
  const next = new Set(chosen);
  const parent = tasks.find((t) => t.id === id);
  if (parent) {
    if (checked) next.add(id);
    else {
      next.delete(id);
      for (const s of parent.subtasks) next.delete(s.id);
    }
    return next;
  }
  const owner = tasks.find((t) => t.subtasks.some((s) => s.id === id));
  if (checked) {
    next.add(id);
    if (owner) next.add(owner.id);
  } else next.delete(id);
  return next;
}

/** The `taskIds` of the apply: absent when every task is chosen (the api then applies them all), else the chosen ones in file order. */
export function chosenTaskIds(tasks: TrackerTask[], chosen: ReadonlySet<string>): string[] | undefined {
  const all = allTaskIds(tasks);
  const ids = all.filter((id) => chosen.has(id));
  return ids.length === all.length ? undefined : ids;
}
