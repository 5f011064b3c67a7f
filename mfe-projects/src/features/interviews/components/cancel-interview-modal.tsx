/**
 * Asks before an interview is canceled, with an optional reason for the participants (their calendars
 * receive a cancellation). A refusal (already started, already canceled...) shows in the dialog, which
 * stays open.
 */
import { useState } from 'react';
import { Form, Input, Modal, Typography } from '@portal/shared/ui/extra';
import { publishToast } from '@portal/shared/web/events';
import { schemaRule } from '@portal/shared/core/errors';
import { interviewCancelSchema, type Interview } from '@portal/shared/core/interviews';
import { interviewsApi } from '../interviews-api';
import { interviewWhen } from '../model/interview-list';
import { FailureAlert, failureOf, type Failure } from './failure-alert';

export function CancelInterviewModal({
  projectId,
  open,
  interview,
  onClose,
}: {
  projectId: string;
  open: boolean;
  interview: Interview | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ reason?: string }>();
  const [cancel, { isLoading }] = interviewsApi.useInterviewsCancelMutation();
  const [failure, setFailure] = useState<Failure | null>(null);

  const close = () => {
    if (isLoading) return;
    setFailure(null);
    onClose();
  };

  const finish = async ({ reason }: { reason?: string }) => {
    if (!interview) return;
    setFailure(null);
    try {
      await cancel({
        projectId,
        interviewId: interview.id,
        body: reason?.trim() ? { reason: reason.trim() } : {},
      }).unwrap();
    } catch (error) {
      setFailure(failureOf(error, 'The interview could not be canceled.'));
      return;
    }
    publishToast({
      severity: 'success',
      summary: 'Interview canceled',
      detail: `${interview.title}: the participants are told.`,
    });
    onClose();
  };

  return (
    <Modal
      title="Cancel interview?"
      open={open && Boolean(interview)}
      okText="Cancel interview"
      cancelText="Keep interview"
      okButtonProps={{ htmlType: 'submit', danger: true, loading: isLoading }}
      cancelButtonProps={{ disabled: isLoading }}
      closable={{ disabled: isLoading }}
      keyboard={!isLoading}
      onCancel={close}
      destroyOnHidden
      modalRender={(dom) => (
        <Form form={form} layout="vertical" onFinish={finish} clearOnDestroy>
          {dom}
        </Form>
      )}
    >
      {interview ? (
        <Typography.Paragraph>
          <Typography.Text strong>{interview.title}</Typography.Text> on {interviewWhen(interview)} will be canceled.
          Everyone invited receives a cancellation for their calendar.
        </Typography.Paragraph>
      ) : null}
      <FailureAlert failure={failure} />
      <Form.Item
        name="reason"
        label="Reason (optional)"
        rules={[schemaRule(interviewCancelSchema.shape.reason, { skipEmpty: true })]}
      >
        <Input.TextArea rows={3} autoFocus placeholder="Told to the participants" />
      </Form.Item>
    </Modal>
  );
}
