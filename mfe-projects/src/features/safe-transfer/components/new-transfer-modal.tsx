/**
 * "New transfer": recipients, a message, an expiry, an optional passphrase and the files, sent as one
 * streamed upload with its progress and a Cancel. A failed or canceled send keeps what was entered.
 */
import { createContext, useContext, useRef, useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  DeleteOutlined,
  Flex,
  Form,
  InboxOutlined,
  Input,
  Modal,
  Progress,
  Select,
  Typography,
} from '@portal/shared/ui/extra';
import { FileTypeIcon } from '@portal/shared/ui/components';
import {
  formatBytes,
  TRANSFER_EXPIRY_DAYS,
  TRANSFER_EXPIRY_DEFAULT_DAYS,
  TRANSFER_MAX_FILES,
  TRANSFER_MESSAGE_MAX,
  transferFieldsSchema,
  type Transfer,
} from '@portal/shared/core/files';
import { schemaRule } from '@portal/shared/core/errors';
import { useFileDrop, useStrayFileDropGuard } from '@portal/shared/web/hooks';
import { transfersApi } from '../../../app/transfers-api';
import { UploadError, uploadForm } from '../../../app/upload';
import { addFiles, transferForm, type TransferFormValues } from '../model/transfer-form';

const FORM_FIELDS = new Set(['recipientIds', 'message', 'expiresInDays', 'passphrase']);
const EXPIRY_OPTIONS = TRANSFER_EXPIRY_DAYS.map((d) => ({ value: d, label: `${d} ${d === 1 ? 'day' : 'days'}` }));

/**
 * Whether the dialog is open. A context, not a prop: a closed antd Modal does not re-render its content
 * with new props, but context still reaches it.
 */
const DialogOpen = createContext(false);

/** Drop or paste files here (only while the pointer is over it and the dialog is open), or choose them. */
function FileDropZone({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled: boolean }) {
  const open = useContext(DialogOpen);
  const { ref, over } = useFileDrop<HTMLDivElement>((files) => {
    if (!disabled) onFiles(files);
  }, open);
  const input = useRef<HTMLInputElement>(null);
  return (
    <div
      ref={ref}
      data-testid="transfer-drop-zone"
      style={{
        border: `1px dashed ${over ? '#1677ff' : '#d9d9d9'}`,
        background: over ? 'rgba(22, 119, 255, 0.06)' : undefined,
        borderRadius: 8,
        padding: 16,
        textAlign: 'center',
      }}
    >
      <InboxOutlined style={{ fontSize: 28, color: '#1677ff' }} aria-hidden />
      <p style={{ margin: '8px 0' }}>Drop files here, or paste them while the pointer is over this box.</p>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label="Choose files"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      <Button onClick={() => input.current?.click()} disabled={disabled}>
        Choose files
      </Button>
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
        Up to {TRANSFER_MAX_FILES} files, 100 MB each.
      </Typography.Paragraph>
    </div>
  );
}

export function NewTransferModal({
  open,
  companyId,
  onClose,
  onSent,
}: {
  open: boolean;
  companyId: string;
  onClose: () => void;
  onSent: (transfer: Transfer) => void;
}) {
  const [form] = Form.useForm<TransferFormValues>();
  const recipients = transfersApi.useTransfersRecipientsQuery(companyId, { skip: !open });
  const [files, setFiles] = useState<File[]>([]);
  const [rejected, setRejected] = useState<string[]>([]);
  const [filesError, setFilesError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const sending = useRef<AbortController | null>(null);
  // while the dialog is open, a file dropped beside the box does not replace the portal
  useStrayFileDropGuard(open);

  const close = () => {
    // the passphrase is not kept for the next time the dialog opens
    form.setFieldValue('passphrase', '');
    onClose();
  };

  const add = (added: File[]) => {
    const next = addFiles(files, added);
    setFiles(next.files);
    setRejected(next.rejected);
    if (next.files.length) setFilesError(null);
  };

  const cancelSend = () => sending.current?.abort();

  const send = async (values: TransferFormValues) => {
    const controller = new AbortController();
    sending.current = controller;
    setFormError(null);
    setFilesError(null);
    setProgress(0);
    try {
      const transfer = await uploadForm<Transfer>(
        `/companies/${encodeURIComponent(companyId)}/transfers`,
        transferForm(values, files),
        {
          signal: controller.signal,
          onProgress: (sent, total) => setProgress(total ? Math.min(99, Math.floor((sent / total) * 100)) : 0),
        },
      );
      form.resetFields();
      setFiles([]);
      setRejected([]);
      onSent(transfer);
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') {
        setFormError('Sending was canceled. Nothing was sent.');
      } else if (e instanceof UploadError) {
        const onFields = e.details.filter((d) => FORM_FIELDS.has(d.field));
        form.setFields(onFields.map((d) => ({ name: d.field as keyof TransferFormValues, errors: [d.message] })));
        const onFiles = e.details.find((d) => d.field === 'files' || d.field === 'file');
        if (onFiles) setFilesError(onFiles.message);
        // What no field can show (a lost connection, a refusal) is said above the form.
        if (onFields.length === 0 && !onFiles) setFormError(e.message);
      } else {
        setFormError('The transfer could not be sent. Try again.');
      }
    } finally {
      sending.current = null;
      setProgress(null);
    }
  };

  const submit = async () => {
    if (files.length === 0) setFilesError('Add at least one file.');
    let values: TransferFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    if (files.length === 0) return;
    await send(values);
  };

  const isSending = progress !== null;
  return (
    <DialogOpen.Provider value={open}>
      <Modal
        open={open}
        title="New transfer"
        width={640}
        mask={{ closable: !isSending }}
        onCancel={isSending ? cancelSend : close}
        footer={
          isSending ? (
            <Flex gap="middle" align="center">
              <Progress
                percent={progress}
                status="active"
                style={{ flex: 1, margin: 0 }}
                aria-label="Sending the transfer"
              />
              <Button onClick={cancelSend}>Cancel</Button>
            </Flex>
          ) : (
            <Flex gap="small" justify="flex-end">
              <Button onClick={close}>Close</Button>
              <Button type="primary" onClick={() => void submit()}>
                Send
              </Button>
            </Flex>
          )
        }
      >
        {formError ? <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} /> : null}
        <Form<TransferFormValues>
          form={form}
          layout="vertical"
          disabled={isSending}
          initialValues={{ recipientIds: [], expiresInDays: TRANSFER_EXPIRY_DEFAULT_DAYS, message: '', passphrase: '' }}
        >
          <Form.Item
            name="recipientIds"
            label="Recipients"
            validateFirst
            rules={[
              { type: 'array', required: true, message: 'Choose at least one recipient' },
              schemaRule(transferFieldsSchema.shape.recipientIds),
            ]}
          >
            <Select
              mode="multiple"
              placeholder="Search people of the company"
              loading={recipients.isLoading}
              showSearch={{ optionFilterProp: 'label' }}
              options={(recipients.data ?? []).map((u) => ({
                value: u.id,
                label: `${u.name} (${u.email})${u.staff ? ' · staff' : ''}`,
              }))}
              notFoundContent={recipients.isError ? 'The recipients could not be loaded' : undefined}
            />
          </Form.Item>
          <Form.Item
            name="message"
            label="Message"
            rules={[schemaRule(transferFieldsSchema.shape.message, { skipEmpty: true })]}
          >
            <Input.TextArea rows={3} maxLength={TRANSFER_MESSAGE_MAX} showCount />
          </Form.Item>
          <Flex gap="middle" wrap>
            <Form.Item name="expiresInDays" label="Expires after" style={{ minWidth: 160 }}>
              <Select options={EXPIRY_OPTIONS} />
            </Form.Item>
            <Form.Item
              name="passphrase"
              label="Passphrase (optional)"
              extra="Tell it to the recipients another way: they need it to download."
              rules={[schemaRule(transferFieldsSchema.shape.passphrase, { skipEmpty: true })]}
              style={{ flex: 1, minWidth: 240 }}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </Flex>
          <Form.Item
            label="Files"
            required
            validateStatus={filesError ? 'error' : undefined}
            help={filesError ?? undefined}
          >
            <FileDropZone onFiles={add} disabled={isSending} />
          </Form.Item>
        </Form>
        {rejected.length ? (
          <Alert
            type="warning"
            showIcon
            title="Some files were not added"
            description={
              <ul style={{ margin: 0, paddingLeft: 16 }}>
                {rejected.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            }
            style={{ marginBottom: 12 }}
          />
        ) : null}
        {files.length ? (
          <ul
            aria-label="Files to send"
            style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 6 }}
          >
            {files.map((file, i) => (
              <li key={`${file.name}-${i}`}>
                <Flex gap="small" align="center">
                  <FileTypeIcon name={file.name} />
                  <span style={{ flex: 1, overflowWrap: 'anywhere' }}>{file.name}</span>
                  <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
                  <Button
                    size="small"
                    type="text"
                    icon={<DeleteOutlined />}
                    disabled={isSending}
                    aria-label={`Remove ${file.name}`}
                    onClick={() => setFiles((current) => current.filter((f) => f !== file))}
                  />
                </Flex>
              </li>
            ))}
          </ul>
        ) : null}
      </Modal>
    </DialogOpen.Provider>
  );
}
