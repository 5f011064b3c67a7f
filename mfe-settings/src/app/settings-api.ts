/**
 * The portal's one RTK Query api with the tags the settings screens share: each feature injects its
 * own endpoints (named settings…) into this. Mutations that change what the shell shows (module access,
 * the company's name or logo) invalidate `Company` and `AccessPermissions`, which the shell's queries
 * provide: navigation and mounted remotes follow without a reload.
 */
import { portalApi } from '@portal/shared/web/api';

export const settingsApi = portalApi.enhanceEndpoints({
  addTagTypes: ['CompanyUsers', 'UserDetail', 'UserModules', 'Teams', 'Staff', 'Practices', 'AuditLog', 'SystemSettings', 'FeatureFlags', 'PasswordPolicy', 'IdentityProvider', 'Clients'],
});

/** The `details` of a 400 from the api, as antd Form field errors: [{ name, errors }]. */
export function fieldErrors(error: unknown): { name: string; errors: string[] }[] {
  const data = (error as { data?: { details?: { field: string; message: string }[] } } | undefined)?.data;
  const byField = new Map<string, string[]>();
  for (const d of data?.details ?? []) byField.set(d.field, [...(byField.get(d.field) ?? []), d.message]);
  return [...byField].map(([name, errors]) => ({ name, errors }));
}

/** The api's message for a failed call (the shell also shows it as a toast). */
export function errorMessage(error: unknown): string | null {
  const data = (error as { data?: { message?: string } } | undefined)?.data;
  return typeof data?.message === 'string' ? data.message : null;
}
