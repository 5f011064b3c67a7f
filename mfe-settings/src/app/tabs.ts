/**
 * The settings tabs and who may use each. The menu shows only the tabs the user may
 * use; a direct link to another one shows the not-permitted page. The api enforces the same rules
 * (api/src/plugins/app/policies.ts): hiding a tab is a courtesy, not the access control.
 */
import type { SettingsPermissions } from '@portal/shared/core/modules';
import type { User } from '@portal/shared/core/schemas';

export type SettingsTab = 'personal' | 'company' | 'clients' | 'teams' | 'tevora' | 'practices' | 'system';

export interface TabContext {
  user: User | null;
  /** The caller's settings permissions in the selected company (null while loading or with no company). */
  permissions: SettingsPermissions | null;
}

const isStaff = (c: TabContext) => !!c.user?.isTevora;

export const TAB_RULES: Record<SettingsTab, (c: TabContext) => boolean> = {
  personal: () => true,
  company: (c) =>
    !!c.permissions &&
    (c.permissions.company.editInformation ||
      c.permissions.company.editModulesAccess ||
      c.permissions.company.editUsersAndTeams),
  clients: (c) => isStaff(c) && !c.user?.isAuditor,
  teams: (c) => !!c.permissions?.company.editUsersAndTeams,
  tevora: isStaff,
  practices: (c) => !!c.permissions?.users.editPractices,
  system: (c) => isStaff(c) && !!c.user?.admin.active,
};

/** The menu, in order; `tevora` is labelled with the brand. */
export const TAB_ORDER: SettingsTab[] = ['personal', 'company', 'clients', 'teams', 'tevora', 'practices', 'system'];

export function tabLabel(tab: SettingsTab, brand: string): string {
  return {
    personal: 'Personal',
    company: 'Company',
    clients: 'Clients',
    teams: 'Teams',
    tevora: brand,
    practices: 'Practices & Templates',
    system: 'System Admin',
  }[tab];
}

export function allowedTabs(c: TabContext): SettingsTab[] {
  return TAB_ORDER.filter((t) => TAB_RULES[t](c));
}
