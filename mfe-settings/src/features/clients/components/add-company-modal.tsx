import { Button } from '@portal/shared/ui/button';
import { Flex, Form, Input, Modal, Switch, Typography } from '@portal/shared/ui/extra';
import { MODULES, type ModuleName } from '@portal/shared/core/modules';
import { companyCreateSchema } from '@portal/shared/core/settings';
import { publishToast } from '@portal/shared/web/events';
import { showFieldErrors, schemaRule } from '../../../app/forms';
import { MODULE_LABELS } from '../../../app/modules';
import { errorMessage } from '@portal/shared/web/api';
import { useSettingsClientsCreateMutation } from '../api/clients-api';

interface AddCompanyValues {
  name: string;
  modulesAccess: Record<ModuleName, boolean>;
}

const ALL_ON = Object.fromEntries(MODULES.map((m) => [m, true])) as Record<ModuleName, boolean>;

/** A new client company: its name and the modules it has (all on unless turned off here). */
export function AddCompanyModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<AddCompanyValues>();
  const [create, { isLoading }] = useSettingsClientsCreateMutation();

  const onFinish = async ({ name, modulesAccess }: AddCompanyValues) => {
    try {
      const company = await create({ name: name.trim(), modulesAccess }).unwrap();
      publishToast({ severity: 'success', summary: `${company.name} added` });
      form.resetFields();
      onClose();
    } catch (error) {
      if (
        !showFieldErrors(form, error) &&
        (error as { data?: { code?: string } }).data?.code === 'company_name_taken'
      ) {
        form.setFields([{ name: 'name', errors: [errorMessage(error) ?? 'name is already used by another company'] }]);
      }
    }
  };

  return (
    <Modal
      open={open}
      title="Add company"
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="add" type="primary" loading={isLoading} onClick={() => form.submit()}>
          Add company
        </Button>,
      ]}
    >
      <Form
        form={form}
        name="add-company"
        layout="vertical"
        initialValues={{ name: '', modulesAccess: ALL_ON }}
        onFinish={onFinish}
      >
        <Form.Item
          name="name"
          label="Company name"
          required
          rules={[schemaRule(companyCreateSchema.shape.name, { nullAsMissing: true })]}
        >
          <Input autoFocus autoComplete="off" />
        </Form.Item>
        <Typography.Paragraph type="secondary">
          Modules the company has. They are the ceiling for its users and teams, and can be changed later in the
          company&apos;s settings.
        </Typography.Paragraph>
        <Flex vertical gap="small">
          {MODULES.map((m) => (
            <Flex key={m} align="center" gap="small">
              <Form.Item name={['modulesAccess', m]} valuePropName="checked" noStyle>
                <Switch id={`add-company-module-${m}`} size="small" />
              </Form.Item>
              <label htmlFor={`add-company-module-${m}`}>{MODULE_LABELS[m]}</label>
            </Flex>
          ))}
        </Flex>
      </Form>
    </Modal>
  );
}
