import type { TrackerTask } from '@portal/shared/core/practices';
import { allTaskIds, chosenTaskIds, toggleTask } from './task-choice';

const task = (id: string, subtasks: string[] = []): TrackerTask => ({
  id,
  referenceId: null,
  title: id,
  description: null,
  controls: [],
  subtasks: subtasks.map((s) => ({ id: s, referenceId: null, title: s, description: null, controls: [] })),
});
const tasks = [task('a', ['a1', 'a2']), task('b'), task('c', ['c1'])];

describe('choosing template tasks', () => {
  it('lists each task before its subtasks, in file order', () => {
    expect(allTaskIds(tasks)).toEqual(['a', 'a1', 'a2', 'b', 'c', 'c1']);
  });

  it('checks a subtask’s parent with it and unchecks a parent’s subtasks with it', () => {
    const none = new Set<string>();
    expect([...toggleTask(tasks, none, 'c1', true)].sort()).toEqual(['c', 'c1']);
    const all = new Set(allTaskIds(tasks));
    expect([...toggleTask(tasks, all, 'a', false)].sort()).toEqual(['b', 'c', 'c1']);
    // a subtask alone can go; its parent stays
    expect([...toggleTask(tasks, all, 'a2', false)].sort()).toEqual(['a', 'a1', 'b', 'c', 'c1']);
  });

  it('sends no ids when every task is chosen, else the chosen ones in file order', () => {
    expect(chosenTaskIds(tasks, new Set(allTaskIds(tasks)))).toBeUndefined();
    expect(chosenTaskIds(tasks, new Set(['c1', 'a', 'c']))).toEqual(['a', 'c', 'c1']);
  });
});
