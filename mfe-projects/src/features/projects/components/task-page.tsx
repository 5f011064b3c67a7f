import { useState } from 'react';
import { DownOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Dropdown } from '@portal/shared/ui/menus';
import {
  Card,
  Descriptions,
  Flex,
  Modal,
  PlusOutlined,
  Space,
  Table,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { Link, useLocation, useNavigate, useParams } from '@portal/shared/web/router';
import { formatDateTime } from '@portal/shared/core/dates';
import {
  CLOSED_TASK_STATUSES,
  TASK_STATUS_LABELS,
  TASK_TRANSITIONS,
  type Project,
  type Task,
  type TaskDetail,
  type TaskStatus,
} from '@portal/shared/core/projects';
import { controlPath, fromProjectOf, projectPath, taskPath, type FromProject } from '../../../app/paths';
import { projectsApi } from '../../../app/projects-api';
import { TaskFiles } from '../../files/components/task-files';
import { useRemoval } from '../hooks/use-removal';
import { personName } from '../model/labels';
import { taskCreateBody, taskFormValues, taskUpdateBody } from '../model/task-body';
import { descriptionItem, EditDeleteButtons } from './detail-bits';
import { ProjectGate, QueryFallback } from './page-states';
import { TaskComments } from './task-comments';
import { Assignees, DueDate, TaskStatusTag } from './task-bits';
import { TaskFormModal } from './task-form-modal';

const EDIT_FIELDS = ['title', 'referenceId', 'description', 'dueDate', 'assigneeIds'] as const;
const SUBTASK_FIELDS = ['title', 'referenceId', 'dueDate', 'assigneeIds'] as const;

/** Offers only the moves TASK_TRANSITIONS allows from the current status. */
function StatusMenu({ projectId, task }: { projectId: string; task: TaskDetail }) {
  const [setStatus, { isLoading }] = projectsApi.useProjectsTaskSetStatusMutation();
  const moves = TASK_TRANSITIONS[task.status];
  return (
    <Dropdown
      trigger={['click']}
      disabled={isLoading || !moves.length}
      menu={{
        items: moves.map((s) => ({ key: s, label: `Move to ${TASK_STATUS_LABELS[s]}` })),
        // A refused move is the shell's toast; the page keeps showing the server's status.
        onClick: ({ key }) =>
          void setStatus({ projectId, taskId: task.id, status: key as TaskStatus })
            .unwrap()
            .catch(() => undefined),
      }}
    >
      <Button loading={isLoading}>
        Change status <DownOutlined />
      </Button>
    </Dropdown>
  );
}

function Subtasks({ project, task, from }: { project: Project; task: TaskDetail; from?: FromProject }) {
  const [adding, setAdding] = useState(false);
  const [createTask] = projectsApi.useProjectsTaskCreateMutation();
  const done = task.subtasks.filter((s) => CLOSED_TASK_STATUSES.includes(s.status)).length;
  const columns: TableProps<Task>['columns'] = [
    { key: 'referenceId', title: 'Task ID', render: (_v, s) => s.referenceId ?? '—', width: 130 },
    {
      key: 'title',
      title: 'Title',
      render: (_v, s) => (
        <Link to={taskPath(project.id, s.id)} state={from}>
          {s.title}
        </Link>
      ),
    },
    { key: 'status', title: 'Status', render: (_v, s) => <TaskStatusTag status={s.status} /> },
    { key: 'assignees', title: 'Assignees', render: (_v, s) => <Assignees users={s.assignees} /> },
    { key: 'dueDate', title: 'Due date', render: (_v, s) => <DueDate dueDate={s.dueDate} overdue={s.overdue} /> },
  ];
  return (
    <Card
      title={`Subtasks (${done}/${task.subtasks.length} done)`}
      extra={
        task.permissions.edit ? (
          <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            Add subtask
          </Button>
        ) : null
      }
    >
      <Table<Task>
        rowKey="id"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={task.subtasks}
        locale={{ emptyText: 'No subtasks.' }}
      />
      <TaskFormModal
        projectId={project.id}
        title="Add subtask"
        okText="Add subtask"
        open={adding}
        fields={SUBTASK_FIELDS}
        onClose={() => setAdding(false)}
        onSubmit={(values) => createTask({ projectId: project.id, body: taskCreateBody(values, task.id) }).unwrap()}
      />
    </Card>
  );
}

function TaskView({
  project,
  task,
  from,
  onDelete,
}: {
  project: Project;
  task: TaskDetail;
  from?: FromProject;
  onDelete: () => Promise<unknown>;
}) {
  const [modal, modalHolder] = Modal.useModal();
  const [editing, setEditing] = useState(false);
  const [updateTask] = projectsApi.useProjectsTaskUpdateMutation();
  const ids = { projectId: project.id, taskId: task.id };

  const confirmDelete = () =>
    void modal.confirm({
      title: `Delete the task ${task.title}?`,
      content: task.subtasks.length
        ? `Its ${task.subtasks.length} subtasks, its comments and its control links are deleted with it.`
        : 'Its comments and control links are deleted with it.',
      okText: 'Delete task',
      okButtonProps: { danger: true },
      onOk: onDelete,
    });

  const crumbs = [
    { title: project.title, to: projectPath(project.id) + (from?.projectSearch ?? '') },
    ...(task.parent ? [{ title: task.parent.title, to: taskPath(project.id, task.parent.id) }] : []),
    { title: task.title },
  ];

  return (
    <Flex vertical gap="large">
      {modalHolder}
      <PageHeader
        title={task.title}
        crumbs={crumbs}
        extra={
          <Space wrap>
            {task.permissions.changeStatus ? <StatusMenu projectId={project.id} task={task} /> : null}
            {task.permissions.edit ? (
              <EditDeleteButtons onEdit={() => setEditing(true)} onDelete={confirmDelete} />
            ) : null}
          </Space>
        }
      />
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 2 }}
        items={[
          { key: 'referenceId', label: 'Task ID', children: task.referenceId ?? '—' },
          { key: 'status', label: 'Status', children: <TaskStatusTag status={task.status} /> },
          { key: 'dueDate', label: 'Due date', children: <DueDate dueDate={task.dueDate} overdue={task.overdue} /> },
          { key: 'assignees', label: 'Assignees', children: <Assignees users={task.assignees} /> },
          {
            key: 'createdBy',
            label: 'Created by',
            children: `${task.createdBy ? personName(task.createdBy) : 'Former user'}, ${formatDateTime(task.createdAt)}`,
          },
          ...(task.completedAt
            ? [{ key: 'completedAt', label: 'Completed', children: formatDateTime(task.completedAt) }]
            : []),
          ...(task.parent
            ? [
                {
                  key: 'parent',
                  label: 'Subtask of',
                  children: (
                    <Link to={taskPath(project.id, task.parent.id)}>
                      {[task.parent.referenceId, task.parent.title].filter(Boolean).join(' ')}
                    </Link>
                  ),
                },
              ]
            : []),
          descriptionItem(task.description),
        ]}
      />
      {task.parentId ? null : <Subtasks project={project} task={task} from={from} />}
      <Card title="Linked controls">
        {task.controls.length ? (
          <Flex gap="small" wrap>
            {task.controls.map((c) => (
              <Link key={c.id} to={controlPath(project.id, c.id)}>
                {`${c.name} — ${c.title}`}
              </Link>
            ))}
          </Flex>
        ) : (
          <Typography.Text type="secondary">
            Not linked to any control. Link tasks from a control’s page.
          </Typography.Text>
        )}
      </Card>
      <TaskFiles project={project} taskId={task.id} />
      <TaskComments projectId={project.id} task={task} />
      <TaskFormModal
        projectId={project.id}
        title="Edit task"
        okText="Save"
        open={editing}
        fields={EDIT_FIELDS}
        initialValues={taskFormValues(task)}
        currentAssignees={task.assignees}
        onClose={() => setEditing(false)}
        onSubmit={async (values) => {
          const body = taskUpdateBody(values, task);
          if (Object.keys(body).length) await updateTask({ ...ids, body }).unwrap();
        }}
      />
    </Flex>
  );
}

function TaskLoader({ project, taskId }: { project: Project; taskId: string }) {
  const navigate = useNavigate();
  const from = fromProjectOf(useLocation().state);
  const { removing, remove } = useRemoval<TaskDetail>();
  const [deleteTask] = projectsApi.useProjectsTaskDeleteMutation();
  const query = projectsApi.useProjectsTaskQuery({ projectId: project.id, taskId }, { skip: !!removing });
  const task = removing ?? query.currentData;
  if (task) {
    // A deleted subtask leaves for its parent task; a deleted task for the project's list as it was left.
    const onDelete = async () => {
      if (!(await remove(task, () => deleteTask({ projectId: project.id, taskId: task.id }).unwrap()))) return;
      if (task.parentId) navigate(taskPath(project.id, task.parentId), { state: from });
      else navigate(projectPath(project.id) + (from?.projectSearch ?? ''));
    };
    return <TaskView project={project} task={task} from={from} onDelete={onDelete} />;
  }
  return (
    <QueryFallback
      query={query}
      what="task"
      notFound={{
        title: 'Task not found',
        subTitle: 'The task does not exist in this project or was deleted.',
        to: projectPath(project.id),
        linkText: `Back to ${project.title}`,
      }}
    />
  );
}

/** /v2/projects/:projectId/tasks/:taskId */
export function TaskPage() {
  const { projectId = '', taskId = '' } = useParams();
  return (
    <div data-testid="task-page">
      {/* One loader per task: after a subtask is deleted its parent's page starts afresh. */}
      <ProjectGate projectId={projectId}>
        {(project) => <TaskLoader key={taskId} project={project} taskId={taskId} />}
      </ProjectGate>
    </div>
  );
}
