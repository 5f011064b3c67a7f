/**
 * The bar staff managers see once rows are selected: "<n> selected", and one change to all of them
 * (Assign, Set due date, Change status), each in a small dialog whose "Apply" sends one bulk call. The
 * call is all or nothing: a refusal (a request that cannot take the change, with the references the
 * server names) stays in the dialog and nothing changed. After a change the list is read again.
 */
import { useState, type ReactNode } from 'react';
import { Button } from '@portal/shared/ui/button';
import { DatePicker, Flex, Form, Modal, Radio, Select, Typography, type Dayjs } from '@portal/shared/ui/extra';
import type { RequestBulk, RequestBulkResult } from '@portal/shared/core/requests';
import { publishToast } from '@portal/shared/web/events';
import { apiProblemReport, type ProblemReport } from '@portal/shared/web/task-tracker-import';
import { ImportProblemAlert } from '@portal/shared/ui/task-tracker-import';
import { countOf } from '../../../app/labels';
import { useRequestAssigneeOptionsQuery, useRequestBulkMutation } from '../../../app/requests-api';
import { assigneeOptions, DAY_INPUT_FORMATS, splitAssignees } from '../../../app/request-form/request-form';

type BulkChange = 'assign' | 'dueDate' | 'status';

export function BulkBar({
  companyId,
  requestIds,
  onDone,
}: {
  companyId: string;
  requestIds: string[];
  onDone: () => void;
}) {
  const [open, setOpen] = useState<BulkChange | null>(null);
  const close = () => setOpen(null);
  const done = () => {
    setOpen(null);
    onDone();
  };
  const props = { companyId, requestIds, onClose: close, onDone: done };
  return (
    <Flex
      role="region"
      aria-label="Bulk actions"
      gap="small"
      align="center"
      wrap
      style={{
        padding: '8px 12px',
        border: '1px solid rgba(22, 119, 255, 0.35)',
        background: 'rgba(22, 119, 255, 0.06)',
        borderRadius: 8,
      }}
    >
      <Typography.Text strong aria-live="polite">{`${requestIds.length} selected`}</Typography.Text>
      <Button onClick={() => setOpen('assign')}>Assign</Button>
      <Button onClick={() => setOpen('dueDate')}>Set due date</Button>
      <Button onClick={() => setOpen('status')}>Change status</Button>
      <Button type="link" onClick={onDone} style={{ marginLeft: 'auto' }}>
        Clear selection
      </Button>
      {open === 'assign' ? <AssignModal {...props} /> : null}
      {open === 'dueDate' ? <DueDateModal {...props} /> : null}
      {open === 'status' ? <StatusModal {...props} /> : null}
    </Flex>
  );
}

interface BulkModalProps {
  companyId: string;
  requestIds: string[];
  onClose: () => void;
  onDone: () => void;
}

/**
 * A bulk dialog: its form's values become one bulk call on Apply (Enter in a field too). While it runs,
 * Cancel, the close button and Escape do nothing; a refusal shows at the top and the dialog stays.
 * `toBody` returns null when the form's own check failed (it has marked the fields).
 */
function BulkModal<T extends object>({
  title,
  companyId,
  onClose,
  onDone,
  initialValues,
  toBody,
  success,
  danger = false,
  children,
}: Omit<BulkModalProps, 'requestIds'> & {
  title: string;
  initialValues: T;
  toBody: (values: T, form: ReturnType<typeof Form.useForm<T>>[0]) => RequestBulk | null;
  success: (result: RequestBulkResult, values: T) => string;
  danger?: boolean | ((values: T) => boolean);
  children: ReactNode;
}) {
  const [form] = Form.useForm<T>();
  const [bulk, { isLoading: busy }] = useRequestBulkMutation();
  const [report, setReport] = useState<ProblemReport | null>(null);
  const values = Form.useWatch([], form) as T | undefined;

  const finish = async (v: T) => {
    const body = toBody(v, form);
    if (!body) return;
    setReport(null);
    try {
      const result = await bulk({ companyId, body }).unwrap();
      publishToast({ severity: 'success', summary: success(result, v) });
      onDone();
    } catch (error) {
      setReport(apiProblemReport(error, 'The change could not be applied. Try again.'));
    }
  };

  return (
    <Modal
      open
      title={title}
      okText="Apply"
      okButtonProps={{
        htmlType: 'submit',
        loading: busy,
        danger: typeof danger === 'function' ? (values ? danger(values) : false) : danger,
      }}
      cancelButtonProps={{ disabled: busy }}
      closable={{ disabled: busy }}
      keyboard={!busy}
      onCancel={() => {
        if (!busy) onClose();
      }}
      destroyOnHidden
      modalRender={(dom) => (
        <Form<T> form={form} layout="vertical" initialValues={initialValues} onFinish={(v) => void finish(v)}>
          {dom}
        </Form>
      )}
    >
      {report ? <ImportProblemAlert report={report} listLabel="Requests refused" /> : null}
      {children}
    </Modal>
  );
}

interface AssignValues {
  assignees: string[];
  mode: 'add' | 'replace';
}

function AssignModal({ requestIds, ...props }: BulkModalProps) {
  const options = useRequestAssigneeOptionsQuery(props.companyId);
  const who = countOf(requestIds.length);
  return (
    <BulkModal<AssignValues>
      {...props}
      title={`Assign ${who}`}
      initialValues={{ assignees: [], mode: 'add' }}
      toBody={(v, form) => {
        const { assigneeIds, teamIds } = splitAssignees(v.assignees);
        if (v.mode === 'add' && !assigneeIds.length && !teamIds.length) {
          form.setFields([{ name: 'assignees', errors: ['Choose at least one person or team to add.'] }]);
          return null;
        }
        return { action: 'assign', requestIds, mode: v.mode, assigneeIds, teamIds };
      }}
      success={(r, v) =>
        v.mode === 'replace'
          ? `Assignees replaced on ${countOf(r.updated)}`
          : `Assignees added to ${countOf(r.updated)}`
      }
    >
      <Form.Item name="assignees" label="Assignees">
        <Select
          mode="multiple"
          aria-label="Assignees"
          autoFocus
          placeholder="Choose people or teams"
          loading={options.isFetching}
          showSearch={{ optionFilterProp: 'label' }}
          options={assigneeOptions(options.data?.users ?? [], options.data?.teams ?? [])}
          notFoundContent={options.isError ? 'The choices could not be loaded.' : 'No one to assign.'}
        />
      </Form.Item>
      <Form.Item name="mode" label="How">
        <Radio.Group
          aria-label="How"
          options={[
            { value: 'add', label: 'Add to their assignees' },
            { value: 'replace', label: 'Replace their assignees' },
          ]}
        />
      </Form.Item>
      <Form.Item noStyle dependencies={['mode', 'assignees']}>
        {({ getFieldValue }) =>
          getFieldValue('mode') === 'replace' ? (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {(getFieldValue('assignees') as string[] | undefined)?.length
                ? `The ${who} will be assigned to these people and teams only.`
                : `No one chosen: the ${who} will have no assignees.`}
            </Typography.Paragraph>
          ) : null
        }
      </Form.Item>
    </BulkModal>
  );
}

interface DueDateValues {
  clear: boolean;
  dueDate?: Dayjs | null;
}

function DueDateModal({ requestIds, ...props }: BulkModalProps) {
  return (
    <BulkModal<DueDateValues>
      {...props}
      title={`Set the due date of ${countOf(requestIds.length)}`}
      initialValues={{ clear: false, dueDate: null }}
      toBody={(v, form) => {
        if (v.clear) return { action: 'dueDate', requestIds, dueDate: null };
        if (!v.dueDate?.isValid()) {
          form.setFields([{ name: 'dueDate', errors: ['Choose a day, or clear the due date.'] }]);
          return null;
        }
        return { action: 'dueDate', requestIds, dueDate: v.dueDate.format('YYYY-MM-DD') };
      }}
      success={(r, v) =>
        v.clear ? `Due date cleared on ${countOf(r.updated)}` : `Due date set on ${countOf(r.updated)}`
      }
    >
      <Form.Item name="clear">
        <Radio.Group
          aria-label="Due date change"
          options={[
            { value: false, label: 'Due on a day' },
            { value: true, label: 'Clear due date' },
          ]}
        />
      </Form.Item>
      <Form.Item noStyle dependencies={['clear']}>
        {({ getFieldValue }) => (
          <Form.Item name="dueDate" label="Due date">
            <DatePicker
              format={DAY_INPUT_FORMATS}
              placeholder="M/D/YYYY"
              disabled={getFieldValue('clear') === true}
              style={{ width: '100%' }}
            />
          </Form.Item>
        )}
      </Form.Item>
    </BulkModal>
  );
}

type StatusTransition = 'accept' | 'cancel' | 'reopen';

interface StatusValues {
  transition?: StatusTransition;
}

const TRANSITION_DONE: Record<StatusTransition, string> = {
  accept: 'accepted',
  cancel: 'canceled',
  reopen: 'reopened',
};

/** What Apply will do, said before it is done. */
function transitionWarning(transition: StatusTransition | undefined, n: number): string {
  const who = countOf(n);
  switch (transition) {
    case 'accept':
      return `Accept the evidence of ${who}: they close as accepted. Only submitted requests can be accepted.`;
    case 'cancel':
      return `Cancel ${who}: no one is asked for evidence any more. Canceled requests can be reopened later.`;
    case 'reopen':
      return `Reopen ${who}: they are open again and wait for evidence. Only accepted or canceled requests can be reopened.`;
    default:
      return 'Choose the change to apply.';
  }
}

function StatusModal({ requestIds, ...props }: BulkModalProps) {
  return (
    <BulkModal<StatusValues>
      {...props}
      title={`Change the status of ${countOf(requestIds.length)}`}
      initialValues={{}}
      danger={(v) => v.transition === 'cancel'}
      toBody={(v, form) => {
        if (!v.transition) {
          form.setFields([{ name: 'transition', errors: ['Choose the change to apply.'] }]);
          return null;
        }
        return { action: 'status', requestIds, transition: v.transition };
      }}
      success={(r, v) => `${countOf(r.updated)} ${v.transition ? TRANSITION_DONE[v.transition] : 'changed'}`}
    >
      <Form.Item name="transition" label="Change">
        <Radio.Group
          aria-label="Change"
          options={[
            { value: 'accept', label: 'Accept' },
            { value: 'cancel', label: 'Cancel' },
            { value: 'reopen', label: 'Reopen' },
          ]}
        />
      </Form.Item>
      <Form.Item noStyle dependencies={['transition']}>
        {({ getFieldValue }) => (
          <Typography.Paragraph role="note" style={{ marginBottom: 0 }}>
            {transitionWarning(getFieldValue('transition') as StatusTransition | undefined, requestIds.length)}
          </Typography.Paragraph>
        )}
      </Form.Item>
    </BulkModal>
  );
}
