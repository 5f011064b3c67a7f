/**
 * The portal's one RTK Query api with the tags the settings screens share: each feature injects its
 * own endpoints (named settings…) into this. Mutations that change what the shell shows (module access,
 * the company's name or logo) invalidate `Company` and `AccessPermissions`, which the shell's queries
 * provide: navigation and mounted remotes follow without a reload.
 */
import { portalApi } from '@portal/shared/web/api';

export const settingsApi = portalApi.enhanceEndpoints({
  addTagTypes: [
    'CompanyUsers',
    'UserDetail',
    'UserModules',
    'Teams',
    'Staff',
    'Practices',
    'AuditLog',
    'SystemSettings',
    'FeatureFlags',
    'PasswordPolicy',
    'IdentityProvider',
    'Clients',
    'RemoteOverrides',
  ],
});
