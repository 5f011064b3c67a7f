import { useEffect, useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  Card,
  Descriptions,
  Form,
  Input,
  KeyOutlined,
  Modal,
  Space,
  StopOutlined,
  Tag,
  Typography,
} from '@portal/shared/ui/extra';
import { formatDate, formatDateTime } from '@portal/shared/core/dates';
import { requiredText, userAdminUpdateSchema, type UserDetail } from '@portal/shared/core/settings';
import { showFieldErrors, schemaRule } from '../../../app/forms';
import { errorMessage } from '@portal/shared/web/api';
import { fullName } from '../../../app/users';
import {
  useSettingsUsersResetPasswordMutation,
  useSettingsUsersUnsuspendMutation,
  useSettingsUsersUpdateMutation,
  type UserAdminUpdate,
} from '../api/company-users-api';
import { ROLE_LABELS } from '../model/labels';

interface DetailsForm {
  firstName: string;
  lastName: string;
  title: string | null;
  primaryPhone: string | null;
}

const shape = userAdminUpdateSchema.shape;

/** A user's details with their editable fields, and the account actions: suspend, unsuspend, reset password. */
export function UserDetails({ user }: { user: UserDetail }) {
  const [form] = Form.useForm<DetailsForm>();
  const [update, { isLoading: saving }] = useSettingsUsersUpdateMutation();
  const [unsuspend, { isLoading: unsuspending }] = useSettingsUsersUnsuspendMutation();
  const [resetPassword, { isLoading: resetting }] = useSettingsUsersResetPasswordMutation();
  const [modal, modalHolder] = Modal.useModal();
  const [notice, setNotice] = useState<{ type: 'success' | 'error'; text: string } | null>(null);
  const name = fullName(user);

  useEffect(() => {
    form.setFieldsValue({
      firstName: user.firstName,
      lastName: user.lastName,
      title: user.title,
      primaryPhone: user.primaryPhone,
    });
  }, [form, user.firstName, user.lastName, user.title, user.primaryPhone]);

  const save = async (values: DetailsForm) => {
    const body = userAdminUpdateSchema.parse(values) as UserAdminUpdate;
    try {
      await update({ userId: user.id, body }).unwrap();
      setNotice({ type: 'success', text: 'The details were saved.' });
    } catch (error) {
      showFieldErrors(form, error);
    }
  };

  const attempt = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      setNotice({ type: 'success', text: done });
    } catch (error) {
      setNotice({ type: 'error', text: errorMessage(error) ?? 'The change could not be made.' });
    }
  };

  const suspend = () =>
    modal.confirm({
      title: `Suspend ${name}?`,
      content: 'They are signed out everywhere and cannot sign in to any company until they are unsuspended.',
      okText: 'Suspend',
      okButtonProps: { danger: true },
      onOk: () =>
        attempt(() => update({ userId: user.id, body: { status: 'suspended' } }).unwrap(), `${name} is suspended.`),
    });

  const reset = () =>
    modal.confirm({
      title: `Reset ${name}'s password?`,
      content: `${user.email} receives an e-mail with a link to choose a new password. The link works once, for 60 minutes.`,
      okText: 'Send reset link',
      onOk: () => attempt(() => resetPassword(user.id).unwrap(), `A password reset e-mail was sent to ${user.email}.`),
    });

  const suspended = user.status === 'suspended';
  return (
    <>
      {modalHolder}
      {notice ? (
        <Alert type={notice.type} title={notice.text} showIcon closable onClose={() => setNotice(null)} />
      ) : null}
      <Card title="Details">
        <Descriptions column={{ xs: 1, md: 2 }} size="small" style={{ marginBottom: 16 }}>
          <Descriptions.Item label="Email">{user.email}</Descriptions.Item>
          <Descriptions.Item label="Status">
            <Space size={4} wrap>
              <Tag color={suspended ? 'red' : 'green'}>{suspended ? 'Suspended' : 'Active'}</Tag>
              {user.invited ? <Tag color="gold">Invited</Tag> : null}
              {user.isFederated ? <Tag>Single sign-on</Tag> : null}
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label="Last sign-in">{formatDateTime(user.lastSignInAt) || 'Never'}</Descriptions.Item>
          <Descriptions.Item label="Created">{formatDate(user.createdAt)}</Descriptions.Item>
          <Descriptions.Item label="Companies">
            <Space size={4} wrap>
              {user.companies.map((c) => (
                <Tag key={c.id}>
                  {c.name} ({ROLE_LABELS[c.role]}
                  {c.accessRevoked ? ', access revoked' : ''})
                </Tag>
              ))}
            </Space>
          </Descriptions.Item>
        </Descriptions>
        <Form form={form} layout="vertical" onFinish={save} style={{ maxWidth: 520 }}>
          <Form.Item name="firstName" label="First name" rules={[schemaRule(requiredText('firstName'))]}>
            <Input />
          </Form.Item>
          <Form.Item name="lastName" label="Last name" rules={[schemaRule(requiredText('lastName'))]}>
            <Input />
          </Form.Item>
          <Form.Item name="title" label="Title" rules={[schemaRule(shape.title)]}>
            <Input />
          </Form.Item>
          <Form.Item name="primaryPhone" label="Phone" rules={[schemaRule(shape.primaryPhone)]}>
            <Input type="tel" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            Save details
          </Button>
        </Form>
      </Card>
      <Card title="Account">
        <Space wrap>
          {suspended ? (
            <Button
              loading={unsuspending}
              onClick={() => void attempt(() => unsuspend(user.id).unwrap(), `${name} can sign in again.`)}
            >
              Unsuspend
            </Button>
          ) : (
            <Button danger icon={<StopOutlined />} onClick={() => void suspend()}>
              Suspend
            </Button>
          )}
          <Button
            icon={<KeyOutlined />}
            loading={resetting}
            disabled={suspended || user.isFederated}
            onClick={() => void reset()}
          >
            Reset password
          </Button>
        </Space>
        {user.isFederated ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            {name} signs in with the company&apos;s single sign-on: their password is managed there.
          </Typography.Paragraph>
        ) : suspended ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            Unsuspend {name} before resetting their password.
          </Typography.Paragraph>
        ) : null}
      </Card>
    </>
  );
}
