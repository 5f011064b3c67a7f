import { Alert, Card, Table, Tag, Typography } from '@portal/shared/ui/extra';
import { Button } from '@portal/shared/ui/button';
import { MODULES, type ModuleName } from '@portal/shared/core/modules';
import { moduleAccessColumns } from '../../../app/modules';
import { useSettingsUserModulesGetQuery, useSettingsUserModulesUpdateMutation } from '../api/company-users-api';

/**
 * A user's own module access in the company: for each module Inherit (teams, then the company), On or
 * Off, beside the effective value. The company's value is the ceiling: off there means off for everyone.
 */
export function UserModulesAccessCard({
  companyId,
  userId,
  canEdit,
}: {
  companyId: string;
  userId: string;
  canEdit: boolean;
}) {
  const { data, isLoading, isError, refetch } = useSettingsUserModulesGetQuery({ companyId, userId });
  const [patch, { isLoading: saving }] = useSettingsUserModulesUpdateMutation();

  const rows = MODULES.map((m) => ({ module: m }));
  return (
    <Card title="Module access">
      {!canEdit ? (
        <Typography.Paragraph type="secondary">
          Changing a user&apos;s module access needs the permission to edit module access.
        </Typography.Paragraph>
      ) : null}
      {isError ? (
        <Alert
          type="error"
          showIcon
          title="Module access could not be loaded."
          action={<Button onClick={() => refetch()}>Try again</Button>}
        />
      ) : (
        <Table<{ module: ModuleName }>
          rowKey="module"
          size="small"
          pagination={false}
          loading={isLoading || saving}
          dataSource={data ? rows : []}
          columns={[
            ...moduleAccessColumns({
              name: `user-${userId}`,
              disabled: !canEdit || saving,
              value: (module) => data?.modulesAccess[module],
              onChange: (module, access) => void patch({ companyId, userId, changes: { [module]: access } }),
            }),
            {
              title: 'Effective',
              key: 'effective',
              render: (_v, { module }) =>
                data ? (
                  <span>
                    <Tag color={data.effective[module] ? 'green' : 'default'}>
                      {data.effective[module] ? 'On' : 'Off'}
                    </Tag>
                    {!data.company[module] ? (
                      <Typography.Text type="secondary">Off for the company</Typography.Text>
                    ) : null}
                  </span>
                ) : null,
            },
          ]}
        />
      )}
    </Card>
  );
}
