import { useEffect, useState } from 'react';
import { useParams } from '@portal/shared/web/router';
import { useSelector } from '@portal/shared/web/store';
import { Spin } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Card, Descriptions, Select, Space, Tag, Typography } from '@portal/shared/ui/extra';
import { PageHeader, StatusPanel } from '@portal/shared/ui/components';
import { formatDateTime } from '@portal/shared/core/dates';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { errorMessage } from '@portal/shared/web/api';
import { fullName } from '../../../app/users';
import { useSettingsUserGetQuery } from '../../../app/shared-queries';
import {
  useSettingsPracticesListQuery,
  useSettingsStaffPracticesQuery,
  useSettingsStaffPracticesUpdateMutation,
} from '../api/staff-api';

type Root = { session: SessionState };

/** /settings/tevora/user/:userId: a staff user and their practices, chosen from all practices (users.editPractices). */
export function StaffUserPage() {
  const { userId = '' } = useParams();
  const brand = useSelector((s: Root) => sessionSelectors.selectBrand(s));
  const canEdit = !!useSelector((s: Root) => sessionSelectors.selectAccess(s))?.settingsPermissions.users.editPractices;
  const user = useSettingsUserGetQuery(userId, { skip: !userId });
  const practices = useSettingsPracticesListQuery();
  const own = useSettingsStaffPracticesQuery(userId, { skip: !userId });
  const [save, { isLoading: saving }] = useSettingsStaffPracticesUpdateMutation();
  const [chosen, setChosen] = useState<string[]>([]);
  const [notice, setNotice] = useState<{ type: 'success' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (own.data) setChosen(own.data.map((p) => p.id));
  }, [own.data]);

  const name = user.data ? fullName(user.data) : 'User';
  const notFound = (user.error as { status?: unknown } | undefined)?.status === 404;
  const saved = new Set(own.data?.map((p) => p.id) ?? []);
  const dirty = chosen.length !== saved.size || chosen.some((id) => !saved.has(id));
  // Retired practices stay listed while the user holds them, and cannot be newly chosen.
  const options = (practices.data ?? []).map((p) => ({
    value: p.id,
    label: p.status === 'retired' ? `${p.name} (retired)` : p.name,
    disabled: p.status === 'retired' && !saved.has(p.id),
  }));

  const submit = async () => {
    setNotice(null);
    try {
      await save({ userId, practiceIds: chosen }).unwrap();
      setNotice({ type: 'success', text: 'The practices were saved.' });
    } catch (error) {
      setNotice({ type: 'error', text: errorMessage(error) ?? 'The practices could not be saved.' });
    }
  };

  return (
    <div data-testid="settings-staff-user">
      <PageHeader
        title={name}
        crumbs={[{ title: 'Settings', to: '/settings' }, { title: brand, to: '/settings/tevora' }, { title: name }]}
      />
      {user.isLoading ? (
        <div style={{ padding: 48, textAlign: 'center' }}>
          <Spin aria-label="Loading user" />
        </div>
      ) : notFound ? (
        <StatusPanel nested kind="notFound" title="User not found" subTitle={`This ${brand} user does not exist.`} />
      ) : user.isError || !user.data ? (
        <Alert
          type="error"
          showIcon
          title="The user could not be loaded."
          action={<Button onClick={() => user.refetch()}>Try again</Button>}
        />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Card title="Details">
            <Descriptions column={{ xs: 1, md: 2 }} size="small">
              <Descriptions.Item label="Email">{user.data.email}</Descriptions.Item>
              <Descriptions.Item label="Title">{user.data.title ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="Roles">
                <Space size={4} wrap>
                  <Tag>Staff</Tag>
                  {user.data.isAdmin ? <Tag color="blue">Admin</Tag> : null}
                  {user.data.isAuditor ? <Tag color="purple">Auditor</Tag> : null}
                  {user.data.status === 'suspended' ? <Tag color="red">Suspended</Tag> : null}
                </Space>
              </Descriptions.Item>
              <Descriptions.Item label="Last sign-in">
                {formatDateTime(user.data.lastSignInAt) || 'Never'}
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title="Practices">
            {notice ? (
              <Alert
                type={notice.type}
                showIcon
                title={notice.text}
                closable
                onClose={() => setNotice(null)}
                style={{ marginBottom: 12 }}
              />
            ) : null}
            {practices.isError || own.isError ? (
              <Alert
                type="error"
                showIcon
                title="The practices could not be loaded."
                action={
                  <Button
                    onClick={() => {
                      void practices.refetch();
                      void own.refetch();
                    }}
                  >
                    Try again
                  </Button>
                }
              />
            ) : (
              <Space orientation="vertical" style={{ width: '100%' }}>
                <label htmlFor="staff-practices">Practices of {name}</label>
                <Select
                  id="staff-practices"
                  mode="multiple"
                  style={{ width: '100%', maxWidth: 640 }}
                  placeholder="No practices"
                  value={chosen}
                  onChange={setChosen}
                  options={options}
                  loading={practices.isLoading || own.isLoading}
                  disabled={!canEdit}
                  optionFilterProp="label"
                />
                {canEdit ? (
                  <Button type="primary" disabled={!dirty} loading={saving} onClick={() => void submit()}>
                    Save practices
                  </Button>
                ) : (
                  <Typography.Text type="secondary">
                    Changing practices needs the permission to edit practices.
                  </Typography.Text>
                )}
              </Space>
            )}
          </Card>
        </Space>
      )}
    </div>
  );
}
