import type { ModuleName } from '@portal/shared/core/modules';

export const MODULE_LABELS: Record<ModuleName, string> = {
  risks: 'Risks',
  projects: 'Projects',
  requests: 'Requests',
  reports: 'Reports',
  assets: 'Assets',
};

export const fullName = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();
