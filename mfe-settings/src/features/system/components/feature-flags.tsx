import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import { Alert, Flex, Modal, PlusOutlined, Space, Table, Tag, Typography } from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import type { FeatureFlagDefinition, FlagValue } from '@portal/shared/core/feature-flags';
import { errorMessage } from '@portal/shared/web/api';
import { useSettingsFlagsDeleteMutation, useSettingsFlagsListQuery } from '../api/system-api';
import { FlagEditor } from './flag-editor';

function ValueView({ value }: { value: FlagValue }) {
  if (typeof value === 'boolean') return <Tag color={value ? 'green' : undefined}>{value ? 'true' : 'false'}</Tag>;
  const json = JSON.stringify(value);
  return <Typography.Text code>{json.length > 60 ? `${json.slice(0, 60)}…` : json}</Typography.Text>;
}

/** Feature flag definitions: default value, enabled, description; create and delete. Rules are kept as they are. */
export function FeatureFlags() {
  const { data, isLoading, isError, refetch } = useSettingsFlagsListQuery();
  const [remove] = useSettingsFlagsDeleteMutation();
  const [editing, setEditing] = useState<FeatureFlagDefinition | 'new' | null>(null);
  const [modal, modalHolder] = Modal.useModal();
  const [failure, setFailure] = useState<string | null>(null);

  const confirmDelete = (flag: FeatureFlagDefinition) =>
    modal.confirm({
      title: `Delete the flag ${flag.key}?`,
      content: 'Everyone gets the default the code was written with, at once.',
      okText: 'Delete flag',
      okButtonProps: { danger: true },
      onOk: async () => {
        setFailure(null);
        try {
          await remove(flag.key).unwrap();
        } catch (error) {
          setFailure(errorMessage(error) ?? 'The flag could not be deleted.');
        }
      },
    });

  return (
    <div>
      {modalHolder}
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">Changes reach signed-in users within seconds.</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          New flag
        </Button>
      </Flex>
      {failure ? (
        <Alert
          type="error"
          showIcon
          title={failure}
          closable
          onClose={() => setFailure(null)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {isError ? (
        <Alert
          type="error"
          showIcon
          title="The feature flags could not be loaded."
          action={<Button onClick={() => refetch()}>Try again</Button>}
        />
      ) : (
        <Table<FeatureFlagDefinition>
          rowKey="key"
          size="middle"
          loading={isLoading}
          dataSource={data ?? []}
          pagination={false}
          locale={{ emptyText: 'No feature flags yet.' }}
          columns={[
            { title: 'Key', key: 'key', render: (_v, f) => <Typography.Text code>{f.key}</Typography.Text> },
            { title: 'Description', dataIndex: 'description', key: 'description' },
            { title: 'Default', key: 'defaultValue', render: (_v, f) => <ValueView value={f.defaultValue} /> },
            {
              title: 'Enabled',
              key: 'enabled',
              render: (_v, f) => <Tag color={f.enabled ? 'green' : 'red'}>{f.enabled ? 'Enabled' : 'Disabled'}</Tag>,
            },
            { title: 'Rules', key: 'rules', render: (_v, f) => f.rules.length },
            { title: 'Updated', key: 'updatedAt', render: (_v, f) => formatDateTime(f.updatedAt) },
            {
              title: 'Actions',
              key: 'actions',
              render: (_v, f) => (
                <Space>
                  <Button size="small" aria-label={`Edit ${f.key}`} onClick={() => setEditing(f)}>
                    Edit
                  </Button>
                  <Button size="small" danger aria-label={`Delete ${f.key}`} onClick={() => void confirmDelete(f)}>
                    Delete
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      )}
      {editing ? (
        <FlagEditor
          flag={editing === 'new' ? null : editing}
          existingKeys={(data ?? []).map((f) => f.key)}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}
