/** The words of a request's history line: `<actor> <text>` (the browser tests read them as they are). */
import { REQUEST_STATUS_LABELS, type RequestAction, type RequestEvent } from '@portal/shared/core/requests';
import { personName } from './labels';

const STATUS_TEXTS: Record<RequestAction, string> = {
  submit: 'submitted the evidence',
  return: 'returned the request',
  accept: 'accepted the evidence',
  cancel: 'canceled the request',
  reopen: 'reopened the request',
};

const own = <T extends object>(table: T, key: string): key is Extract<keyof T, string> =>
  Object.prototype.hasOwnProperty.call(table, key);

/** How a changed field reads: the api names the request's fields (`dueDate`, `teamIds`). */
const FIELD_LABELS: Record<string, string> = {
  title: 'title',
  description: 'description',
  internalNote: 'internal note',
  priority: 'priority',
  dueDate: 'due date',
  projectId: 'project',
  taskId: 'task',
  controlId: 'control',
  assigneeIds: 'assignees',
  teamIds: 'assignees',
};

/** A field the list above does not know yet, in words: `someField` -> "some field". */
const fieldLabel = (field: string): string =>
  Object.prototype.hasOwnProperty.call(FIELD_LABELS, field)
    ? FIELD_LABELS[field]
    : field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

const joined = (names: (string | undefined)[] | undefined) => (names ?? []).filter((n): n is string => !!n).join(', ');

/** The changed fields in words, each once (people and teams are both "assignees"). */
const fieldsText = (fields: string[] | undefined) => joined([...new Set((fields ?? []).map(fieldLabel))]);

/** The people and teams of an (un)assignment: teams as "Team: <name>", as the details show them. */
const assigneesText = (detail: RequestEvent['detail']) =>
  joined([...(detail.users ?? []), ...(detail.teams ?? []).map((t) => `Team: ${t}`)]);

const statusLabel = (status: string | undefined) =>
  status && own(REQUEST_STATUS_LABELS, status) ? REQUEST_STATUS_LABELS[status] : 'unknown';

/** What the actor did, without the actor: "changed title, due date", "returned the request: <reason>". */
export function historyText(event: RequestEvent): string {
  const { detail } = event;
  switch (event.type) {
    case 'created':
      return 'created the request';
    case 'imported':
      return 'imported the request';
    case 'updated':
      return `changed ${fieldsText(detail.fields)}`;
    case 'assigned':
      return `assigned ${assigneesText(detail)}`;
    case 'unassigned':
      return `unassigned ${assigneesText(detail)}`;
    case 'status': {
      const action = detail.action;
      if (!action) return `changed the status to ${statusLabel(detail.to)}`;
      if (action === 'return') return detail.reason ? `${STATUS_TEXTS.return}: ${detail.reason}` : STATUS_TEXTS.return;
      return STATUS_TEXTS[action];
    }
    case 'file_added':
      return `added ${detail.name ?? 'a file'}`;
    case 'file_removed':
      return `removed ${detail.name ?? 'a file'}`;
    case 'comment':
      return detail.internal ? 'added an internal note' : 'commented';
    default:
      return 'changed the request';
  }
}

/** The whole line: "Ada Admin created the request". */
export function historyLine(event: RequestEvent): string {
  return `${personName(event.actor)} ${historyText(event)}`;
}
