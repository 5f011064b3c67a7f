/**
 * Reads that several settings features need (a feature does not import another feature): one endpoint
 * each, so one cache entry and one tag serve every screen that shows the same thing.
 */
import type { PasswordPolicy } from '@portal/shared/core/schemas';
import type { UserDetail } from '@portal/shared/core/settings';
import { settingsApi } from './settings-api';

const sharedQueriesApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /users/:id: a company user or a staff user, as an administrator sees them. */
    settingsUserGet: build.query<UserDetail, string>({
      query: (userId) => `/users/${encodeURIComponent(userId)}`,
      providesTags: (_r, _e, id) => [{ type: 'UserDetail', id }],
    }),
    /** A company's password policy: the Company tab edits it, the password form states its minimum. */
    settingsPasswordPolicyGet: build.query<PasswordPolicy, string>({
      query: (companyId) => `/companies/${encodeURIComponent(companyId)}/password-policy`,
      providesTags: (_r, _e, id) => [{ type: 'PasswordPolicy', id }],
    }),
  }),
});

export const { useSettingsUserGetQuery, useSettingsPasswordPolicyGetQuery } = sharedQueriesApi;
