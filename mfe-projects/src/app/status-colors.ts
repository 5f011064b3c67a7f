/**
 * One colour per status, used by the list's tags and the charts alike so a status reads the same everywhere.
 * Dark enough for a tag's text on its own light tint (WCAG AA, 4.5:1).
 */
import type { ProjectStatus } from '@portal/shared/core/projects';

export const PROJECT_STATUS_COLORS: Record<ProjectStatus, string> = {
  pending: '#874d00',
  active: '#0958d9',
  on_hold: '#531dab',
  completed: '#237804',
  canceled: '#595959',
};

// The task statuses' colours are shared with the reports remote.
export { TASK_STATUS_COLORS } from '@portal/shared/core/projects';

export const OVERDUE_COLOR = '#cf1322';
