/** Modules of the portal and the rules that decide who may use them (framework-free). */

export const MODULES = ['risks', 'projects', 'requests', 'reports', 'assets'] as const;
export type ModuleName = (typeof MODULES)[number];

/** Module access at one level: null inherits from the level above. */
export type ModuleAccess = Record<ModuleName, boolean | null>;
/** Module access after inheritance: every module decided. */
export type EffectiveModuleAccess = Record<ModuleName, boolean>;

export function emptyModuleAccess(): ModuleAccess {
  return { risks: null, projects: null, requests: null, reports: null, assets: null };
}

/**
 * The effective module access of a user in a company:
 * 1. the company's value is the ceiling: company off means off for everybody;
 * 2. otherwise a user's explicit value (true or false) wins;
 * 3. otherwise the user's teams decide: any team granting it turns it on, else any team denying it turns it off;
 * 4. otherwise (all null) the company's value is inherited.
 * Staff are not members of client teams: for them only the company's value counts.
 */
export function effectiveModuleAccess(
  company: Record<ModuleName, boolean>,
  user: Partial<ModuleAccess> | null,
  teams: Partial<ModuleAccess>[],
): EffectiveModuleAccess {
  const out = {} as EffectiveModuleAccess;
  for (const m of MODULES) {
    if (!company[m]) {
      out[m] = false;
      continue;
    }
    const own = user?.[m];
    if (own === true || own === false) {
      out[m] = own;
      continue;
    }
    const teamValues = teams.map((t) => t[m]).filter((v): v is boolean => v === true || v === false);
    out[m] = teamValues.length ? teamValues.includes(true) : true;
  }
  return out;
}

export interface SettingsPermissions {
  users: { editHelp: boolean; editTevoraAdmins: boolean; editModulesAccess: boolean; editPractices: boolean };
  company: { editInformation: boolean; editModulesAccess: boolean; editUsersAndTeams: boolean; addCompany: boolean };
  loaded: boolean;
}

export type CompanyRole = 'admin' | 'member';

export interface PermissionSubject {
  isTevora: boolean;
  isAuditor: boolean;
  /** Staff with an active admin flag. */
  isStaffAdmin: boolean;
  /** The user's role in the company, for client users. */
  companyRole: CompanyRole | null;
}

/**
 * Settings permissions follow from who the user is (docs/authorization.md):
 * staff admins may do everything; other staff (not auditors) manage companies, users, teams,
 * practices and module access but not help texts, admins or new companies; auditors only read;
 * a client company admin edits the company's information, users and teams; other clients only read.
 */
export function settingsPermissionsFor(s: PermissionSubject): SettingsPermissions {
  const all = (v: boolean): SettingsPermissions => ({
    users: { editHelp: v, editTevoraAdmins: v, editModulesAccess: v, editPractices: v },
    company: { editInformation: v, editModulesAccess: v, editUsersAndTeams: v, addCompany: v },
    loaded: true,
  });
  if (s.isTevora && s.isStaffAdmin) return all(true);
  if (s.isTevora && !s.isAuditor) {
    return {
      users: { editHelp: false, editTevoraAdmins: false, editModulesAccess: true, editPractices: true },
      company: { editInformation: true, editModulesAccess: true, editUsersAndTeams: true, addCompany: false },
      loaded: true,
    };
  }
  if (!s.isTevora && s.companyRole === 'admin') {
    return {
      users: { editHelp: false, editTevoraAdmins: false, editModulesAccess: false, editPractices: false },
      company: { editInformation: true, editModulesAccess: false, editUsersAndTeams: true, addCompany: false },
      loaded: true,
    };
  }
  return all(false);
}

/**
 * The remotes this repository builds, served from `/remotes/<name>/` by default (docs/federation.md).
 * The portal may have others: each remote declares its own routes, navigation and module gate.
 */
export const REMOTES = ['mfe-projects', 'mfe-requests', 'mfe-settings', 'mfe-reports'] as const;
export type RemoteName = (typeof REMOTES)[number];

/**
 * The module that gates each remote of this repository (null: none).
 * @deprecated since 1.4.0: each remote declares its gate in its portal-module.json
 * (remoteDeclarationSchema), which the api reads; removed in the next major version.
 */
export const REMOTE_MODULES: Record<RemoteName, ModuleName | null> = {
  'mfe-projects': 'projects',
  'mfe-requests': 'requests',
  'mfe-settings': null,
  'mfe-reports': 'reports',
};
