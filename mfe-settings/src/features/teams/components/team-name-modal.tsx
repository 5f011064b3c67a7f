import { useEffect } from 'react';
import { Form, Input, Modal } from '@portal/shared/ui/extra';
import { teamNameSchema } from '@portal/shared/core/settings';
import { showFieldErrors, schemaRule } from '../../../app/forms';

/**
 * Creates or renames a team (teamNameSchema). `onSubmit` rejects with the api's error: a 409
 * team_name_taken lands on the name field.
 */
export function TeamNameModal({
  title,
  okText,
  open,
  initialName = '',
  onSubmit,
  onClose,
}: {
  title: string;
  okText: string;
  open: boolean;
  initialName?: string;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ name: string }>();
  useEffect(() => {
    if (open) form.setFieldsValue({ name: initialName });
  }, [open, initialName, form]);

  const submit = async ({ name }: { name: string }) => {
    try {
      await onSubmit(teamNameSchema.parse({ name }).name);
      onClose();
    } catch (error) {
      showFieldErrors(form, error);
    }
  };

  return (
    <Modal title={title} open={open} okText={okText} onOk={() => form.submit()} onCancel={onClose} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ name: initialName }}>
        <Form.Item name="name" label="Team name" rules={[schemaRule(teamNameSchema.shape.name)]}>
          <Input autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
