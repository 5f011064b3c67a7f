import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import { Alert, Form, Input, Modal, Space, Tooltip } from '@portal/shared/ui/extra';
import { markShownOnPage } from '@portal/shared/core/errors';
import { fieldErrors } from '@portal/shared/web/api';
import {
  REQUEST_ACTION_LABELS,
  REQUEST_ACTIONS,
  REQUEST_LIMITS,
  type RequestAction,
  type RequestDetail,
} from '@portal/shared/core/requests';
import { useRequestTransitionMutation } from '../../../app/requests-api';
import { apiErrorMessage, errorCode } from '../model/errors';

/** What the page shows after an action was refused. */
export type ActionOutcome = { kind: 'stale' } | { kind: 'failed'; message: string };

const REASON_REQUIRED = 'Give the reason for returning the request.';

/** Why Submit waits while evidence is on its way (submitting would lock the request before it arrives). */
export const WAIT_FOR_UPLOADS = 'Wait for the uploads to finish';

/** Why Submit is off on a request without evidence (the api refuses it: request_evidence_missing). */
export const EVIDENCE_FIRST = 'Attach at least one evidence file before submitting.';

/**
 * "Return request": the reason is required and kept in the box when the api refuses (the request moved
 * on meanwhile: the page reloads it and says so).
 */
function ReturnModal({
  open,
  onClose,
  onReturn,
}: {
  open: boolean;
  onClose: () => void;
  onReturn: (reason: string) => Promise<ActionOutcome | null>;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const finish = async ({ reason }: { reason: string }) => {
    setBusy(true);
    setFailure(null);
    try {
      const outcome = await onReturn(reason.trim());
      if (!outcome) onClose();
      else if (outcome.kind === 'stale')
        setFailure(
          'The request changed while you were looking at it, so it was reloaded. Check it before returning it.',
        );
      else setFailure(outcome.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="Return request"
      open={open}
      okText="Return request"
      okButtonProps={{ htmlType: 'submit', loading: busy }}
      cancelButtonProps={{ disabled: busy }}
      closable={{ disabled: busy }}
      keyboard={!busy}
      onCancel={() => {
        if (!busy) onClose();
      }}
      destroyOnHidden
      modalRender={(dom) => (
        <Form form={form} layout="vertical" onFinish={(v) => void finish(v)} clearOnDestroy>
          {dom}
        </Form>
      )}
    >
      {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} /> : null}
      <Form.Item
        name="reason"
        label="Reason"
        extra="The client sees it and works on the evidence again."
        rules={[
          { required: true, whitespace: true, message: REASON_REQUIRED },
          { max: REQUEST_LIMITS.reason, message: `The reason must be at most ${REQUEST_LIMITS.reason} characters.` },
        ]}
      >
        <Input.TextArea rows={4} autoFocus maxLength={REQUEST_LIMITS.reason} />
      </Form.Item>
    </Modal>
  );
}

/**
 * The workflow buttons the api allows the caller now (permissions.actions). Each sends the status the
 * caller saw, so a change made meanwhile is refused (409 request_status_changed) instead of applied to
 * a request the user has not seen; the page then reloads it and says so. While evidence uploads run
 * (`uploadsBusy`), Submit waits and says why.
 */
export function RequestActions({
  request,
  uploadsBusy = false,
  onOutcome,
}: {
  request: RequestDetail;
  uploadsBusy?: boolean;
  onOutcome: (outcome: ActionOutcome | null) => void;
}) {
  const [modal, modalHolder] = Modal.useModal();
  const [transition] = useRequestTransitionMutation();
  const [running, setRunning] = useState<RequestAction | null>(null);
  const [returning, setReturning] = useState(false);
  const actions = REQUEST_ACTIONS.filter((a) => request.permissions.actions.includes(a));

  const run = async (action: RequestAction, reason?: string): Promise<ActionOutcome | null> => {
    setRunning(action);
    onOutcome(null);
    try {
      await transition({
        requestId: request.id,
        body: { action, expectedStatus: request.status, ...(reason ? { reason } : {}) },
      }).unwrap();
      return null;
    } catch (error) {
      // the page says it (onOutcome): no toast besides
      markShownOnPage(error);
      const outcome: ActionOutcome =
        errorCode(error) === 'request_status_changed'
          ? { kind: 'stale' }
          : {
              kind: 'failed',
              message:
                fieldErrors(error)[0]?.errors[0] ??
                apiErrorMessage(error, `${REQUEST_ACTION_LABELS[action]} failed. Try again.`),
            };
      onOutcome(outcome);
      return outcome;
    } finally {
      setRunning(null);
    }
  };

  const confirmCancel = () =>
    void modal.confirm({
      title: `Cancel ${request.reference}?`,
      content: 'Nobody works on a canceled request any more. It can be reopened later.',
      okText: 'Cancel request',
      okButtonProps: { danger: true },
      cancelText: 'Keep it',
      // a refusal shows on the page; the dialog closes either way
      onOk: () => run('cancel'),
    });

  return (
    <>
      {modalHolder}
      {actions.length ? (
        <Space wrap>
          {actions.map((action) => {
            // Submit waits for uploads under way, and is off without evidence: either way it says why
            const waitReason =
              action !== 'submit'
                ? null
                : uploadsBusy
                  ? WAIT_FOR_UPLOADS
                  : request.files.length
                    ? null
                    : EVIDENCE_FIRST;
            const waiting = waitReason !== null;
            const button = (
              <Button
                key={action}
                type={action === 'submit' || action === 'accept' ? 'primary' : 'default'}
                danger={action === 'cancel'}
                loading={running === action}
                disabled={waiting || (running !== null && running !== action)}
                aria-describedby={waiting ? 'request-submit-waits' : undefined}
                onClick={() => {
                  if (waiting) return;
                  if (action === 'return') setReturning(true);
                  else if (action === 'cancel') confirmCancel();
                  else void run(action);
                }}
              >
                {REQUEST_ACTION_LABELS[action]}
              </Button>
            );
            return waiting ? (
              <span key={action}>
                <Tooltip title={waitReason}>{button}</Tooltip>
                <span id="request-submit-waits" hidden>
                  {waitReason}
                </span>
              </span>
            ) : (
              button
            );
          })}
        </Space>
      ) : null}
      {/* mounted whatever the actions: a reload that takes Return away keeps the reason typed */}
      <ReturnModal open={returning} onClose={() => setReturning(false)} onReturn={(reason) => run('return', reason)} />
    </>
  );
}
