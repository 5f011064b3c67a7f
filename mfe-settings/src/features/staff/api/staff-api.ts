import type { Practice, StaffUser } from '@portal/shared/core/settings';
import { settingsApi } from '../../../app/settings-api';

const enc = encodeURIComponent;

export interface StaffPage {
  results: StaffUser[];
  total: number;
  page: number;
  pageSize: number;
}

/** {brand} staff: the list, the admin flag and each staff user's practices (SPEC.md sections 2 and 7). */
export const staffApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    settingsStaffList: build.query<StaffPage, { search?: string; page: number; pageSize: number }>({
      query: (params) => ({ url: '/users/staff', params }),
      providesTags: ['Staff'],
    }),
    settingsStaffSetAdmin: build.mutation<StaffUser, { userId: string; role: 'admin' | 'staff' }>({
      query: ({ userId, role }) => ({ url: `/users/admin/${enc(userId)}`, method: 'PUT', body: { role } }),
      invalidatesTags: (_r, _e, { userId }) => ['Staff', { type: 'UserDetail', id: userId }],
    }),
    settingsPracticesList: build.query<Practice[], void>({
      query: () => '/practices',
      transformResponse: (body: { results: Practice[] }) => body.results,
      providesTags: ['Practices'],
    }),
    settingsStaffPractices: build.query<Practice[], string>({
      query: (userId) => `/users/${enc(userId)}/practices`,
      transformResponse: (body: { results: Practice[] }) => body.results,
      providesTags: (_r, _e, id) => [{ type: 'Practices', id: `staff/${id}` }],
    }),
    settingsStaffPracticesUpdate: build.mutation<Practice[], { userId: string; practiceIds: string[] }>({
      query: ({ userId, practiceIds }) => ({ url: `/users/${enc(userId)}/practices`, method: 'PUT', body: { practiceIds } }),
      transformResponse: (body: { results: Practice[] }) => body.results,
      invalidatesTags: (_r, _e, { userId }) => ['Staff', { type: 'Practices', id: `staff/${userId}` }],
    }),
  }),
});

export const {
  useSettingsStaffListQuery,
  useSettingsStaffSetAdminMutation,
  useSettingsPracticesListQuery,
  useSettingsStaffPracticesQuery,
  useSettingsStaffPracticesUpdateMutation,
} = staffApi;
