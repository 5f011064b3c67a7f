/** Test data and jsdom shims for this feature's tests. */
import { settingsPermissionsFor } from '@portal/shared/core/modules';
import type { AccessPermissions, Company, User } from '@portal/shared/core/schemas';

// antd's Form batches watchers in a MessageChannel macrotask; jest-fixed-jsdom has none.
if (typeof globalThis.MessageChannel === 'undefined') {
  class Port {
    onmessage: ((event: { data: unknown }) => void) | null = null;
    other: Port | null = null;
    postMessage(data: unknown) {
      setTimeout(() => this.other?.onmessage?.({ data }), 0);
    }
    close() {}
  }
  globalThis.MessageChannel = class {
    port1 = new Port();
    port2 = new Port();
    constructor() {
      this.port1.other = this.port2;
      this.port2.other = this.port1;
    }
  } as unknown as typeof MessageChannel;
}

export const staffAdmin: User = {
  id: 's1', firstName: 'Sam', lastName: 'Staff', title: null, email: 'admin@demo.test', login: 'admin@demo.test', avatar: null,
  status: 'active', primaryPhone: null, isTevora: true, isAuditor: false, admin: { active: true }, sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false }, projectRoles: [], ldhmac: 'x',
};

const ALL_ON = { risks: true, projects: true, requests: true, reports: true, assets: true };

/** `n` companies named Company 01… with every module on except requests on the even ones. */
export function makeCompanies(n: number): Company[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `c${i + 1}`,
    name: `Company ${String(i + 1).padStart(2, '0')}`,
    logo: null,
    modulesAccess: { ...ALL_ON, requests: i % 2 === 0 },
  }));
}

/** The session of a staff user, with or without the permission to add companies. */
export function staffSession(addCompany: boolean) {
  const permissions = settingsPermissionsFor({ isTevora: true, isAuditor: false, isStaffAdmin: addCompany, companyRole: null });
  const companies = makeCompanies(1);
  return {
    user: addCompany ? staffAdmin : { ...staffAdmin, admin: { active: false } },
    loggedIn: true,
    companies,
    companiesLoaded: true,
    selectedCompanyId: companies[0].id,
    access: { modulesAccess: ALL_ON, settingsPermissions: permissions } satisfies AccessPermissions,
  };
}
