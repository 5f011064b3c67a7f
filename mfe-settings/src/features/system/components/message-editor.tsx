import { useMemo } from 'react';
import { Alert, Divider, Form, Input, Modal, Radio, Typography } from '@portal/shared/ui/extra';
import { theme } from '@portal/shared/ui';
import {
  PORTAL_MESSAGE_MAX_LENGTH,
  portalMessageBodySchema,
  portalMessageKeySchema,
  type PortalMessage,
  type PortalMessageBody,
} from '@portal/shared/core/schemas';
import { sanitizeMessageHtml } from '@portal/shared/web/sanitize';
import { showFieldErrors, schemaRule } from '../../../app/forms';
import { useSettingsMessagesCreateMutation, useSettingsMessagesUpdateMutation } from '../api/system-api';
import { MessageFiles } from './message-files';

interface MessageForm {
  key: PortalMessage['key'];
  status: PortalMessage['status'];
  value: string;
}

/** A portal message's form with a live preview of the sanitized HTML, and its attached files once it exists. */
export function MessageEditor({ message, onClose }: { message: PortalMessage | null; onClose: () => void }) {
  const { token } = theme.useToken();
  const [form] = Form.useForm<MessageForm>();
  const [create, { isLoading: creating }] = useSettingsMessagesCreateMutation();
  const [update, { isLoading: updating }] = useSettingsMessagesUpdateMutation();
  const value = Form.useWatch('value', form) ?? message?.value ?? '';
  // Only the sanitized string reaches the page: scripts, handlers and javascript: URLs are gone.
  const preview = useMemo(() => sanitizeMessageHtml(value), [value]);

  const submit = async (values: MessageForm) => {
    const body: PortalMessageBody = portalMessageBodySchema.parse(values);
    try {
      if (message) await update({ id: message.id, body }).unwrap();
      else await create(body).unwrap();
      onClose();
    } catch (error) {
      showFieldErrors(form, error);
    }
  };

  return (
    <Modal
      open
      width={960}
      title={message ? 'Edit message' : 'New message'}
      okText="Save message"
      onOk={() => form.submit()}
      confirmLoading={creating || updating}
      onCancel={onClose}
    >
      <Form<MessageForm>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          key: message?.key ?? 'banner',
          status: message?.status ?? 'inactive',
          value: message?.value ?? '',
        }}
      >
        <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap' }}>
          <Form.Item name="key" label="Key" rules={[schemaRule(portalMessageKeySchema)]}>
            <Radio.Group
              name="message-key"
              optionType="button"
              options={[
                { value: 'banner', label: 'Banner' },
                { value: 'help', label: 'Help' },
                { value: 'bell', label: 'Bell' },
              ]}
            />
          </Form.Item>
          <Form.Item name="status" label="Status" rules={[schemaRule(portalMessageBodySchema.shape.status)]}>
            <Radio.Group
              name="message-status"
              optionType="button"
              options={[
                { value: 'active', label: 'Active' },
                { value: 'inactive', label: 'Inactive' },
              ]}
            />
          </Form.Item>
        </div>
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))', gap: 16 }}>
          <Form.Item name="value" label="HTML" rules={[schemaRule(portalMessageBodySchema.shape.value)]}>
            <Input.TextArea
              rows={10}
              showCount
              maxLength={PORTAL_MESSAGE_MAX_LENGTH}
              style={{ fontFamily: token.fontFamilyCode }}
            />
          </Form.Item>
          <div>
            <Typography.Text id="message-preview-label" strong>
              Preview
            </Typography.Text>
            <div
              role="region"
              aria-labelledby="message-preview-label"
              style={{
                marginTop: 8,
                padding: 12,
                minHeight: 120,
                border: `1px solid ${token.colorBorderSecondary}`,
                borderRadius: token.borderRadius,
                overflow: 'auto',
              }}
              dangerouslySetInnerHTML={{ __html: preview }}
            />
          </div>
        </div>
      </Form>
      <Divider />
      <Typography.Title level={5}>Attached files</Typography.Title>
      {message ? (
        <MessageFiles messageId={message.id} />
      ) : (
        <Alert type="info" showIcon title="Save the message first, then edit it to attach files." />
      )}
    </Modal>
  );
}
