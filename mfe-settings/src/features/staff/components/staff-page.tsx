import { useEffect, useState } from 'react';
import { Link } from '@portal/shared/web/router';
import { useSelector } from '@portal/shared/web/store';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  Input,
  Modal,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { formatDateTime } from '@portal/shared/core/dates';
import type { StaffUser } from '@portal/shared/core/settings';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { errorMessage } from '@portal/shared/web/api';
import { markShownOnPage } from '@portal/shared/core/errors';
import { publishToast } from '@portal/shared/web/events';
import { intParam, useUrlParams } from '../../../app/use-url-params';
import { fullName } from '../../../app/users';
import { useSettingsStaffListQuery, useSettingsStaffSetAdminMutation } from '../api/staff-api';

type Root = { session: SessionState };
const PAGE_SIZE = 25;

/** /settings/tevora: the {brand} staff with their admin and auditor flags and practices; staff admins grant or take admin. */
export function StaffPage() {
  const brand = useSelector((s: Root) => sessionSelectors.selectBrand(s));
  const me = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const isStaffAdmin = !!me?.isTevora && !!me.admin.active;
  const [params, update] = useUrlParams();
  const search = params.get('search') ?? '';
  const page = intParam(params, 'page', 1);
  const pageSize = Math.min(intParam(params, 'pageSize', PAGE_SIZE), 200);
  const [text, setText] = useState(search);
  useEffect(() => setText(search), [search]);
  const { data, isFetching, isError, refetch } = useSettingsStaffListQuery({
    search: search || undefined,
    page,
    pageSize,
  });
  const [setAdmin] = useSettingsStaffSetAdminMutation();
  const [modal, modalHolder] = Modal.useModal();
  const [failure, setFailure] = useState<string | null>(null);

  const toggle = (u: StaffUser, makeAdmin: boolean) =>
    modal.confirm({
      title: makeAdmin ? `Make ${fullName(u)} an administrator?` : `Remove ${fullName(u)}'s administrator role?`,
      content: makeAdmin
        ? 'Administrators manage portal messages, feature flags, other administrators and every company.'
        : 'They keep their staff access but can no longer administer the portal.',
      okText: makeAdmin ? 'Make administrator' : 'Remove administrator',
      okButtonProps: { danger: !makeAdmin },
      onOk: async () => {
        setFailure(null);
        try {
          await setAdmin({ userId: u.id, role: makeAdmin ? 'admin' : 'staff' }).unwrap();
          publishToast({
            severity: 'success',
            summary: makeAdmin
              ? `${fullName(u)} is now an administrator`
              : `${fullName(u)} is no longer an administrator`,
          });
        } catch (error) {
          // said on the page: no toast besides
          markShownOnPage(error);
          setFailure(errorMessage(error) ?? 'The administrator role could not be changed.');
        }
      },
    });

  const columns: TableProps<StaffUser>['columns'] = [
    {
      title: 'Name',
      key: 'name',
      render: (_v, u) => (
        <div>
          <Link to={`/settings/tevora/user/${encodeURIComponent(u.id)}`}>{fullName(u)}</Link>
          {u.title ? (
            <div>
              <Typography.Text type="secondary">{u.title}</Typography.Text>
            </div>
          ) : null}
        </div>
      ),
    },
    { title: 'Email', dataIndex: 'email', key: 'email' },
    {
      title: 'Roles',
      key: 'roles',
      render: (_v, u) => (
        <Space size={4} wrap>
          {u.isAdmin ? <Tag color="blue">Admin</Tag> : null}
          {u.isAuditor ? <Tag color="purple">Auditor</Tag> : null}
          {u.status === 'suspended' ? <Tag color="red">Suspended</Tag> : null}
        </Space>
      ),
    },
    {
      title: 'Practices',
      key: 'practices',
      render: (_v, u) =>
        u.practices.length ? (
          <Space size={4} wrap>
            {u.practices.map((p) => (
              <Tag key={p.id}>{p.name}</Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">None</Typography.Text>
        ),
    },
    { title: 'Last sign-in', key: 'lastSignInAt', render: (_v, u) => formatDateTime(u.lastSignInAt) || 'Never' },
    {
      title: 'Administrator',
      key: 'admin',
      render: (_v, u) => {
        const self = u.id === me?.id;
        const why = !isStaffAdmin
          ? 'Only administrators can change this.'
          : self
            ? 'You cannot change your own administrator role.'
            : null;
        const control = (
          <Switch
            aria-label={`Administrator: ${fullName(u)}`}
            checked={u.isAdmin}
            disabled={!!why}
            onChange={(checked) => void toggle(u, checked)}
          />
        );
        return why ? (
          <Tooltip title={why}>
            <span>{control}</span>
          </Tooltip>
        ) : (
          control
        );
      },
    },
  ];

  return (
    <div data-testid="settings-staff">
      {modalHolder}
      <PageHeader title={brand} crumbs={[{ title: 'Settings', to: '/settings' }, { title: brand }]} />
      <Input.Search
        aria-label="Search staff"
        placeholder="Name or email"
        allowClear
        value={text}
        onChange={(e) => setText(e.target.value)}
        onSearch={(value) => update({ search: value.trim(), page: null })}
        style={{ width: 280, marginBottom: 16 }}
      />
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
          title="The staff could not be loaded."
          action={<Button onClick={() => refetch()}>Try again</Button>}
        />
      ) : (
        <Table<StaffUser>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={data?.results ?? []}
          loading={isFetching}
          locale={{ emptyText: search ? 'No staff match this search.' : 'No staff yet.' }}
          pagination={{ current: page, pageSize, total: data?.total ?? 0, showSizeChanger: true }}
          onChange={(pagination) =>
            update({
              page: pagination.pageSize !== pageSize || pagination.current === 1 ? null : pagination.current,
              pageSize: pagination.pageSize === PAGE_SIZE ? null : pagination.pageSize,
            })
          }
        />
      )}
    </div>
  );
}
