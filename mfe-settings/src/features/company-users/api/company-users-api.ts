import type {
  AssignedObject,
  CompanyRoleName,
  CompanyUser,
  CompanyUserInvite,
  CompanyUsersQuery,
  UserDetail,
  UserModulesAccess,
} from '@portal/shared/core/settings';
import type { ModuleAccess } from '@portal/shared/core/modules';
import { settingsApi } from '../../../app/settings-api';

const enc = encodeURIComponent;

export interface CompanyUsersPage {
  results: CompanyUser[];
  total: number;
  page: number;
  pageSize: number;
}

export type CompanyUsersListArgs = { companyId: string } & Pick<
  CompanyUsersQuery,
  'search' | 'role' | 'status' | 'sort' | 'page' | 'pageSize'
>;

type MemberArgs = { companyId: string; userId: string };

export interface UserAdminUpdate {
  firstName?: string;
  lastName?: string;
  title?: string | null;
  primaryPhone?: string | null;
  status?: 'active' | 'suspended';
}

/** Company members and one member's details, module access and assigned objects. */
export const companyUsersApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    settingsCompanyUsersList: build.query<CompanyUsersPage, CompanyUsersListArgs>({
      query: ({ companyId, ...params }) => ({ url: `/companies/${enc(companyId)}/users`, params }),
      providesTags: ['CompanyUsers'],
    }),
    settingsCompanyUsersInvite: build.mutation<CompanyUser, { companyId: string; body: CompanyUserInvite }>({
      query: ({ companyId, body }) => ({ url: `/companies/${enc(companyId)}/users`, method: 'POST', body }),
      invalidatesTags: ['CompanyUsers'],
    }),
    // A role decides settings permissions: the caller's own change shows in the shell at once.
    settingsCompanyUsersSetRole: build.mutation<void, MemberArgs & { role: CompanyRoleName }>({
      query: ({ companyId, userId, role }) => ({
        url: `/companies/${enc(companyId)}/users/${enc(userId)}/role`,
        method: 'PATCH',
        body: { role },
      }),
      invalidatesTags: (_r, _e, { companyId, userId }) => [
        'CompanyUsers',
        { type: 'UserDetail', id: userId },
        { type: 'AccessPermissions', id: companyId },
      ],
    }),
    settingsCompanyUsersRevokeAccess: build.mutation<void, MemberArgs>({
      query: ({ companyId, userId }) => ({
        url: `/companies/${enc(companyId)}/users/${enc(userId)}/revoke-access`,
        method: 'DELETE',
      }),
      invalidatesTags: (_r, _e, { userId }) => ['CompanyUsers', { type: 'UserDetail', id: userId }],
    }),
    settingsCompanyUsersRestoreAccess: build.mutation<void, MemberArgs>({
      query: ({ companyId, userId }) => ({
        url: `/companies/${enc(companyId)}/users/${enc(userId)}/restore-access`,
        method: 'POST',
      }),
      invalidatesTags: (_r, _e, { userId }) => ['CompanyUsers', { type: 'UserDetail', id: userId }],
    }),
    settingsCompanyUsersRemove: build.mutation<void, MemberArgs>({
      query: ({ companyId, userId }) => ({
        url: `/companies/${enc(companyId)}/users/${enc(userId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_r, _e, { userId }) => ['CompanyUsers', 'Teams', { type: 'UserDetail', id: userId }],
    }),
    settingsUsersUpdate: build.mutation<UserDetail, { userId: string; body: UserAdminUpdate }>({
      query: ({ userId, body }) => ({ url: `/users/${enc(userId)}`, method: 'PATCH', body }),
      // the header (User) when admins edit themselves, and the staff list (Staff)
      invalidatesTags: (_r, _e, { userId }) => ['CompanyUsers', 'User', 'Staff', { type: 'UserDetail', id: userId }],
    }),
    settingsUsersUnsuspend: build.mutation<void, string>({
      query: (userId) => ({ url: `/users/${enc(userId)}/unsuspend`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => ['CompanyUsers', { type: 'UserDetail', id }],
    }),
    settingsUsersResetPassword: build.mutation<void, string>({
      query: (userId) => ({ url: `/users/${enc(userId)}/reset-password`, method: 'POST' }),
    }),
    settingsUserModulesGet: build.query<UserModulesAccess, MemberArgs>({
      query: ({ companyId, userId }) => `/companies/${enc(companyId)}/users/${enc(userId)}/modules-access`,
      providesTags: (_r, _e, { companyId, userId }) => [{ type: 'UserModules', id: `${companyId}/${userId}` }],
    }),
    settingsUserModulesUpdate: build.mutation<unknown, MemberArgs & { changes: Partial<ModuleAccess> }>({
      query: ({ companyId, userId, changes }) => ({
        url: `/companies/${enc(companyId)}/users/${enc(userId)}/modules-access`,
        method: 'PATCH',
        body: changes,
      }),
      invalidatesTags: (_r, _e, { companyId, userId }) => [
        { type: 'UserModules', id: `${companyId}/${userId}` },
        { type: 'AccessPermissions', id: companyId },
      ],
    }),
    settingsUserAssignedObjects: build.query<{ results: AssignedObject[] }, MemberArgs>({
      query: ({ companyId, userId }) => ({ url: `/users/${enc(userId)}/assigned-objects`, params: { companyId } }),
      providesTags: (_r, _e, { userId }) => [{ type: 'UserDetail', id: `objects/${userId}` }],
    }),
    settingsUserObjectAccessRemove: build.mutation<
      void,
      { userId: string; objectId: string; module: AssignedObject['module'] }
    >({
      query: ({ userId, objectId, module }) => ({
        url: `/users/${enc(userId)}/object-access/${enc(objectId)}`,
        method: 'DELETE',
        params: { module },
      }),
      invalidatesTags: (_r, _e, { userId }) => [{ type: 'UserDetail', id: `objects/${userId}` }],
    }),
  }),
});

export const {
  useSettingsCompanyUsersListQuery,
  useSettingsCompanyUsersInviteMutation,
  useSettingsCompanyUsersSetRoleMutation,
  useSettingsCompanyUsersRevokeAccessMutation,
  useSettingsCompanyUsersRestoreAccessMutation,
  useSettingsCompanyUsersRemoveMutation,
  useSettingsUsersUpdateMutation,
  useSettingsUsersUnsuspendMutation,
  useSettingsUsersResetPasswordMutation,
  useSettingsUserModulesGetQuery,
  useSettingsUserModulesUpdateMutation,
  useSettingsUserAssignedObjectsQuery,
  useSettingsUserObjectAccessRemoveMutation,
} = companyUsersApi;
