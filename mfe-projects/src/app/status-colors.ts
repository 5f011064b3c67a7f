/** One colour per status, used by the list's tags and the charts alike so a status reads the same everywhere. */
import type { ProjectStatus, TaskStatus } from '@portal/shared/core/projects';

export const PROJECT_STATUS_COLORS: Record<ProjectStatus, string> = {
  pending: '#d48806',
  active: '#1677ff',
  on_hold: '#722ed1',
  completed: '#389e0d',
  canceled: '#8c8c8c',
};

export const TASK_STATUS_COLORS: Record<TaskStatus, string> = {
  OPEN: '#08979c',
  IN_PROGRESS: '#1677ff',
  INCOMPLETE: '#d4380d',
  IN_REVIEW: '#722ed1',
  COMPLETED: '#389e0d',
  NOT_APPLICABLE: '#bfbfbf',
};

export const OVERDUE_COLOR = '#cf1322';
