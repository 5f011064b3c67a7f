import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import { Alert, Card, Descriptions, EditOutlined, Form, Modal, Tag, Typography } from '@portal/shared/ui/extra';
import { Link } from '@portal/shared/web/router';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { useSelector } from '@portal/shared/web/store';
import { fieldErrors } from '@portal/shared/web/api';
import { formatDate, formatDateTime } from '@portal/shared/core/dates';
import { REQUEST_PRIORITY_LABELS, type RequestDetail } from '@portal/shared/core/requests';
import { REQUEST_OVERDUE_COLOR, REQUEST_PRIORITY_COLORS, isOverdueLocally } from '../../../app/labels';
import { useRequestUpdateMutation } from '../../../app/requests-api';
import {
  markRequestFormErrors,
  RequestFormFields,
  requestFormBody,
  requestFormValues,
  type RequestFormValues,
} from '../../../app/request-form/request-form';
import { apiErrorMessage } from '../model/errors';
import { personName } from '../model/labels';

const part = encodeURIComponent;
const projectPath = (projectId: string) => `/v2/projects/${part(projectId)}`;

type Root = { session: SessionState };

/**
 * Whether the projects module is open to the user in the request's company: else its project, task and
 * control pages would only refuse them, so the details name them without links.
 */
function useProjectsOpen(companyId: string): boolean {
  const companies = useSelector((s: Root) => sessionSelectors.selectCompanies(s));
  const selected = useSelector((s: Root) => sessionSelectors.selectSelectedCompany(s));
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  const company = selected?.id === companyId ? selected : companies.find((c) => c.id === companyId);
  if (company && !company.modulesAccess.projects) return false;
  // the effective access is the selected company's
  return !(selected?.id === companyId && access?.modulesAccess.projects === false);
}

const none = (text: string) => <Typography.Text type="secondary">{text}</Typography.Text>;

function multiline(text: string | null, empty: string) {
  return text ? (
    <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{text}</Typography.Paragraph>
  ) : (
    none(empty)
  );
}

/**
 * "Edit request": the create form's fields filled with the request; only what changed is sent. A
 * refusal keeps the modal open with everything typed, the reasons on their fields.
 */
function EditRequestModal({ request, open, onClose }: { request: RequestDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<RequestFormValues>();
  const [update, { isLoading }] = useRequestUpdateMutation();
  const [failure, setFailure] = useState<string | null>(null);

  const finish = async (values: RequestFormValues) => {
    setFailure(null);
    const body = requestFormBody(values, request);
    if (!Object.keys(body).length) {
      onClose();
      return;
    }
    try {
      await update({ requestId: request.id, body }).unwrap();
      onClose();
    } catch (error) {
      // reasons of fields the form shows go on them; any other reason (or a refusal naming none) above them
      const rest = markRequestFormErrors(form, error);
      if (!fieldErrors(error).length) setFailure(apiErrorMessage(error, 'The request could not be saved. Try again.'));
      else if (rest.length) setFailure(rest.join(' '));
    }
  };

  return (
    <Modal
      title="Edit request"
      open={open}
      okText="Save"
      okButtonProps={{ htmlType: 'submit', loading: isLoading }}
      cancelButtonProps={{ disabled: isLoading }}
      closable={{ disabled: isLoading }}
      keyboard={!isLoading}
      onCancel={() => {
        if (!isLoading) onClose();
      }}
      destroyOnHidden
      modalRender={(dom) => (
        <Form<RequestFormValues>
          form={form}
          layout="vertical"
          initialValues={requestFormValues(request)}
          onFinish={(v) => void finish(v)}
          clearOnDestroy
        >
          {dom}
        </Form>
      )}
    >
      {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} /> : null}
      <RequestFormFields companyId={request.companyId} current={request} />
    </Modal>
  );
}

/** What the request is about and who is on it; staff managers edit it here. */
export function RequestDetails({ request }: { request: RequestDetail }) {
  const [editing, setEditing] = useState(false);
  const linked = useProjectsOpen(request.companyId);
  const taskName = request.task ? [request.task.referenceId, request.task.title].filter(Boolean).join(' ') : '';
  const controlName = request.control ? `${request.control.name} — ${request.control.title}` : '';
  const assignees = [...request.assignees.map((u) => personName(u)), ...request.teams.map((t) => `Team: ${t.name}`)];
  const items = [
    {
      key: 'priority',
      label: 'Priority',
      children: (
        <Tag color={REQUEST_PRIORITY_COLORS[request.priority]}>{REQUEST_PRIORITY_LABELS[request.priority]}</Tag>
      ),
    },
    {
      key: 'dueDate',
      label: 'Due date',
      children: request.dueDate ? (
        <>
          {formatDate(request.dueDate)}
          {isOverdueLocally(request) ? (
            <Tag color={REQUEST_OVERDUE_COLOR} style={{ marginLeft: 8 }}>
              Overdue
            </Tag>
          ) : null}
        </>
      ) : (
        none('No due date')
      ),
    },
    {
      key: 'requester',
      label: 'Requester',
      children: request.requester ? personName(request.requester) : none('Former user'),
    },
    {
      key: 'assignees',
      label: 'Assignees',
      children: assignees.length ? assignees.join(', ') : none('No one assigned'),
    },
    {
      key: 'project',
      label: 'Project',
      children: !request.project ? (
        none('No project')
      ) : linked ? (
        <Link to={projectPath(request.project.id)}>{request.project.title}</Link>
      ) : (
        request.project.title
      ),
    },
    ...(request.task
      ? [
          {
            key: 'task',
            label: 'Task',
            children:
              request.project && linked ? (
                <Link to={`${projectPath(request.project.id)}/tasks/${part(request.task.id)}`}>{taskName}</Link>
              ) : (
                taskName
              ),
          },
        ]
      : []),
    ...(request.control
      ? [
          {
            key: 'control',
            label: 'Control',
            children:
              request.project && linked ? (
                <Link to={`${projectPath(request.project.id)}/controls/${part(request.control.id)}`}>
                  {controlName}
                </Link>
              ) : (
                controlName
              ),
          },
        ]
      : []),
    { key: 'createdAt', label: 'Created', children: formatDateTime(request.createdAt) },
    { key: 'updatedAt', label: 'Updated', children: formatDateTime(request.updatedAt) },
    {
      key: 'description',
      label: 'Description',
      span: 'filled' as const,
      children: multiline(request.description, 'No description.'),
    },
    ...(request.permissions.manage || request.internalNote
      ? [
          {
            key: 'internalNote',
            label: 'Internal note (staff only)',
            span: 'filled' as const,
            children: multiline(request.internalNote, 'No internal note.'),
          },
        ]
      : []),
  ];
  return (
    <Card
      title="Details"
      data-testid="request-details"
      extra={
        request.permissions.manage ? (
          <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
            Edit
          </Button>
        ) : null
      }
    >
      <Descriptions size="small" column={{ xs: 1, md: 2 }} items={items} />
      {request.permissions.manage ? (
        <EditRequestModal request={request} open={editing} onClose={() => setEditing(false)} />
      ) : null}
    </Card>
  );
}
