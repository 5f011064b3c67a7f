import type { Practice, StaffUser } from '@portal/shared/core/settings';
import { settingsApi } from '../../../app/settings-api';

const enc = encodeURIComponent;

export interface StaffPage {
  results: StaffUser[];
  total: number;
  page: number;
  pageSize: number;
}

/** {brand} staff: the list, the admin flag and each staff user's practices. */
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
      query: ({ userId, practiceIds }) => ({
        url: `/users/${enc(userId)}/practices`,
        method: 'PUT',
        body: { practiceIds },
      }),
      transformResponse: (body: { results: Practice[] }) => body.results,
      // the practices list and the practice pages count and list their staff: the practices the user
      // gains are read again here, those the user loses once the change is saved
      invalidatesTags: (_r, _e, { userId, practiceIds }) => [
        'Staff',
        { type: 'Practices', id: `staff/${userId}` },
        { type: 'Practices', id: 'LIST' },
        ...practiceIds.map((id) => ({ type: 'Practices' as const, id })),
      ],
      async onQueryStarted({ userId, practiceIds }, { dispatch, getState, queryFulfilled }) {
        const before = staffApi.endpoints.settingsStaffPractices.select(userId)(getState() as never).data ?? [];
        const lost = before.map((p) => p.id).filter((id) => !practiceIds.includes(id));
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        if (lost.length) dispatch(staffApi.util.invalidateTags(lost.map((id) => ({ type: 'Practices' as const, id }))));
      },
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
