/** One colour per status, used by the list's tags and the charts alike so a status reads the same everywhere. */
import type { ProjectStatus } from '@portal/shared/core/projects';

export const PROJECT_STATUS_COLORS: Record<ProjectStatus, string> = {
  pending: '#d48806',
  active: '#1677ff',
  on_hold: '#722ed1',
  completed: '#389e0d',
  canceled: '#8c8c8c',
};

// The task statuses' colours are shared with the reports remote.
export { TASK_STATUS_COLORS } from '@portal/shared/core/projects';

export const OVERDUE_COLOR = '#cf1322';
