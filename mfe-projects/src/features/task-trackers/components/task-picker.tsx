import type { CSSProperties } from 'react';
import { Button } from '@portal/shared/ui';
import { Flex, Typography } from '@portal/shared/ui/extra';
import type { TrackerTask } from '@portal/shared/core/practices';
import { allTaskIds, toggleTask } from '../model/task-choice';

const LIST: CSSProperties = { listStyle: 'none', margin: 0, paddingInlineStart: 0 };

function TaskCheck({ task, checked, onChange }: { task: Omit<TrackerTask, 'subtasks'>; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label style={{ display: 'flex', gap: 8, alignItems: 'baseline', padding: '2px 0', cursor: 'pointer' }}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>
        {task.referenceId ? <Typography.Text type="secondary">{`${task.referenceId} `}</Typography.Text> : null}
        {task.title}
      </span>
    </label>
  );
}

/**
 * The template's tasks, each with its subtasks under it, to check or uncheck. A subtask goes only with
 * its parent: checking one checks its parent, unchecking a parent unchecks its subtasks.
 */
export function TaskPicker({ tasks, chosen, onChange }: { tasks: TrackerTask[]; chosen: ReadonlySet<string>; onChange: (chosen: Set<string>) => void }) {
  const total = allTaskIds(tasks).length;
  const set = (id: string, checked: boolean) => onChange(toggleTask(tasks, chosen, id, checked));
  return (
    <Flex vertical gap="small">
      <Flex align="center" gap="small" wrap>
        <Typography.Text aria-live="polite">{`${chosen.size} of ${total} tasks chosen`}</Typography.Text>
        <Button size="small" onClick={() => onChange(new Set(allTaskIds(tasks)))} disabled={chosen.size === total}>
          Choose all
        </Button>
        <Button size="small" onClick={() => onChange(new Set())} disabled={chosen.size === 0}>
          Clear
        </Button>
      </Flex>
      <div style={{ maxHeight: 320, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: '4px 12px' }}>
        <ul aria-label="Tasks to apply" style={LIST}>
          {tasks.map((task) => (
            <li key={task.id}>
              <TaskCheck task={task} checked={chosen.has(task.id)} onChange={(checked) => set(task.id, checked)} />
              {task.subtasks.length ? (
                <ul aria-label={`Subtasks of ${task.title}`} style={{ ...LIST, paddingInlineStart: 24 }}>
                  {task.subtasks.map((sub) => (
                    <li key={sub.id}>
                      <TaskCheck task={sub} checked={chosen.has(sub.id)} onChange={(checked) => set(sub.id, checked)} />
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
    </Flex>
  );
}
