import { useState, type ReactNode } from 'react';
import { Form, Modal } from '@portal/shared/ui/extra';
import { markServerErrors } from '../model/forms';

export interface FormModalProps<T> {
  title: string;
  okText: string;
  open: boolean;
  initialValues?: Partial<T>;
  /** Rejects with the api's error to keep the modal open. */
  onSubmit: (values: T) => Promise<unknown>;
  onClose: () => void;
  children: ReactNode;
  danger?: boolean;
}

/** What a modal built on FormModal takes: FormModal's props but its own fields. */
export type FormModalUse<T> = Omit<FormModalProps<T>, 'children' | 'danger'>;

/**
 * A modal form: Enter in a field submits (the OK button is the form's submit button), Escape closes,
 * OK shows the request running (Cancel, the close button and Escape then do nothing) and the modal
 * stays open on failure with the api's field errors on the fields (the toast is the shell's). Put
 * `autoFocus` on the first input.
 */
export function FormModal<T extends object>({
  title,
  okText,
  open,
  initialValues,
  onSubmit,
  onClose,
  children,
  danger = false,
}: FormModalProps<T>) {
  const [form] = Form.useForm<T>();
  const [busy, setBusy] = useState(false);

  const finish = async (values: T) => {
    setBusy(true);
    try {
      await onSubmit(values);
      onClose();
    } catch (error) {
      markServerErrors(form, error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={title}
      open={open}
      okText={okText}
      okButtonProps={{ htmlType: 'submit', loading: busy, danger }}
      cancelButtonProps={{ disabled: busy }}
      closable={{ disabled: busy }}
      keyboard={!busy}
      onCancel={() => {
        if (!busy) onClose();
      }}
      destroyOnHidden
      modalRender={(dom) => (
        <Form<T> form={form} layout="vertical" initialValues={initialValues} onFinish={finish} clearOnDestroy>
          {dom}
        </Form>
      )}
    >
      {children}
    </Modal>
  );
}
