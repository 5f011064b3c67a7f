/**
 * Session state: the signed-in user, the selected company and its access. The shell drives it;
 * remotes read it with the selectors below (one store, built by the shell).
 */
import { createSlice, type PayloadAction } from '@portal/shared/web/store';
import type { AccessPermissions, Company, User } from '@portal/shared/core/schemas';

export interface SessionState {
  user: User | null;
  loggedIn: boolean;
  companies: Company[];
  companiesLoaded: boolean;
  selectedCompanyId: string | null;
  access: AccessPermissions | null;
  detailedView: boolean;
  theme: 'light' | 'dark';
  /** The product name shown wherever SPEC.md says {brand}. */
  brand: string;
}

export const initialSessionState: SessionState = {
  user: null,
  loggedIn: false,
  companies: [],
  companiesLoaded: false,
  selectedCompanyId: null,
  access: null,
  detailedView: false,
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
      if (state.selectedCompanyId !== action.payload) state.access = null;
      state.selectedCompanyId = action.payload;
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
    loggedOut() {
      return initialSessionState;
    },
  },
  selectors: {
    selectUser: (s) => s.user,
    selectCompanies: (s) => s.companies,
    selectSelectedCompanyId: (s) => s.selectedCompanyId,
    selectSelectedCompany: (s) => s.companies.find((c) => c.id === s.selectedCompanyId) ?? null,
    selectAccess: (s) => s.access,
    selectTheme: (s) => s.theme,
    selectDetailedView: (s) => s.detailedView,
    selectBrand: (s) => s.brand,
  },
});

export const sessionActions = sessionSlice.actions;
export const sessionSelectors = sessionSlice.selectors;
