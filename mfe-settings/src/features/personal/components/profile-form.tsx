import { Button } from '@portal/shared/ui/button';
import { Card, Form, Input, Switch, Typography } from '@portal/shared/ui/extra';
import type { User } from '@portal/shared/core/schemas';
import { profileUpdateSchema } from '@portal/shared/core/settings';
import { publishToast } from '@portal/shared/web/events';
import { imageRule, showFieldErrors, schemaRule } from '../../../app/forms';
import { useSettingsProfileAvatarDeleteMutation, useSettingsProfileUpdateMutation } from '../api/personal-api';
import { profileFormData, profileFormValues, type ProfileFormValues } from '../model/profile';
import { AvatarInput } from './avatar-input';

const shape = profileUpdateSchema.shape;

/** The profile: editable by local users; federated users see it read-only (their identity provider owns it). */
export function ProfileForm({ user, readOnly }: { user: User; readOnly: boolean }) {
  const [form] = Form.useForm<ProfileFormValues>();
  const [update, { isLoading: saving }] = useSettingsProfileUpdateMutation();
  const [deleteAvatar, { isLoading: deleting }] = useSettingsProfileAvatarDeleteMutation();

  const onFinish = async (values: ProfileFormValues) => {
    try {
      await update(profileFormData(user, values)).unwrap();
      form.setFieldValue('avatar', undefined);
      publishToast({ severity: 'success', summary: 'Profile saved' });
    } catch (error) {
      // Each field shows the api's message; the shell's toast says the rest.
      showFieldErrors(form, error);
    }
  };

  const onDeleteAvatar = async () => {
    try {
      await deleteAvatar().unwrap();
      publishToast({ severity: 'success', summary: 'Avatar deleted' });
    } catch {
      // toasted by the shell
    }
  };

  return (
    <Card title="Profile">
      <Form
        form={form}
        name="profile"
        layout="vertical"
        disabled={readOnly}
        initialValues={profileFormValues(user)}
        onFinish={onFinish}
        style={{ maxWidth: 560 }}
      >
        <Form.Item label="Email" extra="Your email is also your sign-in; an administrator can change it.">
          <Typography.Text>{user.email}</Typography.Text>
        </Form.Item>
        <Form.Item
          name="firstName"
          label="First name"
          required
          rules={[schemaRule(shape.firstName, { nullAsMissing: true })]}
        >
          <Input autoComplete="given-name" />
        </Form.Item>
        <Form.Item
          name="lastName"
          label="Last name"
          required
          rules={[schemaRule(shape.lastName, { nullAsMissing: true })]}
        >
          <Input autoComplete="family-name" />
        </Form.Item>
        <Form.Item name="title" label="Title" rules={[schemaRule(shape.title, { nullAsMissing: true })]}>
          <Input autoComplete="organization-title" />
        </Form.Item>
        <Form.Item name="primaryPhone" label="Phone" rules={[schemaRule(shape.primaryPhone, { nullAsMissing: true })]}>
          <Input type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item
          name="sendDailyEmails"
          label="Daily e-mails"
          valuePropName="checked"
          extra="A summary of the day's activity, sent each morning."
        >
          <Switch />
        </Form.Item>
        <Form.Item name="avatar" label="Avatar" rules={[imageRule()]}>
          <AvatarInput
            currentUrl={user.avatar}
            initials={`${user.firstName[0] ?? ''}${user.lastName[0] ?? ''}`}
            disabled={readOnly}
            onDelete={() => void onDeleteAvatar()}
            deleting={deleting}
          />
        </Form.Item>
        {readOnly ? null : (
          <Button type="primary" htmlType="submit" loading={saving}>
            Save profile
          </Button>
        )}
      </Form>
    </Card>
  );
}
