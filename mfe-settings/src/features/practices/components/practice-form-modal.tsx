import { useEffect, useRef, useState, type ComponentRef } from 'react';
import { Form, Input, Modal } from '@portal/shared/ui/extra';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import { practiceCreateSchema, type PracticeCreate } from '@portal/shared/core/practices';
import { showFieldErrors, schemaRule } from '../../../app/forms';

interface Values {
  name: string;
  description: string;
}

/**
 * Creates ("New practice") or edits a practice: name and description, checked with the api's schema.
 * `onSubmit` rejects with the api's error: a 409 practice_name_taken lands on the Name field, the
 * dialog staying open (the shell toasts the rest).
 */
export function PracticeFormModal({
  open,
  title,
  formName,
  okText,
  initial,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  /** The form's name: its fields' ids start with it, so they stay unique on the page. */
  formName: string;
  okText: string;
  initial?: Values;
  onSubmit: (values: PracticeCreate) => Promise<unknown>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const nameInput = useRef<ComponentRef<typeof Input>>(null);
  useEffect(() => {
    if (open) form.setFieldsValue(initial ?? { name: '', description: '' });
  }, [open, initial, form]);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await onSubmit(practiceCreateSchema.parse(values));
      onClose();
    } catch (error) {
      if (showFieldErrors(form, error)) return;
      if ((error as { data?: { code?: string } })?.data?.code === 'practice_name_taken') {
        form.setFields([{ name: 'name', errors: [ERROR_MESSAGES.practice_name_taken] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={title}
      open={open}
      okText={okText}
      onOk={() => form.submit()}
      okButtonProps={{ loading: saving }}
      onCancel={onClose}
      destroyOnHidden
      // the dialog takes the focus when it opens: the name gets it back once it is shown, every time
      afterOpenChange={(shown) => {
        if (shown) nameInput.current?.focus();
      }}
    >
      <Form<Values>
        form={form}
        name={formName}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={initial ?? { name: '', description: '' }}
      >
        <Form.Item name="name" label="Name" rules={[schemaRule(practiceCreateSchema.shape.name)]}>
          <Input ref={nameInput} autoFocus maxLength={80} />
        </Form.Item>
        <Form.Item
          name="description"
          label="Description"
          rules={[schemaRule(practiceCreateSchema.shape.description, { skipEmpty: true })]}
        >
          <Input.TextArea rows={3} maxLength={1000} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
