/** Asks for a protected transfer's passphrase before downloading one of its files; a wrong one is said at the field. */
import { useState } from 'react';
import { Alert, Form, Input, Modal } from '@portal/shared/ui/extra';
import type { Transfer, TransferFile } from '@portal/shared/core/files';
import { downloadFile } from '../../../app/download';
import { UploadError } from '../../../app/upload';

const PASSPHRASE_CODES = new Set(['transfer_passphrase_incorrect', 'transfer_passphrase_required']);

export function PassphraseModal({
  target,
  onClose,
  onDownloaded,
}: {
  target: { transfer: Transfer; file: TransferFile } | null;
  onClose: () => void;
  /** The passphrase worked: kept for the transfer's other files while the page is open. */
  onDownloaded: (transfer: Transfer, passphrase: string) => void;
}) {
  const [form] = Form.useForm<{ passphrase: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    form.resetFields();
    setError(null);
    onClose();
  };

  const submit = async ({ passphrase }: { passphrase: string }) => {
    if (!target) return;
    setBusy(true);
    setError(null);
    try {
      await downloadFile(target.file.id, { passphrase });
      onDownloaded(target.transfer, passphrase);
      close();
    } catch (e) {
      const failure = e instanceof UploadError ? e : null;
      if (failure?.code && PASSPHRASE_CODES.has(failure.code))
        form.setFields([{ name: 'passphrase', errors: [failure.message] }]);
      else setError(failure?.message ?? 'The download could not start. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={target ? `Download ${target.file.name}` : 'Download'}
      okText="Download"
      onOk={() => form.submit()}
      okButtonProps={{ loading: busy }}
      onCancel={close}
      destroyOnHidden
    >
      <p>This transfer is protected: enter the passphrase its sender gave you.</p>
      {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} /> : null}
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="passphrase" label="Passphrase" rules={[{ required: true, message: 'Enter the passphrase' }]}>
          <Input.Password autoFocus autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
