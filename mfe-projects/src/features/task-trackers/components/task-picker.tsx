import { useMemo, useState, type Key } from 'react';
import { Button } from '@portal/shared/ui/button';
import { Flex, Input, Tree, Typography, type TreeDataNode } from '@portal/shared/ui/extra';
import type { TrackerTask } from '@portal/shared/core/practices';
import { allTaskIds, toggleTask } from '../model/task-choice';

/** The list's height: a template can hold 20,000 tasks, so only the rows in view are rendered. */
export const TASK_LIST_HEIGHT = 320;

interface TaskNode extends TreeDataNode {
  key: string;
  referenceId: string | null;
  label: string;
  children?: TaskNode[];
}

const nodeOf = (task: Omit<TrackerTask, 'subtasks'>, children?: TaskNode[]): TaskNode => ({
  key: task.id,
  title: task.referenceId ? `${task.referenceId} ${task.title}` : task.title,
  referenceId: task.referenceId,
  label: task.title,
  ...(children?.length ? { children } : { isLeaf: true }),
});

const matches = (task: Omit<TrackerTask, 'subtasks'>, search: string) =>
  task.title.toLowerCase().includes(search) || (task.referenceId ?? '').toLowerCase().includes(search);

/**
 * The tree of the tasks that match `search` (by Task ID or title, any case): a task that matches with
 * all its subtasks, else with those of its subtasks that match.
 */
export function taskTree(tasks: TrackerTask[], search = ''): TaskNode[] {
  const wanted = search.trim().toLowerCase();
  if (!wanted)
    return tasks.map((t) =>
      nodeOf(
        t,
        t.subtasks.map((s) => nodeOf(s)),
      ),
    );
  const nodes: TaskNode[] = [];
  for (const t of tasks) {
    const subs = matches(t, wanted) ? t.subtasks : t.subtasks.filter((s) => matches(s, wanted));
    if (subs.length || matches(t, wanted))
      nodes.push(
        nodeOf(
          t,
          subs.map((s) => nodeOf(s)),
        ),
      );
  }
  return nodes;
}

function TaskTitle({ node }: { node: TaskNode }) {
  return (
    <span>
      {node.referenceId ? <Typography.Text type="secondary">{`${node.referenceId} `}</Typography.Text> : null}
      {node.label}
    </span>
  );
}

/**
 * The template's tasks, each with its subtasks under it, to check or uncheck, in a virtual list (only
 * the rows in view are in the page) with a search by Task ID or title. A subtask goes only with its
 * parent: checking one checks its parent, unchecking a parent unchecks its subtasks.
 */
export function TaskPicker({
  tasks,
  chosen,
  onChange,
}: {
  tasks: TrackerTask[];
  chosen: ReadonlySet<string>;
  onChange: (chosen: Set<string>) => void;
}) {
  const [search, setSearch] = useState('');
  const total = useMemo(() => allTaskIds(tasks).length, [tasks]);
  const parents = useMemo(() => tasks.filter((t) => t.subtasks.length).map((t) => t.id), [tasks]);
  /** The parents the user folded; a search shows every match unfolded. */
  const [folded, setFolded] = useState<ReadonlySet<Key>>(() => new Set());
  const tree = useMemo(() => taskTree(tasks, search), [tasks, search]);
  const searching = search.trim() !== '';
  const expanded = useMemo(
    () => (searching ? tree.filter((n) => n.children).map((n) => n.key) : parents.filter((id) => !folded.has(id))),
    [searching, tree, parents, folded],
  );
  const checkedKeys = useMemo(() => ({ checked: [...chosen], halfChecked: [] }), [chosen]);

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
      <Input.Search
        aria-label="Search tasks"
        placeholder="Search by Task ID or title"
        allowClear
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        onSearch={setSearch}
      />
      {searching && !tree.length ? (
        <Typography.Text type="secondary">{`No task matches “${search.trim()}”.`}</Typography.Text>
      ) : (
        <div
          aria-label="Tasks to apply"
          role="group"
          style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: '4px 0' }}
        >
          <Tree<TaskNode>
            checkable
            checkStrictly
            selectable={false}
            virtual
            height={TASK_LIST_HEIGHT}
            treeData={tree}
            checkedKeys={checkedKeys}
            expandedKeys={expanded}
            onExpand={(_keys, { node, expanded: open }) => {
              if (searching) return;
              setFolded((was) => {
                const next = new Set(was);
                if (open) next.delete(node.key);
                else next.add(node.key);
                return next;
              });
            }}
            onCheck={(_keys, { node, checked }) => onChange(toggleTask(tasks, chosen, String(node.key), checked))}
            titleRender={(node) => <TaskTitle node={node} />}
          />
        </div>
      )}
    </Flex>
  );
}
