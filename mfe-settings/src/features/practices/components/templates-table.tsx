import { useState, type ReactNode } from 'react';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  DeleteOutlined,
  DownloadOutlined,
  Modal,
  Space,
  Table,
  Tooltip,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import type { TaskTrackerFormat, TaskTrackerStatus, TaskTrackerSummary } from '@portal/shared/core/practices';
import { errorMessage } from '@portal/shared/web/api';
import { downloadFromApi } from '@portal/shared/web/download';
import {
  templateExportPath,
  useSettingsTemplateDeleteMutation,
  useSettingsTemplatesListQuery,
  useSettingsTemplateUpdateMutation,
} from '../api/practices-api';
import { TemplateStatusTag } from './status-tags';
import { TemplateDrawer } from './template-drawer';

/** A file name for an export: the template's name without characters file systems refuse. */
function exportName(t: TaskTrackerSummary, format: TaskTrackerFormat): string {
  const base =
    [...t.name]
      .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
      .join('')
      .replace(/\s+/g, ' ')
      .trim() || 'template';
  return `${base}.${format}`;
}

/**
 * A practice's templates: status, sizes, and per row the actions its status allows (editors only,
 * except View and the exports). Publish/Unpublish/Retire are PATCHes of the status; Unpublish, Retire
 * and Delete ask first. Exports are fetched, so a refusal is toasted rather than lost.
 */
export function TemplatesTable({
  practiceId,
  canEdit,
  onReplace,
}: {
  practiceId: string;
  canEdit: boolean;
  onReplace: (t: TaskTrackerSummary) => void;
}) {
  const list = useSettingsTemplatesListQuery(practiceId);
  const [update] = useSettingsTemplateUpdateMutation();
  const [remove] = useSettingsTemplateDeleteMutation();
  const [modal, modalHolder] = Modal.useModal();
  const [viewing, setViewing] = useState<TaskTrackerSummary | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const setStatus = async (t: TaskTrackerSummary, status: TaskTrackerStatus) => {
    setBusy(t.id);
    try {
      await update({ practiceId, id: t.id, body: { status } }).unwrap();
    } catch {
      // the shell's toast says why (an empty template cannot be published...); the row keeps the server's status
    } finally {
      setBusy(null);
    }
  };

  /** Unpublishing and retiring take a template out of the projects' choice: asked first, like Delete. */
  const confirmStatus = (t: TaskTrackerSummary, status: 'draft' | 'retired') =>
    void modal.confirm({
      title: status === 'retired' ? `Retire ${t.name}?` : `Unpublish ${t.name}?`,
      content:
        status === 'retired'
          ? 'A retired template can no longer be applied to projects, published or replaced. Projects it was applied to keep their tasks.'
          : 'The template goes back to draft: it can no longer be applied to projects until it is published again. Projects it was applied to keep their tasks.',
      okText: status === 'retired' ? 'Retire' : 'Unpublish',
      okButtonProps: { danger: status === 'retired' },
      onOk: () => setStatus(t, status),
    });

  const exportAs = async (t: TaskTrackerSummary, format: TaskTrackerFormat) => {
    setBusy(t.id);
    try {
      // a refusal (the template was deleted meanwhile...) is toasted by the helper
      await downloadFromApi(templateExportPath(t.id, format), exportName(t, format));
    } finally {
      setBusy(null);
    }
  };

  const confirmDelete = (t: TaskTrackerSummary) =>
    void modal.confirm({
      title: `Delete ${t.name}?`,
      content:
        'The template, its tasks, controls and points of focus are deleted. Projects it was applied to keep their tasks.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        remove({ practiceId, id: t.id })
          .unwrap()
          .catch(() => undefined),
    });

  const action = (
    label: string,
    t: TaskTrackerSummary,
    onClick: () => void,
    extra: { danger?: boolean; disabled?: boolean; why?: string; icon?: ReactNode } = {},
  ) => {
    const control = (
      <Button
        size="small"
        danger={extra.danger}
        disabled={extra.disabled || busy === t.id}
        icon={extra.icon}
        aria-label={`${label} ${t.name}`}
        onClick={onClick}
      >
        {label}
      </Button>
    );
    return extra.why ? (
      <Tooltip key={label} title={extra.why}>
        <span>{control}</span>
      </Tooltip>
    ) : (
      <span key={label}>{control}</span>
    );
  };

  const actions = (t: TaskTrackerSummary) => {
    const out = [action('View', t, () => setViewing(t))];
    if (canEdit) {
      if (t.status !== 'published') {
        const empty = t.taskCount === 0;
        out.push(
          action('Publish', t, () => void setStatus(t, 'published'), {
            disabled: empty,
            why: empty ? 'An empty template cannot be published: replace it from a file first.' : undefined,
          }),
        );
      }
      if (t.status === 'published') out.push(action('Unpublish', t, () => confirmStatus(t, 'draft')));
      if (t.status !== 'retired') out.push(action('Retire', t, () => confirmStatus(t, 'retired'), { danger: true }));
      if (t.status === 'draft') out.push(action('Replace from file', t, () => onReplace(t)));
    }
    out.push(action('Export CSV', t, () => void exportAs(t, 'csv'), { icon: <DownloadOutlined /> }));
    out.push(action('Export XLSX', t, () => void exportAs(t, 'xlsx'), { icon: <DownloadOutlined /> }));
    if (canEdit) out.push(action('Delete', t, () => confirmDelete(t), { danger: true, icon: <DeleteOutlined /> }));
    return (
      <Space size={4} wrap>
        {out}
      </Space>
    );
  };

  const columns: TableProps<TaskTrackerSummary>['columns'] = [
    {
      title: 'Name',
      key: 'name',
      render: (_v, t) => (
        <div>
          <div>{t.name}</div>
          {t.description ? (
            <Typography.Text type="secondary" ellipsis={{ tooltip: t.description }} style={{ maxWidth: 280 }}>
              {t.description}
            </Typography.Text>
          ) : null}
        </div>
      ),
    },
    { title: 'Status', key: 'status', render: (_v, t) => <TemplateStatusTag status={t.status} /> },
    { title: 'Tasks', key: 'tasks', dataIndex: 'taskCount' },
    { title: 'Controls', key: 'controls', dataIndex: 'controlCount' },
    { title: 'Updated', key: 'updatedAt', render: (_v, t) => formatDateTime(t.updatedAt) },
    { title: 'Actions', key: 'actions', render: (_v, t) => actions(t) },
  ];

  return (
    <>
      {modalHolder}
      {list.isError ? (
        <Alert
          type="error"
          showIcon
          title="The templates could not be loaded."
          description={errorMessage(list.error) ?? undefined}
          action={<Button onClick={() => list.refetch()}>Try again</Button>}
        />
      ) : (
        <Table<TaskTrackerSummary>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data ?? []}
          loading={list.isFetching}
          locale={{
            emptyText: list.isLoading
              ? 'Loading templates…'
              : canEdit
                ? 'No templates yet: import one from a task tracker file.'
                : 'No templates yet.',
          }}
          pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
          scroll={{ x: 'max-content' }}
        />
      )}
      <TemplateDrawer tracker={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
