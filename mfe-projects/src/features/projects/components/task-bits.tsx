/** Small pieces every task list shows: status, due date with its overdue marker, assignees. */
import { Tag, Typography } from '@portal/shared/ui/extra';
import { formatDate } from '@portal/shared/core/dates';
import {
  PROJECT_STATUS_LABELS,
  TASK_STATUS_LABELS,
  type ProjectStatus,
  type ProjectUserRef,
  type TaskStatus,
} from '@portal/shared/core/projects';
import { PROJECT_STATUS_COLORS, TASK_STATUS_COLORS } from '../../../app/status-colors';
import { personName } from '../model/labels';

export function TaskStatusTag({ status }: { status: TaskStatus }) {
  return <Tag color={TASK_STATUS_COLORS[status]}>{TASK_STATUS_LABELS[status]}</Tag>;
}

export function ProjectStatusTag({ status }: { status: ProjectStatus }) {
  return <Tag color={PROJECT_STATUS_COLORS[status]}>{PROJECT_STATUS_LABELS[status]}</Tag>;
}

/** A date-only due date (shown as the end of its day) and, when passed on open work, "Overdue". */
export function DueDate({ dueDate, overdue }: { dueDate: string | null; overdue: boolean }) {
  if (!dueDate) return <Typography.Text type="secondary">No due date</Typography.Text>;
  return (
    <span>
      {formatDate(dueDate)}{' '}
      {overdue ? (
        <Tag color="red" style={{ marginInlineStart: 4 }}>
          Overdue
        </Tag>
      ) : null}
    </span>
  );
}

export function Assignees({ users }: { users: ProjectUserRef[] }) {
  if (!users.length) return <Typography.Text type="secondary">Unassigned</Typography.Text>;
  return <span>{users.map(personName).join(', ')}</span>;
}
