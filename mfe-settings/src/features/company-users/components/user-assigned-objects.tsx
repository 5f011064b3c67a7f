import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import { Alert, Card, Modal, Table, Typography } from '@portal/shared/ui/extra';
import type { AssignedObject } from '@portal/shared/core/settings';
import { MODULE_LABELS } from '../../../app/modules';
import { errorMessage } from '@portal/shared/web/api';
import {
  useSettingsUserAssignedObjectsQuery,
  useSettingsUserObjectAccessRemoveMutation,
} from '../api/company-users-api';

/** The projects (and later other objects) a user can reach in the company, with Remove access. */
export function UserAssignedObjects({ companyId, userId }: { companyId: string; userId: string }) {
  const { data, isLoading, isError, refetch } = useSettingsUserAssignedObjectsQuery({ companyId, userId });
  const [removeAccess] = useSettingsUserObjectAccessRemoveMutation();
  const [modal, modalHolder] = Modal.useModal();
  const [failure, setFailure] = useState<string | null>(null);

  const confirmRemove = (o: AssignedObject) =>
    modal.confirm({
      title: `Remove access to ${o.name}?`,
      content: o.role ? `The user loses their role (${o.role}) on it.` : 'The user no longer sees it.',
      okText: 'Remove access',
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          setFailure(null);
          await removeAccess({ userId, objectId: o.objectId, module: o.module }).unwrap();
        } catch (error) {
          setFailure(errorMessage(error) ?? 'The access could not be removed.');
        }
      },
    });

  return (
    <Card title="Assigned objects">
      {modalHolder}
      {failure ? (
        <Alert
          type="error"
          showIcon
          title={failure}
          closable
          onClose={() => setFailure(null)}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      {isError ? (
        <Alert
          type="error"
          showIcon
          title="Assigned objects could not be loaded."
          action={<Button onClick={() => refetch()}>Try again</Button>}
        />
      ) : (
        <Table<AssignedObject>
          rowKey={(o) => `${o.module}/${o.objectId}`}
          size="small"
          loading={isLoading}
          pagination={false}
          dataSource={data?.results ?? []}
          locale={{ emptyText: 'Not assigned to anything in this company.' }}
          columns={[
            { title: 'Name', dataIndex: 'name', key: 'name' },
            { title: 'Module', key: 'module', render: (_v, o) => MODULE_LABELS[o.module] },
            { title: 'Role', key: 'role', render: (_v, o) => o.role ?? '—' },
            {
              title: 'Access',
              key: 'actions',
              render: (_v, o) =>
                o.removable ? (
                  <Button
                    size="small"
                    danger
                    onClick={() => void confirmRemove(o)}
                    aria-label={`Remove access to ${o.name}`}
                  >
                    Remove access
                  </Button>
                ) : (
                  <Typography.Text type="secondary">Lead role: reassign it before removing access</Typography.Text>
                ),
            },
          ]}
        />
      )}
    </Card>
  );
}
