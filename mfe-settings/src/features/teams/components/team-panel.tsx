import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  Card,
  DeleteOutlined,
  EditOutlined,
  Flex,
  Modal,
  Select,
  Space,
  Table,
  Typography,
} from '@portal/shared/ui/extra';
import type { Company } from '@portal/shared/core/schemas';
import type { AssignedObject, Team } from '@portal/shared/core/settings';
import { MODULES, type ModuleAccess, type ModuleName } from '@portal/shared/core/modules';
import { MODULE_LABELS, moduleAccessColumns } from '../../../app/modules';
import { errorMessage } from '@portal/shared/web/api';
import { fullName } from '../../../app/users';
import {
  useSettingsTeamsAddMemberMutation,
  useSettingsTeamsAddMembersMutation,
  useSettingsTeamsAssignedObjectsQuery,
  useSettingsTeamsCandidatesQuery,
  useSettingsTeamsDeleteMutation,
  useSettingsTeamsModulesUpdateMutation,
  useSettingsTeamsRemoveMemberMutation,
  useSettingsTeamsRenameMutation,
} from '../api/teams-api';
import { TeamNameModal } from './team-name-modal';

type Member = Team['users'][number];

/** One team: rename, delete, members, module access (Inherit/On/Off per module) and assigned objects. */
export function TeamPanel({
  company,
  team,
  canEditModules,
  onDeleted,
}: {
  company: Company;
  team: Team;
  canEditModules: boolean;
  onDeleted: () => void;
}) {
  const ids = { companyId: company.id, teamId: team.id };
  const [modal, modalHolder] = Modal.useModal();
  const [renaming, setRenaming] = useState(false);
  const [adding, setAdding] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [rename] = useSettingsTeamsRenameMutation();
  const [remove] = useSettingsTeamsDeleteMutation();
  const [addMember, { isLoading: addingOne }] = useSettingsTeamsAddMemberMutation();
  const [addMembers, { isLoading: addingMany }] = useSettingsTeamsAddMembersMutation();
  const [removeMember] = useSettingsTeamsRemoveMemberMutation();
  const [putModules, { isLoading: savingModules }] = useSettingsTeamsModulesUpdateMutation();
  const candidates = useSettingsTeamsCandidatesQuery(company.id);
  const objects = useSettingsTeamsAssignedObjectsQuery(ids);

  const attempt = async (action: () => Promise<unknown>) => {
    setFailure(null);
    try {
      await action();
      return true;
    } catch (error) {
      setFailure(errorMessage(error) ?? 'The change could not be made.');
      return false;
    }
  };

  const inTeam = new Set(team.users.map((u) => u.id));
  // Members whose access to the company is revoked cannot join its teams.
  const options = (candidates.data ?? [])
    .filter((u) => !inTeam.has(u.id) && !u.accessRevoked)
    .map((u) => ({ value: u.id, label: `${fullName(u)} (${u.email})` }));

  const add = async () => {
    const ok = await attempt(() =>
      adding.length === 1
        ? addMember({ ...ids, userId: adding[0] }).unwrap()
        : addMembers({ ...ids, userIds: adding }).unwrap(),
    );
    if (ok) setAdding([]);
  };

  const confirmDelete = () =>
    modal.confirm({
      title: `Delete the team ${team.name}?`,
      content: 'Its members stay in the company but lose the module access the team gave them.',
      okText: 'Delete team',
      okButtonProps: { danger: true },
      onOk: async () => {
        if (await attempt(() => remove(ids).unwrap())) onDeleted();
      },
    });

  const confirmRemoveMember = (m: Member) =>
    modal.confirm({
      title: `Remove ${fullName(m)} from ${team.name}?`,
      content: 'They lose the module access this team gives them.',
      okText: 'Remove',
      okButtonProps: { danger: true },
      onOk: () => attempt(() => removeMember({ ...ids, userId: m.id }).unwrap()),
    });

  const setModule = (module: ModuleName, access: boolean | null) => {
    // The api takes all five at once.
    const modulesAccess: ModuleAccess = { ...team.modulesAccess, [module]: access };
    void attempt(() => putModules({ ...ids, modulesAccess }).unwrap());
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {modalHolder}
      <Flex align="center" justify="space-between" gap={12} wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {team.name}
        </Typography.Title>
        <Space>
          <Button icon={<EditOutlined />} onClick={() => setRenaming(true)}>
            Rename
          </Button>
          <Button danger icon={<DeleteOutlined />} onClick={() => void confirmDelete()}>
            Delete team
          </Button>
        </Space>
      </Flex>
      {failure ? <Alert type="error" showIcon title={failure} closable onClose={() => setFailure(null)} /> : null}

      <Card title={`Members (${team.users.length})`}>
        <Flex gap={8} wrap style={{ marginBottom: 12 }}>
          <Select
            mode="multiple"
            aria-label="Users to add"
            placeholder="Choose users to add"
            style={{ minWidth: 320, flex: 1 }}
            value={adding}
            onChange={setAdding}
            options={options}
            loading={candidates.isLoading}
            optionFilterProp="label"
            notFoundContent={
              candidates.isError ? 'The users could not be loaded.' : 'Everyone is already in this team.'
            }
          />
          <Button type="primary" disabled={!adding.length} loading={addingOne || addingMany} onClick={() => void add()}>
            {adding.length > 1 ? `Add ${adding.length} members` : 'Add member'}
          </Button>
        </Flex>
        <Table<Member>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={team.users}
          locale={{ emptyText: 'No members yet.' }}
          columns={[
            { title: 'Name', key: 'name', render: (_v, m) => fullName(m) },
            { title: 'Email', dataIndex: 'email', key: 'email' },
            {
              title: 'Actions',
              key: 'actions',
              render: (_v, m) => (
                <Button
                  size="small"
                  danger
                  aria-label={`Remove ${fullName(m)} from the team`}
                  onClick={() => void confirmRemoveMember(m)}
                >
                  Remove
                </Button>
              ),
            },
          ]}
        />
      </Card>

      <Card title="Module access">
        <Typography.Paragraph type="secondary">
          {canEditModules
            ? 'Inherit leaves the decision to the company. A member’s own setting wins over the team’s; with several teams, any team that turns a module on gives it.'
            : 'Changing module access needs the permission to edit the company’s module access.'}
        </Typography.Paragraph>
        <Table<{ module: ModuleName }>
          rowKey="module"
          size="small"
          pagination={false}
          loading={savingModules}
          dataSource={MODULES.map((module) => ({ module }))}
          columns={[
            ...moduleAccessColumns({
              name: `team-${team.id}`,
              disabled: !canEditModules || savingModules,
              value: (module) => team.modulesAccess[module],
              onChange: setModule,
            }),
            {
              title: 'Company',
              key: 'company',
              render: (_v, { module }) =>
                company.modulesAccess[module] ? (
                  'On'
                ) : (
                  <Typography.Text type="warning">Off for the company: stays off</Typography.Text>
                ),
            },
          ]}
        />
      </Card>

      <Card title="Assigned objects">
        {objects.isError ? (
          <Alert
            type="error"
            showIcon
            title="Assigned objects could not be loaded."
            action={<Button onClick={() => objects.refetch()}>Try again</Button>}
          />
        ) : (
          <Table<AssignedObject>
            rowKey={(o) => `${o.module}/${o.objectId}`}
            size="small"
            pagination={false}
            loading={objects.isLoading}
            dataSource={objects.data ?? []}
            locale={{ emptyText: 'Nothing is assigned to this team.' }}
            columns={[
              { title: 'Name', dataIndex: 'name', key: 'name' },
              { title: 'Module', key: 'module', render: (_v, o) => MODULE_LABELS[o.module] },
              { title: 'Role', key: 'role', render: (_v, o) => o.role ?? '—' },
            ]}
          />
        )}
      </Card>

      <TeamNameModal
        title="Rename team"
        okText="Rename"
        open={renaming}
        initialName={team.name}
        onClose={() => setRenaming(false)}
        onSubmit={(name) => rename({ ...ids, name }).unwrap()}
      />
    </Space>
  );
}
