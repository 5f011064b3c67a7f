/**
 * This browser's remote overrides (staff): a remote loaded from another address in this browser alone,
 * to try a release before the portal's manifest points everyone at it (docs/federation.md).
 */
import type { z } from 'zod';
import type { remoteOverrides } from '@portal/shared/core/portal/results';
import { settingsApi } from '../../../app/settings-api';

export type RemoteOverride = z.infer<typeof remoteOverrides>['results'][number];

const enc = encodeURIComponent;

export const remoteOverridesApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    settingsRemoteOverrides: build.query<RemoteOverride[], void>({
      query: () => '/remote-overrides',
      transformResponse: (body: z.infer<typeof remoteOverrides>) => body.results,
      providesTags: ['RemoteOverrides'],
    }),
    settingsRemoteOverrideSet: build.mutation<void, RemoteOverride>({
      query: ({ remote, url }) => ({ url: `/remote-overrides/${enc(remote)}`, method: 'PUT', body: { url } }),
      invalidatesTags: ['RemoteOverrides'],
    }),
    settingsRemoteOverrideDelete: build.mutation<void, string>({
      query: (remote) => ({ url: `/remote-overrides/${enc(remote)}`, method: 'DELETE' }),
      invalidatesTags: ['RemoteOverrides'],
    }),
  }),
});

export const {
  useSettingsRemoteOverridesQuery,
  useSettingsRemoteOverrideSetMutation,
  useSettingsRemoteOverrideDeleteMutation,
} = remoteOverridesApi;
