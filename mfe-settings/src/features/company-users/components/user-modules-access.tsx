import { Alert, Card, Radio, Table, Tag, Typography } from '@portal/shared/ui/extra';
import { Button } from '@portal/shared/ui';
import { MODULES, type ModuleName } from '@portal/shared/core/modules';
import { useSettingsUserModulesGetQuery, useSettingsUserModulesUpdateMutation } from '../api/company-users-api';
import { MODULE_LABELS } from '../model/labels';

type Choice = 'inherit' | 'on' | 'off';
const toChoice = (v: boolean | null): Choice => (v === null ? 'inherit' : v ? 'on' : 'off');
const fromChoice = (c: Choice): boolean | null => (c === 'inherit' ? null : c === 'on');

/**
 * A user's own module access in the company: for each module Inherit (teams, then the company), On or
 * Off, beside the effective value. The company's value is the ceiling: off there means off for everyone.
 */
export function UserModulesAccessCard({ companyId, userId, canEdit }: { companyId: string; userId: string; canEdit: boolean }) {
  const { data, isLoading, isError, refetch } = useSettingsUserModulesGetQuery({ companyId, userId });
  const [patch, { isLoading: saving }] = useSettingsUserModulesUpdateMutation();

  const rows = MODULES.map((m) => ({ module: m }));
  return (
    <Card title="Module access">
      {!canEdit ? (
        <Typography.Paragraph type="secondary">Changing a user&apos;s module access needs the permission to edit module access.</Typography.Paragraph>
      ) : null}
      {isError ? (
        <Alert type="error" showIcon title="Module access could not be loaded." action={<Button onClick={() => refetch()}>Try again</Button>} />
      ) : (
        <Table<{ module: ModuleName }>
          rowKey="module"
          size="small"
          pagination={false}
          loading={isLoading || saving}
          dataSource={data ? rows : []}
          columns={[
            { title: 'Module', key: 'module', render: (_v, { module }) => MODULE_LABELS[module] },
            {
              title: 'Access',
              key: 'choice',
              render: (_v, { module }) => (
                <Radio.Group
                  name={`user-${userId}-${module}`}
                  aria-label={`${MODULE_LABELS[module]} access`}
                  optionType="button"
                  size="small"
                  disabled={!canEdit || saving}
                  value={data ? toChoice(data.modulesAccess[module]) : undefined}
                  onChange={(e) => void patch({ companyId, userId, changes: { [module]: fromChoice(e.target.value as Choice) } })}
                  options={[
                    { value: 'inherit', label: 'Inherit' },
                    { value: 'on', label: 'On' },
                    { value: 'off', label: 'Off' },
                  ]}
                />
              ),
            },
            {
              title: 'Effective',
              key: 'effective',
              render: (_v, { module }) =>
                data ? (
                  <span>
                    <Tag color={data.effective[module] ? 'green' : 'default'}>{data.effective[module] ? 'On' : 'Off'}</Tag>
                    {!data.company[module] ? <Typography.Text type="secondary">Off for the company</Typography.Text> : null}
                  </span>
                ) : null,
            },
          ]}
        />
      )}
    </Card>
  );
}
