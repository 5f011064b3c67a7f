import { useEffect, useState } from 'react';
import { Link } from '@portal/shared/web/router';
import { DownOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Dropdown, type MenuProps } from '@portal/shared/ui/menus';
import {
  Alert,
  Flex,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  UserAddOutlined,
  type TableProps,
} from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import { ERROR_MESSAGES, isMappedErrorCode, markShownOnPage } from '@portal/shared/core/errors';
import {
  COMPANY_ROLES,
  type CompanyRoleName,
  type CompanyUser,
  type CompanyUsersQuery,
} from '@portal/shared/core/settings';
import { useSelector } from '@portal/shared/web/store';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { errorMessage } from '@portal/shared/web/api';
import { intParam, useUrlParams } from '../../../app/use-url-params';
import { fullName } from '../../../app/users';
import {
  useSettingsCompanyUsersListQuery,
  useSettingsCompanyUsersRemoveMutation,
  useSettingsCompanyUsersRestoreAccessMutation,
  useSettingsCompanyUsersRevokeAccessMutation,
  useSettingsCompanyUsersSetRoleMutation,
} from '../api/company-users-api';
import { ROLE_LABELS } from '../model/labels';
import { AddUserModal } from './add-user-modal';

const STATUSES = ['active', 'suspended', 'invited', 'revoked'] as const;
const STATUS_LABELS: Record<(typeof STATUSES)[number], string> = {
  active: 'Active',
  suspended: 'Suspended',
  invited: 'Invited',
  revoked: 'Access revoked',
};
type Sort = NonNullable<CompanyUsersQuery['sort']>;
const SORTS: Sort[] = ['name', '-name', 'email', '-email', 'lastSignInAt', '-lastSignInAt'];
const PAGE_SIZE = 25;

/** The api's word on a refused action (lead_user_can_not_be_revoked names the roles), else the catalogue's. */
function refusal(error: unknown): string {
  const code = (error as { data?: { code?: unknown } } | undefined)?.data?.code;
  return errorMessage(error) || (isMappedErrorCode(code) ? ERROR_MESSAGES[code] : 'The change could not be made.');
}

function UserTags({ user }: { user: Pick<CompanyUser, 'status' | 'invited' | 'accessRevoked'> }) {
  return (
    <Space size={4} wrap>
      {user.status === 'suspended' ? <Tag color="red">Suspended</Tag> : null}
      {user.invited ? <Tag color="gold">Invited</Tag> : null}
      {user.accessRevoked ? <Tag color="volcano">Access revoked</Tag> : null}
      {user.status === 'active' && !user.invited && !user.accessRevoked ? <Tag color="green">Active</Tag> : null}
    </Space>
  );
}

/**
 * The Company tab's users (?tab=users): the members of the company with search, filters, sorting and
 * paging kept in the address; invite, role, revoke or restore access and removal.
 */
export function CompanyUsers({ companyId }: { companyId: string }) {
  const meId = useSelector((s: { session: SessionState }) => sessionSelectors.selectUser(s)?.id);
  const [params, update] = useUrlParams();
  const search = params.get('search') ?? '';
  const roleParam = params.get('role');
  const role = COMPANY_ROLES.includes(roleParam as CompanyRoleName) ? (roleParam as CompanyRoleName) : undefined;
  const statusParam = params.get('status');
  const status = STATUSES.includes(statusParam as (typeof STATUSES)[number])
    ? (statusParam as (typeof STATUSES)[number])
    : undefined;
  const sortParam = params.get('sort') as Sort | null;
  const sort: Sort = sortParam && SORTS.includes(sortParam) ? sortParam : 'name';
  const page = intParam(params, 'page', 1);
  const pageSize = Math.min(intParam(params, 'pageSize', PAGE_SIZE), 200);

  const [text, setText] = useState(search);
  useEffect(() => setText(search), [search]);

  const { data, isFetching, isError, refetch } = useSettingsCompanyUsersListQuery({
    companyId,
    search: search || undefined,
    role,
    status,
    sort,
    page,
    pageSize,
  });
  const [setRole] = useSettingsCompanyUsersSetRoleMutation();
  const [revoke] = useSettingsCompanyUsersRevokeAccessMutation();
  const [restore] = useSettingsCompanyUsersRestoreAccessMutation();
  const [remove] = useSettingsCompanyUsersRemoveMutation();
  const [modal, modalHolder] = Modal.useModal();
  const [inviting, setInviting] = useState(false);
  const [notice, setNotice] = useState<{ type: 'success' | 'error'; text: string } | null>(null);

  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      setNotice({ type: 'success', text: done });
    } catch (error) {
      // said on the page: no toast besides
      markShownOnPage(error);
      setNotice({ type: 'error', text: refusal(error) });
    }
  };

  const runAction = (user: CompanyUser, key: string) => {
    const name = fullName(user);
    const ids = { companyId, userId: user.id };
    if (key === 'role') {
      const next: CompanyRoleName = user.role === 'admin' ? 'member' : 'admin';
      void run(
        () => setRole({ ...ids, role: next }).unwrap(),
        `${name} is now ${next === 'admin' ? 'an admin' : 'a member'}.`,
      );
    } else if (key === 'restore') {
      void run(() => restore(ids).unwrap(), `${name} has access to the company again.`);
    } else if (key === 'revoke') {
      void modal.confirm({
        title: `Revoke ${name}'s access?`,
        content: 'They stay listed but no longer see this company. You can restore their access later.',
        okText: 'Revoke access',
        okButtonProps: { danger: true },
        onOk: () => run(() => revoke(ids).unwrap(), `${name}'s access was revoked.`),
      });
    } else if (key === 'remove') {
      void modal.confirm({
        title: `Remove ${name} from the company?`,
        content: 'They lose their access, their teams and their module settings in this company.',
        okText: 'Remove',
        okButtonProps: { danger: true },
        onOk: () => run(() => remove(ids).unwrap(), `${name} was removed from the company.`),
      });
    }
  };

  const order = (field: string) => (sort === field ? 'ascend' : sort === `-${field}` ? 'descend' : null);
  const columns: TableProps<CompanyUser>['columns'] = [
    {
      title: 'Name',
      key: 'name',
      sorter: true,
      sortOrder: order('name'),
      render: (_v, u) => (
        <div>
          <Link to={`/settings/company/user/${encodeURIComponent(u.id)}`}>{fullName(u)}</Link>
          {u.title ? (
            <div>
              <Typography.Text type="secondary">{u.title}</Typography.Text>
            </div>
          ) : null}
        </div>
      ),
    },
    { title: 'Email', dataIndex: 'email', key: 'email', sorter: true, sortOrder: order('email') },
    {
      title: 'Role',
      key: 'role',
      render: (_v, u) => <Tag color={u.role === 'admin' ? 'blue' : undefined}>{ROLE_LABELS[u.role]}</Tag>,
    },
    { title: 'Status', key: 'status', render: (_v, u) => <UserTags user={u} /> },
    {
      title: 'Teams',
      key: 'teams',
      render: (_v, u) =>
        u.teams.length ? (
          <Space size={4} wrap>
            {u.teams.map((t) => (
              <Tag key={t.id}>{t.name}</Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">None</Typography.Text>
        ),
    },
    {
      title: 'Last sign-in',
      key: 'lastSignInAt',
      sorter: true,
      sortOrder: order('lastSignInAt'),
      render: (_v, u) => formatDateTime(u.lastSignInAt) || 'Never',
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_v, u) => {
        // The api refuses changes to one's own role and access: ask another administrator.
        if (u.id === meId) return <Typography.Text type="secondary">You</Typography.Text>;
        const items: MenuProps['items'] = [
          { key: 'role', label: u.role === 'admin' ? 'Make member' : 'Make admin' },
          u.accessRevoked
            ? { key: 'restore', label: 'Restore access' }
            : { key: 'revoke', label: 'Revoke access', danger: true },
          { key: 'remove', label: 'Remove from company', danger: true },
        ];
        return (
          <Dropdown trigger={['click']} menu={{ items, onClick: ({ key }) => runAction(u, key) }}>
            <Button size="small" aria-label={`Actions for ${fullName(u)}`}>
              Actions <DownOutlined />
            </Button>
          </Dropdown>
        );
      },
    },
  ];

  return (
    <div>
      {modalHolder}
      <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
        <Input.Search
          aria-label="Search users"
          placeholder="Name or email"
          allowClear
          value={text}
          onChange={(e) => setText(e.target.value)}
          onSearch={(value) => update({ search: value.trim(), page: null })}
          style={{ width: 260 }}
        />
        <Select
          aria-label="Role filter"
          value={role ?? ''}
          style={{ width: 140 }}
          onChange={(v: string) => update({ role: v, page: null })}
          options={[
            { value: '', label: 'All roles' },
            ...COMPANY_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] })),
          ]}
        />
        <Select
          aria-label="Status filter"
          value={status ?? ''}
          style={{ width: 160 }}
          onChange={(v: string) => update({ status: v, page: null })}
          options={[
            { value: '', label: 'All statuses' },
            ...STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
          ]}
        />
        <Button
          type="primary"
          icon={<UserAddOutlined />}
          onClick={() => setInviting(true)}
          style={{ marginInlineStart: 'auto' }}
        >
          Add user
        </Button>
      </Flex>
      {notice ? (
        <Alert
          type={notice.type}
          title={notice.text}
          showIcon
          closable
          onClose={() => setNotice(null)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {isError ? (
        <Alert
          type="error"
          showIcon
          title="The users could not be loaded."
          action={<Button onClick={() => refetch()}>Try again</Button>}
        />
      ) : (
        <Table<CompanyUser>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={data?.results ?? []}
          loading={isFetching}
          locale={{
            emptyText: search || role || status ? 'No users match these filters.' : 'This company has no users yet.',
          }}
          pagination={{ current: page, pageSize, total: data?.total ?? 0, showSizeChanger: true }}
          onChange={(pagination, _filters, sorter) => {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            const field = s?.order ? String(s.columnKey) : null;
            const nextSort = field ? (s.order === 'descend' ? `-${field}` : field) : null;
            const sortChanged = (nextSort ?? 'name') !== sort;
            update({
              sort: nextSort === 'name' ? null : nextSort,
              page:
                sortChanged || pagination.pageSize !== pageSize
                  ? null
                  : pagination.current === 1
                    ? null
                    : pagination.current,
              pageSize: pagination.pageSize === PAGE_SIZE ? null : pagination.pageSize,
            });
          }}
        />
      )}
      <AddUserModal
        companyId={companyId}
        open={inviting}
        onClose={() => setInviting(false)}
        onInvited={(user) => {
          setInviting(false);
          setNotice({
            type: 'success',
            text: user.isFederated
              ? `${user.email} was added. They sign in with your company's single sign-on: no invitation e-mail is needed.`
              : `${user.email} was added and an invitation e-mail was sent to choose a password.`,
          });
        }}
      />
    </div>
  );
}
