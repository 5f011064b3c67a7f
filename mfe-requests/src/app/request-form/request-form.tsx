/**
 * The fields of a request, shared by "New request" (list page) and "Edit request" (detail page): Title,
 * Description, Internal note, Priority, Due date, Project and Assignees. Put them inside an antd Form
 * (layout vertical); `requestFormValues` fills it, `requestFormBody` turns what was entered into the
 * api's body, and `markRequestFormErrors` puts a refused call's field messages back on the fields.
 *
 * Assignees are users and teams in one picker: the values are `user:<id>` and `team:<id>`.
 */
import { fieldMessage } from '@portal/shared/core/errors';
import { useState, type ComponentProps, type FocusEvent, type KeyboardEvent } from 'react';
import { DatePicker, dayjs, Form, Input, Select, type Dayjs, type FormInstance } from '@portal/shared/ui/extra';
import {
  REQUEST_LIMITS,
  REQUEST_PRIORITIES,
  REQUEST_PRIORITY_LABELS,
  requestCreateSchema,
  type RequestCreate,
  type RequestDetail,
  type RequestPriority,
  type RequestTeamRef,
  type RequestUpdate,
  type RequestUserRef,
} from '@portal/shared/core/requests';
import { fieldErrors } from '@portal/shared/web/api';
import { schemaRule } from '@portal/shared/core/errors';
import { useRequestAssigneeOptionsQuery } from '../requests-api';
import { personName } from '../labels';

export interface RequestFormValues {
  title: string;
  description?: string;
  internalNote?: string;
  priority: RequestPriority;
  dueDate?: Dayjs | null;
  projectId?: string | null;
  /** `user:<id>` and `team:<id>`. */
  assignees?: string[];
}

/** Days as the portal shows them (5/31/2026, the first format); typed, the api's form (2026-05-31) too. */
export const DAY_INPUT_FORMATS = ['M/D/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'];
export const DUE_DATE_MESSAGE = 'Due date must be a date (YYYY-MM-DD or M/D/YYYY)';

/** The day a typed text names (one of DAY_INPUT_FORMATS, strictly), null when empty, `undefined` when it names none. */
export function parseTypedDay(text: string): Dayjs | null | undefined {
  const typed = text.trim();
  if (!typed) return null;
  for (const format of DAY_INPUT_FORMATS) {
    const day = dayjs(typed, format, true);
    if (day.isValid()) return day;
  }
  return undefined;
}

/** The field's value while its text names no day: an invalid Dayjs, which `dueDateRule` refuses. */
const NOT_A_DAY = dayjs('');

/** Refuses a typed text that names no day (the field's value is then invalid), instead of dropping it. */
export const dueDateRule = {
  validator: (_: unknown, value: Dayjs | null | undefined) =>
    value && !value.isValid() ? Promise.reject(new Error(DUE_DATE_MESSAGE)) : Promise.resolve(),
};

/**
 * A day field (antd DatePicker) inside a form: Enter confirms the picker and never submits the form,
 * and leaving it (or Enter) with a text that names no day makes the value invalid, so `dueDateRule`
 * reports it, where the bare picker would drop the text and keep the previous day. Emptying the text
 * clears the day. Put it straight in a Form.Item (it takes the item's value, onChange and id).
 */
export function DayInput({
  value,
  onChange,
  ...props
}: Omit<ComponentProps<typeof DatePicker>, 'value' | 'onChange' | 'format' | 'multiple'> & {
  value?: Dayjs | null;
  onChange?: (day: Dayjs | null) => void;
}) {
  // While the text names no day the picker holds the last good day, so it keeps showing what was typed.
  const good = value && !value.isValid() ? undefined : (value ?? null);
  const [lastGood, setLastGood] = useState<Dayjs | null>(good ?? null);
  if (good !== undefined && good !== lastGood) setLastGood(good);
  const shown = good === undefined ? lastGood : good;
  const commitText = (input: EventTarget) => {
    if (!(input instanceof HTMLInputElement)) return;
    const day = parseTypedDay(input.value);
    if (day === undefined) {
      if (!value || value.isValid()) onChange?.(NOT_A_DAY);
    } else if (day === null ? value != null : !value?.isValid() || !day.isSame(value, 'day')) {
      onChange?.(day);
    }
  };
  return (
    <div
      onKeyDown={(e: KeyboardEvent) => {
        if (e.key !== 'Enter') return;
        // the picker has taken its Enter (confirm) already: the form must not submit on it
        e.preventDefault();
        commitText(e.target);
      }}
      onBlur={(e: FocusEvent) => commitText(e.target)}
    >
      <DatePicker
        {...props}
        value={shown}
        format={DAY_INPUT_FORMATS}
        preserveInvalidOnBlur
        onChange={(day) => onChange?.(day as Dayjs | null)}
      />
    </div>
  );
}

const shape = requestCreateSchema.shape;
const userKey = (id: string) => `user:${id}`;
const teamKey = (id: string) => `team:${id}`;

export const assigneeUserLabel = (u: RequestUserRef) => `${personName(u)} (${u.email})`;
export const assigneeTeamLabel = (t: RequestTeamRef) => `Team: ${t.name}`;

/** Assignee picker options: users as "First Last (email)", teams as "Team: <name>". */
export function assigneeOptions(users: readonly RequestUserRef[], teams: readonly RequestTeamRef[]) {
  return [
    ...users.map((u) => ({ value: userKey(u.id), label: assigneeUserLabel(u) })),
    ...teams.map((t) => ({ value: teamKey(t.id), label: assigneeTeamLabel(t) })),
  ];
}

/** The picker's values split into the api's two lists. */
export function splitAssignees(keys: readonly string[] | undefined): { assigneeIds: string[]; teamIds: string[] } {
  const assigneeIds: string[] = [];
  const teamIds: string[] = [];
  for (const key of keys ?? []) {
    if (key.startsWith('user:')) assigneeIds.push(key.slice(5));
    else if (key.startsWith('team:')) teamIds.push(key.slice(5));
  }
  return { assigneeIds, teamIds };
}

/**
 * The request's fields. `current`: the request being edited, whose assignees and project stay named
 * even when no longer offered (a revoked member, a project the caller no longer sees). `projectId`: a
 * project to keep among the choices (by id) when its title is unknown.
 */
export function RequestFormFields({
  companyId,
  projectId,
  current,
}: {
  companyId: string;
  projectId?: string | null;
  current?: Pick<RequestDetail, 'assignees' | 'teams' | 'project'> | null;
}) {
  const options = useRequestAssigneeOptionsQuery(companyId);
  const users = new Map<string, RequestUserRef>((current?.assignees ?? []).map((u) => [u.id, u]));
  for (const u of options.data?.users ?? []) users.set(u.id, u);
  const teams = new Map<string, RequestTeamRef>((current?.teams ?? []).map((t) => [t.id, t]));
  for (const t of options.data?.teams ?? []) teams.set(t.id, t);
  const projects = new Map<string, string>();
  if (projectId) projects.set(projectId, projectId);
  if (current?.project) projects.set(current.project.id, current.project.title);
  for (const p of options.data?.projects ?? []) projects.set(p.id, p.title);
  const loadFailed = options.isError ? 'The choices could not be loaded.' : undefined;

  return (
    <>
      <Form.Item name="title" label="Title" rules={[schemaRule(shape.title)]}>
        <Input autoFocus maxLength={REQUEST_LIMITS.title} />
      </Form.Item>
      <Form.Item name="description" label="Description" rules={[schemaRule(shape.description)]}>
        <Input.TextArea rows={4} maxLength={REQUEST_LIMITS.description} />
      </Form.Item>
      <Form.Item
        name="internalNote"
        label="Internal note"
        extra="Staff only: never shown to the client"
        rules={[schemaRule(shape.internalNote)]}
      >
        <Input.TextArea rows={2} maxLength={REQUEST_LIMITS.internalNote} />
      </Form.Item>
      <Form.Item name="priority" label="Priority">
        <Select
          aria-label="Priority"
          options={REQUEST_PRIORITIES.map((p) => ({ value: p, label: REQUEST_PRIORITY_LABELS[p] }))}
        />
      </Form.Item>
      <Form.Item name="dueDate" label="Due date" rules={[dueDateRule]}>
        <DayInput placeholder="M/D/YYYY" style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="projectId" label="Project">
        <Select
          aria-label="Project"
          allowClear
          placeholder="No project"
          loading={options.isFetching}
          showSearch={{ optionFilterProp: 'label' }}
          options={[...projects].map(([value, label]) => ({ value, label }))}
          notFoundContent={loadFailed ?? 'No projects.'}
        />
      </Form.Item>
      <Form.Item name="assignees" label="Assignees">
        <Select
          mode="multiple"
          aria-label="Assignees"
          placeholder="Choose people or teams"
          loading={options.isFetching}
          showSearch={{ optionFilterProp: 'label' }}
          options={assigneeOptions([...users.values()], [...teams.values()])}
          notFoundContent={loadFailed ?? 'No one to assign.'}
        />
      </Form.Item>
    </>
  );
}

/** The form's starting values: empty for a new request, the request's own when editing. */
export function requestFormValues(detail?: RequestDetail | null): RequestFormValues {
  if (!detail)
    return {
      title: '',
      description: '',
      internalNote: '',
      priority: 'medium',
      dueDate: null,
      projectId: null,
      assignees: [],
    };
  return {
    title: detail.title,
    description: detail.description ?? '',
    internalNote: detail.internalNote ?? '',
    priority: detail.priority,
    dueDate: detail.dueDate ? dayjs(detail.dueDate) : null,
    projectId: detail.project?.id ?? null,
    assignees: [...detail.assignees.map((u) => userKey(u.id)), ...detail.teams.map((t) => teamKey(t.id))],
  };
}

const sameMembers = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/**
 * The api's body. Without `before`, a create body (empty optional fields left out). With `before`
 * (editing), only what changed, so an edit never re-sends fields the user left alone; a new project
 * clears the task and control, which belonged to the old one.
 */
export function requestFormBody(values: RequestFormValues): RequestCreate;
export function requestFormBody(values: RequestFormValues, before: RequestDetail): RequestUpdate;
export function requestFormBody(values: RequestFormValues, before?: RequestDetail): RequestCreate | RequestUpdate {
  const title = values.title.trim();
  const description = values.description?.trim() || null;
  const internalNote = values.internalNote?.trim() || null;
  const dueDate = values.dueDate?.isValid() ? values.dueDate.format('YYYY-MM-DD') : null;
  const projectId = values.projectId || null;
  const { assigneeIds, teamIds } = splitAssignees(values.assignees);
  if (!before) {
    const body: RequestCreate = { title, priority: values.priority, assigneeIds, teamIds };
    if (description) body.description = description;
    if (internalNote) body.internalNote = internalNote;
    if (dueDate) body.dueDate = dueDate;
    if (projectId) body.projectId = projectId;
    return body;
  }
  const body: RequestUpdate = {};
  if (title !== before.title) body.title = title;
  if (description !== (before.description ?? null)) body.description = description;
  if (internalNote !== (before.internalNote ?? null)) body.internalNote = internalNote;
  if (values.priority !== before.priority) body.priority = values.priority;
  if (dueDate !== before.dueDate) body.dueDate = dueDate;
  if (projectId !== (before.project?.id ?? null)) {
    body.projectId = projectId;
    if (before.task) body.taskId = null;
    if (before.control) body.controlId = null;
  }
  if (
    !sameMembers(
      assigneeIds,
      before.assignees.map((u) => u.id),
    )
  )
    body.assigneeIds = assigneeIds;
  if (
    !sameMembers(
      teamIds,
      before.teams.map((t) => t.id),
    )
  )
    body.teamIds = teamIds;
  return body;
}

/** The api's field names on this form's fields. */
const FORM_FIELD: Record<string, keyof RequestFormValues> = { assigneeIds: 'assignees', teamIds: 'assignees' };

/**
 * Puts a refused call's per-field messages (the `details` of a 400) on the form's fields; returns the
 * messages no field shows (taskId, controlId...), for an alert. Nested paths (`assigneeIds.2`) land on
 * their field.
 */
export function markRequestFormErrors(form: FormInstance<RequestFormValues>, error: unknown): string[] {
  const known = new Set<string>([
    'title',
    'description',
    'internalNote',
    'priority',
    'dueDate',
    'projectId',
    'assignees',
  ]);
  const byField = new Map<string, string[]>();
  const rest: string[] = [];
  for (const { name, errors } of fieldErrors(error)) {
    const root = name.split('.')[0];
    const field = FORM_FIELD[root] ?? root;
    // under the field's label, without the api's name of the field ("assigneeIds must…": "Must…")
    if (known.has(field))
      byField.set(field, [...(byField.get(field) ?? []), ...errors.map((e) => fieldMessage(name, e))]);
    else rest.push(...errors);
  }
  if (byField.size)
    form.setFields([...byField].map(([name, errors]) => ({ name: name as keyof RequestFormValues, errors })));
  return rest;
}
