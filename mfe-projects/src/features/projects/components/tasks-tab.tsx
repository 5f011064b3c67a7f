import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import { Empty, Flex, PlusOutlined, Select, Table, Typography, type TableProps } from '@portal/shared/ui/extra';
import { Link } from '@portal/shared/web/router';
import {
  TASK_DUE_FILTERS,
  TASK_STATUS_LABELS,
  TASK_STATUSES,
  type Project,
  type Task,
} from '@portal/shared/core/projects';
import { taskPath, type FromProject } from '../../../app/paths';
import { projectsApi } from '../../../app/projects-api';
import { TaskTrackerActions } from '../../task-trackers/components/task-tracker-actions';
import { pageValue, useAddress, type AddressChanges } from '../hooks/use-address';
import { personName } from '../model/labels';
import { taskCreateBody } from '../model/task-body';
import {
  hasTaskFilters,
  TASK_DUE_LABELS,
  TASK_PARAMS,
  taskListState,
  tasksQuery,
  TASKS_PAGE_SIZE,
  UNASSIGNED,
  type TaskSortKey,
} from '../model/task-list';
import { LoadFailedEmpty } from './page-states';
import { SearchBox } from './search-box';
import { Assignees, DueDate, TaskStatusTag } from './task-bits';
import { TaskFormModal } from './task-form-modal';

const CREATE_FIELDS = ['title', 'referenceId', 'description', 'dueDate', 'assigneeIds', 'status'] as const;

/** The project's top-level tasks: filtered, sorted and paged through the address (`tasksPage`, `task*`). */
export function TasksTab({ project }: { project: Project }) {
  const [params, change] = useAddress();
  const state = taskListState(params);
  const list = projectsApi.useProjectsTasksQuery({ projectId: project.id, ...tasksQuery(state) });
  const assignees = projectsApi.useProjectsTaskAssigneesQuery(project.id);
  const [createTask] = projectsApi.useProjectsTaskCreateMutation();
  const [creating, setCreating] = useState(false);

  // A new filter or sort starts again from the first page.
  const refine = (changes: AddressChanges, options?: { replace?: boolean }) =>
    change({ ...changes, [TASK_PARAMS.page]: null }, options);

  const search = params.toString();
  const fromProject: FromProject = { projectSearch: search ? `?${search}` : '' };

  const sortOrder = (key: TaskSortKey) =>
    state.sort === key ? ('ascend' as const) : state.sort === `-${key}` ? ('descend' as const) : null;

  const onChange: TableProps<Task>['onChange'] = (pagination, _filters, sorter, { action }) => {
    if (action === 'paginate') {
      change({ [TASK_PARAMS.page]: pageValue(pagination.current) });
    } else if (action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      refine({ [TASK_PARAMS.sort]: s?.order ? `${s.order === 'descend' ? '-' : ''}${String(s.columnKey)}` : null });
    }
  };

  const columns: TableProps<Task>['columns'] = [
    {
      key: 'referenceId',
      title: 'Task ID',
      dataIndex: 'referenceId',
      sorter: true,
      sortOrder: sortOrder('referenceId'),
      render: (v: string | null) => v ?? <Typography.Text type="secondary">—</Typography.Text>,
      width: 130,
    },
    {
      key: 'title',
      title: 'Title',
      sorter: true,
      sortOrder: sortOrder('title'),
      render: (_v, t) => (
        <Link to={taskPath(project.id, t.id)} state={fromProject}>
          {t.title}
        </Link>
      ),
    },
    {
      key: 'status',
      title: 'Status',
      sorter: true,
      sortOrder: sortOrder('status'),
      render: (_v, t) => <TaskStatusTag status={t.status} />,
    },
    { key: 'assignees', title: 'Assignees', render: (_v, t) => <Assignees users={t.assignees} /> },
    {
      key: 'dueDate',
      title: 'Due date',
      sorter: true,
      sortOrder: sortOrder('dueDate'),
      render: (_v, t) => <DueDate dueDate={t.dueDate} overdue={t.overdue} />,
    },
    {
      key: 'subtasks',
      title: 'Subtasks',
      render: (_v, t) =>
        t.subtaskCount ? (
          <span
            aria-label={`${t.subtasksDone} of ${t.subtaskCount} subtasks done`}
          >{`${t.subtasksDone}/${t.subtaskCount}`}</span>
        ) : (
          '—'
        ),
    },
    { key: 'comments', title: 'Comments', dataIndex: 'commentCount' },
  ];

  // Whoever the tasks are assigned to. An addressed id not among them (from a link, or someone whose
  // tasks went to others since) keeps a label instead of showing as a raw id.
  const assigneeOptions = [
    { value: UNASSIGNED, label: 'Unassigned' },
    ...(assignees.data ?? []).map((u) => ({ value: u.id, label: personName(u) })),
  ];
  if (state.assigneeId && !assigneeOptions.some((o) => o.value === state.assigneeId)) {
    assigneeOptions.push({ value: state.assigneeId, label: assignees.isFetching ? 'Loading…' : 'Unknown assignee' });
  }

  // An addressed page past the last one says so first: its filters may well match tasks on page 1.
  const emptyText =
    state.page > 1 && (list.data?.total ?? 0) > 0 ? (
      <Empty description={`There is no page ${state.page}.`}>
        <Button onClick={() => change({ [TASK_PARAMS.page]: null })}>Go to the first page</Button>
      </Empty>
    ) : hasTaskFilters(state) ? (
      <Empty description="No tasks match these filters." />
    ) : (
      <Empty description="No tasks yet." />
    );

  return (
    <Flex vertical gap="middle">
      <Flex gap="small" wrap align="center">
        <Select
          mode="multiple"
          aria-label="Filter by status"
          placeholder="Status"
          allowClear
          style={{ minWidth: 180 }}
          value={state.status}
          onChange={(status: string[]) => refine({ [TASK_PARAMS.status]: status })}
          options={TASK_STATUSES.map((s) => ({ value: s, label: TASK_STATUS_LABELS[s] }))}
        />
        <Select
          aria-label="Filter by assignee"
          placeholder="Assignee"
          allowClear
          style={{ minWidth: 180 }}
          value={state.assigneeId}
          onChange={(assigneeId?: string) => refine({ [TASK_PARAMS.assignee]: assigneeId })}
          options={assigneeOptions}
          loading={assignees.isFetching}
          showSearch={{ optionFilterProp: 'label' }}
        />
        <Select
          aria-label="Filter by due date"
          placeholder="Due"
          allowClear
          style={{ minWidth: 150 }}
          value={state.due}
          onChange={(due?: string) => refine({ [TASK_PARAMS.due]: due })}
          options={TASK_DUE_FILTERS.map((d) => ({ value: d, label: TASK_DUE_LABELS[d] }))}
        />
        <SearchBox
          label="Search tasks"
          placeholder="Search tasks by title or Task ID"
          value={state.search ?? ''}
          onSearch={(text) => refine({ [TASK_PARAMS.search]: text }, { replace: true })}
        />
        <Flex gap="small" wrap style={{ marginInlineStart: 'auto' }}>
          <TaskTrackerActions project={project} />
          {project.permissions.write ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              New task
            </Button>
          ) : null}
        </Flex>
      </Flex>
      <Table<Task>
        rowKey="id"
        columns={columns}
        dataSource={list.currentData?.results ?? []}
        loading={list.isFetching}
        onChange={onChange}
        locale={{
          emptyText: list.isError ? <LoadFailedEmpty what="tasks" onRetry={() => void list.refetch()} /> : emptyText,
        }}
        pagination={{
          current: state.page,
          pageSize: TASKS_PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: false,
          showTotal: (total) => `${total} ${total === 1 ? 'task' : 'tasks'}`,
        }}
      />
      <TaskFormModal
        projectId={project.id}
        title="New task"
        okText="Create task"
        open={creating}
        fields={CREATE_FIELDS}
        onClose={() => setCreating(false)}
        onSubmit={(values) => createTask({ projectId: project.id, body: taskCreateBody(values) }).unwrap()}
      />
    </Flex>
  );
}
