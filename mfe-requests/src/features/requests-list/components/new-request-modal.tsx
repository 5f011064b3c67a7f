/**
 * "New request": a request of the selected company. Enter in a field submits (in the Due date picker it
 * only confirms the day), Escape closes (not while it is being created); the api's field errors land under their fields, others in an alert at the top.
 * On success the new request opens.
 */
import { useState } from 'react';
import { useNavigate } from '@portal/shared/web/router';
import { Alert, Form, Modal } from '@portal/shared/ui/extra';
import { errorMessage } from '@portal/shared/web/api';
import { publishToast } from '@portal/shared/web/events';
import { requestPath } from '../../../app/paths';
import { useRequestCreateMutation } from '../../../app/requests-api';
import {
  markRequestFormErrors,
  RequestFormFields,
  requestFormBody,
  requestFormValues,
  type RequestFormValues,
} from '../../../app/request-form/request-form';

export function NewRequestModal({ companyId, onClose }: { companyId: string; onClose: () => void }) {
  const [form] = Form.useForm<RequestFormValues>();
  const [create, { isLoading: busy }] = useRequestCreateMutation();
  const [problems, setProblems] = useState<string[]>([]);
  const navigate = useNavigate();

  const finish = async (values: RequestFormValues) => {
    setProblems([]);
    try {
      const request = await create({ companyId, body: requestFormBody(values) }).unwrap();
      publishToast({ severity: 'success', summary: `Request ${request.reference} created` });
      onClose();
      navigate(requestPath(request.id));
    } catch (error) {
      const rest = markRequestFormErrors(form, error);
      const message = errorMessage(error);
      if (rest.length) setProblems(rest);
      else if (message && !(error as { data?: { details?: unknown[] } }).data?.details?.length) setProblems([message]);
    }
  };

  return (
    <Modal
      open
      title="New request"
      okText="Create request"
      width={640}
      okButtonProps={{ htmlType: 'submit', loading: busy }}
      cancelButtonProps={{ disabled: busy }}
      closable={{ disabled: busy }}
      keyboard={!busy}
      onCancel={() => {
        if (!busy) onClose();
      }}
      destroyOnHidden
      // The whole dialog is the form, so its OK button is the form's submit button and Enter submits.
      modalRender={(dom) => (
        <Form<RequestFormValues>
          form={form}
          name="new-request"
          layout="vertical"
          initialValues={requestFormValues()}
          onFinish={(v) => void finish(v)}
        >
          {dom}
        </Form>
      )}
    >
      {problems.length ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          title="The request could not be created"
          description={
            problems.length === 1 ? (
              problems[0]
            ) : (
              <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                {problems.map((p, i) => (
                  <li key={i}>{p}</li>
                ))}
              </ul>
            )
          }
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <RequestFormFields companyId={companyId} />
    </Modal>
  );
}
