import { Form, Input, Modal, Radio } from '@portal/shared/ui/extra';
import { companyUserInviteSchema, type CompanyUser, type CompanyUserInvite } from '@portal/shared/core/settings';
import { showFieldErrors, schemaRule } from '../../../app/forms';
import { useSettingsCompanyUsersInviteMutation } from '../api/company-users-api';

const shape = companyUserInviteSchema.shape;

/** Invites a user into the company (companyUserInviteSchema); the api's field errors land on their fields. */
export function AddUserModal({
  companyId,
  open,
  onClose,
  onInvited,
}: {
  companyId: string;
  open: boolean;
  onClose: () => void;
  onInvited: (user: CompanyUser) => void;
}) {
  const [form] = Form.useForm<CompanyUserInvite>();
  const [invite, { isLoading }] = useSettingsCompanyUsersInviteMutation();

  const submit = async (values: CompanyUserInvite) => {
    const parsed = companyUserInviteSchema.parse(values);
    // A new user's title is stated either way: null when the form leaves it empty.
    const body = { ...parsed, title: parsed.title ?? null };
    try {
      const user = await invite({ companyId, body }).unwrap();
      form.resetFields();
      onInvited(user);
    } catch (error) {
      showFieldErrors(form, error);
    }
  };

  return (
    <Modal
      title="Add user"
      open={open}
      okText="Add user"
      onOk={() => form.submit()}
      confirmLoading={isLoading}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ role: 'member' }} onFinish={submit}>
        <Form.Item name="email" label="Email" rules={[schemaRule(shape.email)]}>
          <Input type="email" autoComplete="off" autoFocus />
        </Form.Item>
        <Form.Item name="firstName" label="First name" rules={[schemaRule(shape.firstName)]}>
          <Input />
        </Form.Item>
        <Form.Item name="lastName" label="Last name" rules={[schemaRule(shape.lastName)]}>
          <Input />
        </Form.Item>
        <Form.Item name="title" label="Title" rules={[schemaRule(shape.title)]}>
          <Input />
        </Form.Item>
        <Form.Item name="role" label="Role">
          <Radio.Group
            options={[
              { value: 'member', label: 'Member' },
              { value: 'admin', label: 'Admin' },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
