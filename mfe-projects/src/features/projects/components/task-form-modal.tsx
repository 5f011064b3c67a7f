import { Form, Input, Select } from '@portal/shared/ui/extra';
import {
  dayText,
  TASK_STATUS_LABELS,
  TASK_STATUSES,
  taskCreateSchema,
  taskReferenceSchema,
  type ProjectUserRef,
} from '@portal/shared/core/projects';
import { schemaRule } from '@portal/shared/core/errors';
import { projectsApi } from '../../../app/projects-api';
import { personName } from '../model/labels';
import type { TaskFormValues } from '../model/task-body';
import { FormModal, type FormModalUse } from './form-modal';

export type TaskField = keyof TaskFormValues;

const shape = taskCreateSchema.shape;

/**
 * Creates or edits a task (or a subtask) with the fields named in `fields`. Assignees are picked from
 * the project's assignees (its staff and the company's active members); `currentAssignees` keeps
 * today's assignees named even if they are no longer offered.
 */
export function TaskFormModal({
  projectId,
  fields,
  initialValues,
  currentAssignees = [],
  ...props
}: FormModalUse<TaskFormValues> & {
  projectId: string;
  fields: readonly TaskField[];
  currentAssignees?: ProjectUserRef[];
}) {
  const users = projectsApi.useProjectsAssigneesQuery(projectId, {
    skip: !props.open || !fields.includes('assigneeIds'),
  });
  const people = new Map<string, ProjectUserRef>(currentAssignees.map((u) => [u.id, u]));
  for (const u of users.data ?? []) people.set(u.id, u);
  const assigneeOptions = [...people.values()].map((u) => ({ value: u.id, label: `${personName(u)} (${u.email})` }));
  const has = (field: TaskField) => fields.includes(field);

  return (
    <FormModal<TaskFormValues> {...props} initialValues={{ status: 'OPEN', assigneeIds: [], ...initialValues }}>
      <Form.Item name="title" label="Title" rules={[schemaRule(shape.title)]}>
        <Input autoFocus />
      </Form.Item>
      {has('referenceId') ? (
        <Form.Item
          name="referenceId"
          label="Task ID"
          extra="Unique within the project, or empty."
          rules={[schemaRule(taskReferenceSchema)]}
        >
          <Input placeholder="e.g. CC6.1-01" />
        </Form.Item>
      ) : null}
      {has('description') ? (
        <Form.Item name="description" label="Description" rules={[schemaRule(shape.description)]}>
          <Input.TextArea rows={4} />
        </Form.Item>
      ) : null}
      {has('dueDate') ? (
        <Form.Item name="dueDate" label="Due date" rules={[schemaRule(dayText('dueDate'), { skipEmpty: true })]}>
          <Input type="date" />
        </Form.Item>
      ) : null}
      {has('assigneeIds') ? (
        <Form.Item name="assigneeIds" label="Assignees">
          <Select
            mode="multiple"
            aria-label="Assignees"
            placeholder="Choose assignees"
            options={assigneeOptions}
            loading={users.isFetching}
            showSearch={{ optionFilterProp: 'label' }}
            notFoundContent={users.isError ? 'The users could not be loaded.' : 'No one to assign.'}
          />
        </Form.Item>
      ) : null}
      {has('status') ? (
        <Form.Item name="status" label="Status">
          <Select
            aria-label="Status"
            options={TASK_STATUSES.map((s) => ({ value: s, label: TASK_STATUS_LABELS[s] }))}
          />
        </Form.Item>
      ) : null}
    </FormModal>
  );
}
