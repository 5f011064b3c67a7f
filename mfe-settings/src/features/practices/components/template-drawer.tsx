import { Spin } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  Descriptions,
  Drawer,
  Empty,
  Space,
  Table,
  Tag,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import type { TaskTrackerSummary, TrackerControl, TrackerTask } from '@portal/shared/core/practices';
import { errorMessage } from '@portal/shared/web/api';
import { useSettingsTemplateGetQuery } from '../api/practices-api';
import { TemplateStatusTag } from './status-tags';

interface TaskRow {
  key: string;
  referenceId: string | null;
  title: string;
  description: string | null;
  controls: string[];
  children?: TaskRow[];
}

const toRow = (t: Omit<TrackerTask, 'subtasks'> & { subtasks?: TrackerTask['subtasks'] }): TaskRow => ({
  key: t.id,
  referenceId: t.referenceId,
  title: t.title,
  description: t.description,
  controls: t.controls,
  children: t.subtasks?.length ? t.subtasks.map(toRow) : undefined,
});

const TASK_COLUMNS: TableProps<TaskRow>['columns'] = [
  {
    title: 'Task ID',
    key: 'referenceId',
    width: 140,
    render: (_v, r) => r.referenceId ?? <Typography.Text type="secondary">—</Typography.Text>,
  },
  {
    title: 'Title',
    key: 'title',
    render: (_v, r) => (
      <div>
        <div>{r.title}</div>
        {r.description ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.description}
          </Typography.Text>
        ) : null}
      </div>
    ),
  },
  {
    title: 'Control',
    key: 'controls',
    width: 160,
    render: (_v, r) =>
      r.controls.length ? (
        <Space size={4} wrap>
          {r.controls.map((c) => (
            <Tag key={c}>{c}</Tag>
          ))}
        </Space>
      ) : (
        <Typography.Text type="secondary">—</Typography.Text>
      ),
  },
];

function ControlItem({ control }: { control: TrackerControl }) {
  return (
    <li style={{ padding: '8px 12px', borderTop: '1px solid #f0f0f0' }}>
      <div>
        <Typography.Text strong>{control.name}</Typography.Text> {control.title}
        {control.description ? (
          <div>
            <Typography.Text type="secondary">{control.description}</Typography.Text>
          </div>
        ) : null}
        {control.pointsOfFocus.length ? (
          <ul aria-label={`Points of focus of ${control.name}`} style={{ margin: '4px 0 0', paddingLeft: 18 }}>
            {control.pointsOfFocus.map((p) => (
              <li key={p.id}>
                {p.name}
                {p.description ? <Typography.Text type="secondary"> — {p.description}</Typography.Text> : null}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

/** "View": a template's tasks with their subtasks and controls, and the controls with their points of focus. */
export function TemplateDrawer({ tracker, onClose }: { tracker: TaskTrackerSummary | null; onClose: () => void }) {
  const detail = useSettingsTemplateGetQuery(tracker?.id ?? '', { skip: !tracker });
  const data = detail.data && detail.data.id === tracker?.id ? detail.data : null;
  return (
    <Drawer open={!!tracker} title={tracker?.name ?? ''} size="large" onClose={onClose} destroyOnHidden>
      {detail.isError ? (
        <Alert
          type="error"
          showIcon
          title="The template could not be loaded."
          description={errorMessage(detail.error) ?? undefined}
          action={<Button onClick={() => detail.refetch()}>Try again</Button>}
        />
      ) : !data ? (
        <div style={{ padding: 48, textAlign: 'center' }}>
          <Spin aria-label="Loading template" />
        </div>
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          {data.description ? (
            <Typography.Paragraph style={{ margin: 0 }}>{data.description}</Typography.Paragraph>
          ) : null}
          <Descriptions size="small" column={{ xs: 1, sm: 2, md: 4 }}>
            <Descriptions.Item label="Status">
              <TemplateStatusTag status={data.status} />
            </Descriptions.Item>
            <Descriptions.Item label="Tasks">{data.taskCount}</Descriptions.Item>
            <Descriptions.Item label="Controls">{data.controlCount}</Descriptions.Item>
            <Descriptions.Item label="Points of focus">{data.pointOfFocusCount}</Descriptions.Item>
          </Descriptions>
          <section aria-label="Tasks">
            <Typography.Title level={5}>Tasks</Typography.Title>
            {data.tasks.length ? (
              <Table<TaskRow>
                size="small"
                rowKey="key"
                columns={TASK_COLUMNS}
                dataSource={data.tasks.map(toRow)}
                pagination={data.tasks.length > 100 ? { pageSize: 100, showSizeChanger: false } : false}
                expandable={{ defaultExpandAllRows: true }}
              />
            ) : (
              <Empty description="This template has no tasks yet: replace it from a file." />
            )}
          </section>
          <section aria-label="Controls">
            <Typography.Title level={5}>Controls</Typography.Title>
            {data.controls.length ? (
              <ul
                aria-label="Controls of the template"
                style={{ listStyle: 'none', margin: 0, padding: 0, border: '1px solid #f0f0f0', borderRadius: 8 }}
              >
                {data.controls.map((c) => (
                  <ControlItem key={c.id} control={c} />
                ))}
              </ul>
            ) : (
              <Typography.Text type="secondary">No controls.</Typography.Text>
            )}
          </section>
        </Space>
      )}
    </Drawer>
  );
}
