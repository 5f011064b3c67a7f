import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import { Alert, Card, Form, Input } from '@portal/shared/ui/extra';
import {
  changePasswordSchema,
  DEFAULT_PASSWORD_POLICY,
  newPasswordSchema,
  type User,
} from '@portal/shared/core/schemas';
import { publishToast } from '@portal/shared/web/events';
import { skipToken } from '@portal/shared/web/store';
import { showFieldErrors, schemaRule } from '../../../app/forms';
import { useSettingsPasswordPolicyGetQuery } from '../../../app/shared-queries';
import { useSettingsPasswordChangeMutation } from '../api/personal-api';

interface PasswordFormValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * Change password, for users who sign in with one. The minimum length shown and checked here is the
 * selected company's policy when known (staff follow their own policy, which the api applies), else
 * the default; the api checks the user's real policy and names the field it refuses.
 */
export function PasswordForm({ user, companyId }: { user: User; companyId: string | null }) {
  const [form] = Form.useForm<PasswordFormValues>();
  const policy = useSettingsPasswordPolicyGetQuery(companyId && !user.isTevora ? companyId : skipToken);
  const minimumLength = policy.data?.minimumLength ?? DEFAULT_PASSWORD_POLICY.minimumLength;
  const [change, { isLoading }] = useSettingsPasswordChangeMutation();
  const [changed, setChanged] = useState(false);

  const onFinish = async ({ currentPassword, newPassword }: PasswordFormValues) => {
    setChanged(false);
    try {
      await change({ currentPassword, newPassword }).unwrap();
      form.resetFields();
      setChanged(true);
      publishToast({ severity: 'success', summary: 'Password changed' });
    } catch (error) {
      showFieldErrors(form, error);
    }
  };

  return (
    <Card title="Password">
      <Form
        form={form}
        name="password"
        layout="vertical"
        onFinish={onFinish}
        onValuesChange={() => setChanged(false)}
        style={{ maxWidth: 560 }}
      >
        {changed ? (
          <Form.Item>
            <Alert
              type="success"
              showIcon
              title="Your password was changed."
              description="Your other sessions were signed out."
            />
          </Form.Item>
        ) : null}
        <Form.Item
          name="currentPassword"
          label="Current password"
          required
          rules={[schemaRule(changePasswordSchema.shape.currentPassword, { nullAsMissing: true })]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label="New password"
          required
          extra={`At least ${minimumLength} characters.`}
          rules={[
            schemaRule(newPasswordSchema({ ...DEFAULT_PASSWORD_POLICY, minimumLength }, 'newPassword'), {
              nullAsMissing: true,
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label="Confirm new password"
          required
          dependencies={['newPassword']}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_rule: unknown, value: unknown) => {
                if (!value) throw new Error('Type the new password again');
                if (value !== getFieldValue('newPassword')) throw new Error('The passwords do not match');
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={isLoading}>
          Change password
        </Button>
      </Form>
    </Card>
  );
}
