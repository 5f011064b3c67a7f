import { Tag } from '@portal/shared/ui/extra';
import { TASK_TRACKER_STATUS_LABELS, type PracticeStatus, type TaskTrackerStatus } from '@portal/shared/core/practices';

export function PracticeStatusTag({ status }: { status: PracticeStatus }) {
  return status === 'active' ? <Tag color="green">Active</Tag> : <Tag>Retired</Tag>;
}

const TEMPLATE_COLORS: Record<TaskTrackerStatus, string | undefined> = {
  draft: 'gold',
  published: 'green',
  retired: undefined,
};

export function TemplateStatusTag({ status }: { status: TaskTrackerStatus }) {
  return <Tag color={TEMPLATE_COLORS[status]}>{TASK_TRACKER_STATUS_LABELS[status]}</Tag>;
}
