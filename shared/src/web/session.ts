/**
 * Session state: the signed-in user, the selected company and its access. The shell drives it;
 * remotes read it with the selectors below (one store, built by the shell).
 */
import { createSlice, useSelector, type PayloadAction } from '@portal/shared/web/store';
import type { AccessPermissions, Company, User } from '@portal/shared/core/schemas';

export interface SessionState {
  user: User | null;
  loggedIn: boolean;
  companies: Company[];
  companiesLoaded: boolean;
  selectedCompanyId: string | null;
  /** Details of the selected company (GET /companies/:id), loaded when it is chosen. */
  company: Company | null;
  access: AccessPermissions | null;
  /** Session settings: detailedView, apiVersion, uiVersion, lastKnownUiVersion. */
  detailedView: boolean;
  apiVersion: string;
  uiVersion: string;
  /** The UI version this page was loaded with; a newer `uiVersion` means a newer UI is deployed. */
  lastKnownUiVersion: string | null;
  theme: 'light' | 'dark';
  /** The product name (BRAND_NAME), shown wherever the portal says {brand}. */
  brand: string;
}

/** The version label before the server announces one. */
const DEFAULT_VERSION_LABEL = 'dev';

export const initialSessionState: SessionState = {
  user: null,
  loggedIn: false,
  companies: [],
  companiesLoaded: false,
  selectedCompanyId: null,
  company: null,
  access: null,
  detailedView: false,
  apiVersion: DEFAULT_VERSION_LABEL,
  uiVersion: DEFAULT_VERSION_LABEL,
  lastKnownUiVersion: null,
  theme: 'light',
  brand: 'Tevora',
};

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    userLoaded(state, action: PayloadAction<User>) {
      state.user = action.payload;
      state.loggedIn = true;
    },
    companiesLoaded(state, action: PayloadAction<Company[]>) {
      state.companies = action.payload;
      state.companiesLoaded = true;
    },
    companySelected(state, action: PayloadAction<string | null>) {
      if (state.selectedCompanyId !== action.payload) {
        state.access = null;
        state.company = null;
      }
      state.selectedCompanyId = action.payload;
    },
    companyDetailsLoaded(state, action: PayloadAction<Company>) {
      if (action.payload.id === state.selectedCompanyId) state.company = action.payload;
    },
    accessLoaded(state, action: PayloadAction<AccessPermissions>) {
      state.access = action.payload;
    },
    detailedViewSet(state, action: PayloadAction<boolean>) {
      state.detailedView = action.payload;
    },
    themeSet(state, action: PayloadAction<'light' | 'dark'>) {
      state.theme = action.payload;
    },
    brandSet(state, action: PayloadAction<string>) {
      state.brand = action.payload;
    },
    versionsAnnounced(state, action: PayloadAction<{ apiVersion?: string | null; uiVersion?: string | null }>) {
      const { apiVersion, uiVersion } = action.payload;
      if (apiVersion) state.apiVersion = apiVersion;
      if (uiVersion) {
        state.uiVersion = uiVersion;
        state.lastKnownUiVersion ??= uiVersion;
      }
    },
    /** Clears the user, the logged-in flag and their companies; per-browser choices and the brand stay. */
    loggedOut(state) {
      return {
        ...initialSessionState,
        theme: state.theme,
        detailedView: state.detailedView,
        brand: state.brand,
        apiVersion: state.apiVersion,
        uiVersion: state.uiVersion,
        lastKnownUiVersion: state.lastKnownUiVersion,
      };
    },
  },
  selectors: {
    selectUser: (s) => s.user,
    selectLoggedIn: (s) => s.loggedIn,
    selectCompanies: (s) => s.companies,
    selectCompaniesLoaded: (s) => s.companiesLoaded,
    selectSelectedCompanyId: (s) => s.selectedCompanyId,
    /** The selected company: its loaded details, else its entry in the user's list. */
    selectSelectedCompany: (s) =>
      (s.company?.id === s.selectedCompanyId ? s.company : null) ??
      s.companies.find((c) => c.id === s.selectedCompanyId) ??
      null,
    selectAccess: (s) => s.access,
    selectTheme: (s) => s.theme,
    selectDetailedView: (s) => s.detailedView,
    selectBrand: (s) => s.brand,
    selectApiVersion: (s) => s.apiVersion,
    selectUiVersion: (s) => s.uiVersion,
    selectLastKnownUiVersion: (s) => s.lastKnownUiVersion,
  },
});

export const sessionActions = sessionSlice.actions;
export const sessionSelectors = sessionSlice.selectors;

/** The portal's roles of a user (RoleGuard, useRoleAllowed). */
export type PortalRole = 'staff' | 'staffAdmin' | 'auditor' | 'client';

export function rolesOf(user: SessionState['user']): PortalRole[] {
  if (!user) return [];
  if (!user.isTevora) return ['client'];
  const roles: PortalRole[] = ['staff'];
  if (user.admin.active) roles.push('staffAdmin');
  if (user.isAuditor) roles.push('auditor');
  return roles;
}

/** True when the signed-in user holds one of `allowed` (or none of them, when `invert`). */
export function useRoleAllowed(allowed: PortalRole[], invert = false): boolean {
  const user = useSelector((s: { session: SessionState }) => sessionSelectors.selectUser(s));
  const has = rolesOf(user).some((r) => allowed.includes(r));
  return invert ? !has : has;
}
