/**
 * The selected company's settings. Changes to its name, logo or module access invalidate `Company` and
 * `AccessPermissions` (the shell's queries: navigation, the company switcher and mounted remotes follow)
 * and `Clients` (the staff's list of companies shows names and modules).
 */
import type { ModuleName } from '@portal/shared/core/modules';
import type {
  Company,
  CompanyDomain,
  CompanyDomainInput,
  IdentityProviderInput,
  IdentityProviderSettings,
  PasswordPolicy,
} from '@portal/shared/core/schemas';
import type { FetchBaseQueryError } from '@portal/shared/web/store';
import { settingsApi } from '../../../app/settings-api';

const companyPath = (companyId: string) => `/companies/${encodeURIComponent(companyId)}`;
/** A user's effective module access (UserModules) follows the company's ceiling. */
const COMPANY_CHANGED = ['Company', 'AccessPermissions', 'Clients', 'UserModules'] as const;
const domainPath = (companyId: string, domainId: string) =>
  `${companyPath(companyId)}/domains/${encodeURIComponent(domainId)}`;
/**
 * The company's email domains come with its identity provider settings (GET …/identity-provider): a
 * change refetches those. A 400 refused the request as sent and changed nothing, so nothing is refetched.
 */
const domainsChanged = (_r: unknown, error: FetchBaseQueryError | undefined, { companyId }: { companyId: string }) =>
  error?.status === 400 ? [] : [{ type: 'IdentityProvider' as const, id: companyId }];

export const companyApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    /** PATCH /companies/:id, multipart: `name` and/or a `logo` file. */
    settingsCompanyUpdate: build.mutation<Company, { companyId: string; body: FormData }>({
      query: ({ companyId, body }) => ({ url: companyPath(companyId), method: 'PATCH', body }),
      invalidatesTags: [...COMPANY_CHANGED],
    }),
    settingsCompanyLogoDelete: build.mutation<void, string>({
      query: (companyId) => ({ url: `${companyPath(companyId)}/logo`, method: 'DELETE' }),
      invalidatesTags: [...COMPANY_CHANGED],
    }),
    /** The company's ceiling for its users and teams: some modules, each on or off. */
    settingsCompanyModulesUpdate: build.mutation<
      Company,
      { companyId: string; modules: Partial<Record<ModuleName, boolean>> }
    >({
      query: ({ companyId, modules }) => ({
        url: `${companyPath(companyId)}/modules-access`,
        method: 'PATCH',
        body: modules,
      }),
      invalidatesTags: [...COMPANY_CHANGED],
    }),
    settingsCompanyPasswordPolicyUpdate: build.mutation<PasswordPolicy, { companyId: string; policy: PasswordPolicy }>({
      query: ({ companyId, policy }) => ({
        url: `${companyPath(companyId)}/password-policy`,
        method: 'POST',
        body: policy,
      }),
      invalidatesTags: (_r, _e, { companyId }) => [{ type: 'PasswordPolicy', id: companyId }],
    }),
    settingsCompanyIdentityProvider: build.query<IdentityProviderSettings, string>({
      query: (companyId) => `${companyPath(companyId)}/identity-provider`,
      providesTags: (_r, _e, id) => [{ type: 'IdentityProvider', id }],
    }),
    settingsCompanyIdentityProviderUpdate: build.mutation<
      IdentityProviderSettings,
      { companyId: string; identityProvider: IdentityProviderInput }
    >({
      query: ({ companyId, identityProvider }) => ({
        url: `${companyPath(companyId)}/identity-provider`,
        method: 'PUT',
        body: identityProvider,
      }),
      invalidatesTags: (_r, _e, { companyId }) => [{ type: 'IdentityProvider', id: companyId }],
    }),
    settingsCompanyIdentityProviderDelete: build.mutation<void, string>({
      query: (companyId) => ({ url: `${companyPath(companyId)}/identity-provider`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, companyId) => [{ type: 'IdentityProvider', id: companyId }],
    }),
    /** An email domain for the identity provider to sign in: added pending, with the TXT record that verifies it. */
    settingsCompanyDomainAdd: build.mutation<CompanyDomain, { companyId: string; domain: CompanyDomainInput }>({
      query: ({ companyId, domain }) => ({ url: `${companyPath(companyId)}/domains`, method: 'POST', body: domain }),
      invalidatesTags: domainsChanged,
    }),
    /** Looks up the domain's TXT record: 400 domain_not_verified (the api names the record) while it is not there. */
    settingsCompanyDomainVerify: build.mutation<CompanyDomain, { companyId: string; domainId: string }>({
      query: ({ companyId, domainId }) => ({ url: `${domainPath(companyId, domainId)}/verify`, method: 'POST' }),
      invalidatesTags: domainsChanged,
    }),
    /** Staff admins only: verifies the domain without its DNS record. */
    settingsCompanyDomainConfirm: build.mutation<CompanyDomain, { companyId: string; domainId: string }>({
      query: ({ companyId, domainId }) => ({ url: `${domainPath(companyId, domainId)}/confirm`, method: 'POST' }),
      invalidatesTags: domainsChanged,
    }),
    settingsCompanyDomainDelete: build.mutation<void, { companyId: string; domainId: string }>({
      query: ({ companyId, domainId }) => ({ url: domainPath(companyId, domainId), method: 'DELETE' }),
      invalidatesTags: domainsChanged,
    }),
  }),
});

export const {
  useSettingsCompanyUpdateMutation,
  useSettingsCompanyLogoDeleteMutation,
  useSettingsCompanyModulesUpdateMutation,
  useSettingsCompanyPasswordPolicyUpdateMutation,
  useSettingsCompanyIdentityProviderQuery,
  useSettingsCompanyIdentityProviderUpdateMutation,
  useSettingsCompanyIdentityProviderDeleteMutation,
  useSettingsCompanyDomainAddMutation,
  useSettingsCompanyDomainVerifyMutation,
  useSettingsCompanyDomainConfirmMutation,
  useSettingsCompanyDomainDeleteMutation,
} = companyApi;
