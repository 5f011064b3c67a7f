/**
 * Colours of the report charts. The statuses take the colours they have everywhere else (task tags and
 * Home's charts: TASK_STATUS_COLORS; request tags: REQUEST_STATUS_COLORS), so a status reads the same.
 */
import { REQUEST_STATUS_COLORS, REQUEST_STATUSES, type RequestStatus } from '@portal/shared/core/requests';

/** Single-series bars (counts by age, time to accept). */
export const DEFAULT_COLOR = '#1677ff';

/** The hex of antd's preset tag colours (its 6th shade; "default" is its grey), for svg fills. */
const ANTD_PRESET_HEX: Record<string, string> = {
  blue: '#1677ff',
  purple: '#722ed1',
  orange: '#fa8c16',
  green: '#52c41a',
  default: '#8c8c8c',
};

export const REQUEST_STATUS_CHART_COLORS = Object.fromEntries(
  REQUEST_STATUSES.map((status) => [status, ANTD_PRESET_HEX[REQUEST_STATUS_COLORS[status]] ?? DEFAULT_COLOR]),
) as Record<RequestStatus, string>;

/** One colour per figure (a table column key), the same in every chart that draws it. */
export const FIGURE_COLORS: Record<string, string> = {
  created: '#722ed1',
  open: '#1677ff',
  closed: '#389e0d',
  controls: '#8c8c8c',
  withTasks: '#1677ff',
  withEvidence: '#389e0d',
  active: '#1677ff',
  accepted: '#389e0d',
  openTasks: '#1677ff',
  activeRequests: '#fa8c16',
};
