import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import {
  Card,
  DeleteOutlined,
  Descriptions,
  DisconnectOutlined,
  EditOutlined,
  Flex,
  LinkOutlined,
  Modal,
  PlusOutlined,
  Popconfirm,
  Select,
  Space,
  Table,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { Link, useNavigate, useParams } from '@portal/shared/web/router';
import type { ControlDetail, PointOfFocus, Project, Task } from '@portal/shared/core/projects';
import { controlsPath, projectPath, taskPath } from '../../../app/paths';
import { projectsApi } from '../../../app/projects-api';
import { useDebounced } from '../hooks/use-debounced';
import { useRemoval } from '../hooks/use-removal';
import { controlUpdateBody } from '../model/control-body';
import { ControlFormModal } from './control-form-modal';
import { descriptionItem, EditDeleteButtons } from './detail-bits';
import { ProjectGate, QueryFallback } from './page-states';
import { PointOfFocusModal } from './point-of-focus-modal';
import { DueDate, TaskStatusTag } from './task-bits';

/** How many matching tasks the link picker offers at a time. */
const PICKER_SIZE = 20;

/** A Select that searches the project's tasks on the server and links the chosen one to the control. */
function LinkTaskPicker({ projectId, control }: { projectId: string; control: ControlDetail }) {
  const [opened, setOpened] = useState(false);
  const [text, setText] = useState('');
  const [taskId, setTaskId] = useState<string | undefined>();
  const search = useDebounced(text.trim());
  const tasks = projectsApi.useProjectsTasksQuery(
    { projectId, search: search || undefined, pageSize: PICKER_SIZE, sort: 'referenceId' },
    { skip: !opened },
  );
  const [link, { isLoading }] = projectsApi.useProjectsControlLinkTaskMutation();
  const linked = new Set(control.tasks.map((t) => t.id));
  const options = (tasks.data?.results ?? [])
    .filter((t) => !linked.has(t.id))
    .map((t) => ({ value: t.id, label: [t.referenceId, t.title].filter(Boolean).join(' — ') }));

  const submit = async () => {
    if (!taskId) return;
    try {
      await link({ projectId, controlId: control.id, taskId, linked: true }).unwrap();
      setTaskId(undefined);
      setText('');
    } catch {
      // the shell shows the toast; the choice stays for another try
    }
  };

  return (
    <Flex gap="small" wrap style={{ marginBottom: 12 }}>
      <Select
        aria-label="Task to link"
        placeholder="Search the project’s tasks"
        style={{ minWidth: 320, flex: 1 }}
        value={taskId}
        onChange={setTaskId}
        onOpenChange={(open) => open && setOpened(true)}
        showSearch={{ filterOption: false, onSearch: setText, searchValue: text }}
        loading={tasks.isFetching}
        options={options}
        notFoundContent={tasks.isFetching ? 'Searching…' : 'No other task matches.'}
      />
      <Button
        type="primary"
        icon={<LinkOutlined />}
        disabled={!taskId}
        loading={isLoading}
        onClick={() => void submit()}
      >
        Link task
      </Button>
    </Flex>
  );
}

function LinkedTasks({ project, control }: { project: Project; control: ControlDetail }) {
  const [link, { isLoading, originalArgs }] = projectsApi.useProjectsControlLinkTaskMutation();
  const unlinking = isLoading ? originalArgs?.taskId : undefined;
  const canEdit = control.permissions.edit;
  const columns: TableProps<Task>['columns'] = [
    { key: 'referenceId', title: 'Task ID', render: (_v, t) => t.referenceId ?? '—', width: 130 },
    { key: 'title', title: 'Title', render: (_v, t) => <Link to={taskPath(project.id, t.id)}>{t.title}</Link> },
    { key: 'status', title: 'Status', render: (_v, t) => <TaskStatusTag status={t.status} /> },
    { key: 'dueDate', title: 'Due date', render: (_v, t) => <DueDate dueDate={t.dueDate} overdue={t.overdue} /> },
    ...(canEdit
      ? [
          {
            key: 'unlink',
            title: 'Actions',
            render: (_v: unknown, t: Task) => (
              <Popconfirm
                title={`Unlink ${t.title} from ${control.name}?`}
                okText="Unlink"
                okButtonProps={{ danger: true }}
                onConfirm={() =>
                  link({ projectId: project.id, controlId: control.id, taskId: t.id, linked: false })
                    .unwrap()
                    .catch(() => undefined)
                }
              >
                <Button
                  size="small"
                  icon={<DisconnectOutlined />}
                  loading={unlinking === t.id}
                  aria-label={`Unlink ${t.title}`}
                >
                  Unlink
                </Button>
              </Popconfirm>
            ),
          },
        ]
      : []),
  ];
  return (
    <Card title={`Linked tasks (${control.tasksDone}/${control.taskCount} done)`}>
      {canEdit ? <LinkTaskPicker projectId={project.id} control={control} /> : null}
      <Table<Task>
        rowKey="id"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={control.tasks}
        locale={{ emptyText: 'No tasks are linked to this control.' }}
      />
    </Card>
  );
}

function PointsOfFocus({ project, control }: { project: Project; control: ControlDetail }) {
  const [modal, modalHolder] = Modal.useModal();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<PointOfFocus | null>(null);
  const [create] = projectsApi.useProjectsPointOfFocusCreateMutation();
  const [update] = projectsApi.useProjectsPointOfFocusUpdateMutation();
  const [remove] = projectsApi.useProjectsPointOfFocusDeleteMutation();
  const canEdit = control.permissions.edit;

  const confirmDelete = (point: PointOfFocus) =>
    void modal.confirm({
      title: `Delete the point of focus ${point.name}?`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        remove({ projectId: project.id, pointId: point.id })
          .unwrap()
          .catch(() => undefined),
    });

  const columns: TableProps<PointOfFocus>['columns'] = [
    { key: 'name', title: 'Name', dataIndex: 'name' },
    {
      key: 'description',
      title: 'Description',
      render: (_v, p) =>
        p.description ? <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{p.description}</Typography.Text> : '—',
    },
    ...(canEdit
      ? [
          {
            key: 'actions',
            title: 'Actions',
            render: (_v: unknown, p: PointOfFocus) => (
              <Space>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={`Edit ${p.name}`}
                  onClick={() => setEditing(p)}
                />
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`Delete ${p.name}`}
                  onClick={() => confirmDelete(p)}
                />
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card
      title={`Points of focus (${control.pointsOfFocus.length})`}
      extra={
        canEdit ? (
          <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            Add point of focus
          </Button>
        ) : null
      }
    >
      {modalHolder}
      <Table<PointOfFocus>
        rowKey="id"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={control.pointsOfFocus}
        locale={{ emptyText: 'No points of focus yet.' }}
      />
      <PointOfFocusModal
        title="Add point of focus"
        okText="Add"
        open={adding}
        onClose={() => setAdding(false)}
        onSubmit={(body) => create({ projectId: project.id, controlId: control.id, body }).unwrap()}
      />
      <PointOfFocusModal
        title="Edit point of focus"
        okText="Save"
        open={!!editing}
        initialValues={editing ? { name: editing.name, description: editing.description ?? '' } : undefined}
        onClose={() => setEditing(null)}
        onSubmit={(body) => update({ projectId: project.id, pointId: editing!.id, body }).unwrap()}
      />
    </Card>
  );
}

function ControlView({
  project,
  control,
  onDelete,
}: {
  project: Project;
  control: ControlDetail;
  onDelete: () => Promise<unknown>;
}) {
  const [modal, modalHolder] = Modal.useModal();
  const [editing, setEditing] = useState(false);
  const [update] = projectsApi.useProjectsControlUpdateMutation();

  const confirmDelete = () =>
    void modal.confirm({
      title: `Delete the control ${control.name}?`,
      content: 'Its points of focus are deleted and its tasks are unlinked (the tasks stay).',
      okText: 'Delete control',
      okButtonProps: { danger: true },
      onOk: onDelete,
    });

  return (
    <Flex vertical gap="large">
      {modalHolder}
      <PageHeader
        title={`${control.name} — ${control.title}`}
        crumbs={[
          { title: project.title, to: projectPath(project.id) },
          { title: 'Controls', to: controlsPath(project.id) },
          { title: control.name },
        ]}
        extra={
          control.permissions.edit ? (
            <Space>
              <EditDeleteButtons onEdit={() => setEditing(true)} onDelete={confirmDelete} />
            </Space>
          ) : null
        }
      />
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 2 }}
        items={[
          { key: 'name', label: 'Control ID', children: control.name },
          { key: 'title', label: 'Title', children: control.title },
          descriptionItem(control.description),
        ]}
      />
      <LinkedTasks project={project} control={control} />
      <PointsOfFocus project={project} control={control} />
      <ControlFormModal
        title="Edit control"
        okText="Save"
        open={editing}
        initialValues={{ name: control.name, title: control.title, description: control.description ?? '' }}
        onClose={() => setEditing(false)}
        onSubmit={async (values) => {
          const body = controlUpdateBody(values, control);
          if (Object.keys(body).length) await update({ projectId: project.id, controlId: control.id, body }).unwrap();
        }}
      />
    </Flex>
  );
}

function ControlLoader({ project, controlId }: { project: Project; controlId: string }) {
  const navigate = useNavigate();
  const { removing, remove } = useRemoval<ControlDetail>();
  const [deleteControl] = projectsApi.useProjectsControlDeleteMutation();
  const query = projectsApi.useProjectsControlQuery({ projectId: project.id, controlId }, { skip: !!removing });
  const control = removing ?? query.currentData;
  if (control) {
    const onDelete = async () => {
      if (await remove(control, () => deleteControl({ projectId: project.id, controlId: control.id }).unwrap()))
        navigate(controlsPath(project.id));
    };
    return <ControlView project={project} control={control} onDelete={onDelete} />;
  }
  return (
    <QueryFallback
      query={query}
      what="control"
      notFound={{
        title: 'Control not found',
        subTitle: 'The control does not exist in this project or was deleted.',
        to: controlsPath(project.id),
        linkText: `Back to the controls of ${project.title}`,
      }}
    />
  );
}

/** /v2/projects/:projectId/controls/:controlId */
export function ControlPage() {
  const { projectId = '', controlId = '' } = useParams();
  return (
    <div data-testid="control-page">
      <ProjectGate projectId={projectId}>
        {(project) => <ControlLoader project={project} controlId={controlId} />}
      </ProjectGate>
    </div>
  );
}
