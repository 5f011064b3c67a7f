import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import { Alert, Flex, Modal, PlusOutlined, Space, Table, Tag, Typography } from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import type { PortalMessage } from '@portal/shared/core/schemas';
import { errorMessage } from '@portal/shared/web/api';
import { useSettingsMessagesDeleteMutation, useSettingsMessagesListQuery } from '../api/system-api';
import { MessageEditor } from './message-editor';

const KEY_LABELS: Record<PortalMessage['key'], string> = { banner: 'Banner', help: 'Help', bell: 'Bell' };

/** The text of a message for the list, without its markup (React escapes it: nothing of it runs). */
function excerpt(html: string): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** Portal messages (maintenance banner, help, bell): all of them, drafts included, with their editor. */
export function PortalMessages() {
  const { data, isLoading, isError, refetch } = useSettingsMessagesListQuery();
  const [remove] = useSettingsMessagesDeleteMutation();
  const [editing, setEditing] = useState<PortalMessage | 'new' | null>(null);
  const [modal, modalHolder] = Modal.useModal();
  const [failure, setFailure] = useState<string | null>(null);

  const confirmDelete = (m: PortalMessage) =>
    modal.confirm({
      title: `Delete this ${KEY_LABELS[m.key].toLowerCase()} message?`,
      content: 'It disappears for everyone, with its attached files.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: async () => {
        setFailure(null);
        try {
          await remove(m.id).unwrap();
        } catch (error) {
          setFailure(errorMessage(error) ?? 'The message could not be deleted.');
        }
      },
    });

  return (
    <div>
      {modalHolder}
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">
          Active messages show to every signed-in user; inactive ones are drafts only administrators see.
        </Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          New message
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
          title="The portal messages could not be loaded."
          action={<Button onClick={() => refetch()}>Try again</Button>}
        />
      ) : (
        <Table<PortalMessage>
          rowKey="id"
          size="middle"
          loading={isLoading}
          dataSource={data ?? []}
          pagination={false}
          locale={{ emptyText: 'No portal messages yet.' }}
          columns={[
            { title: 'Key', key: 'key', render: (_v, m) => <Tag>{KEY_LABELS[m.key]}</Tag> },
            {
              title: 'Status',
              key: 'status',
              render: (_v, m) => (
                <Tag color={m.status === 'active' ? 'green' : undefined}>
                  {m.status === 'active' ? 'Active' : 'Inactive'}
                </Tag>
              ),
            },
            {
              title: 'Message',
              key: 'value',
              render: (_v, m) => excerpt(m.value) || <Typography.Text type="secondary">Empty</Typography.Text>,
            },
            { title: 'Updated', key: 'updatedAt', render: (_v, m) => formatDateTime(m.updatedAt) },
            {
              title: 'Actions',
              key: 'actions',
              render: (_v, m) => (
                <Space>
                  <Button
                    size="small"
                    aria-label={`Edit ${KEY_LABELS[m.key]} message ${m.id}`}
                    onClick={() => setEditing(m)}
                  >
                    Edit
                  </Button>
                  <Button
                    size="small"
                    danger
                    aria-label={`Delete ${KEY_LABELS[m.key]} message ${m.id}`}
                    onClick={() => void confirmDelete(m)}
                  >
                    Delete
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      )}
      {editing ? <MessageEditor message={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}
