import { portalApi } from '@portal/shared/web/api';
import type { PortalMessage, SystemSettingsList } from '@portal/shared/core/schemas';

/** The system settings call as the shell makes it: keys as `keys[]=Banner`. */
export interface SystemSettingsListArgs {
  keys: string[];
}

/** The banner is the first item of the settings list fetched by key Banner. */
export const BANNER_SETTINGS: SystemSettingsListArgs = { keys: ['Banner'] };

export const systemSettingsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    systemSettingsList: build.query<PortalMessage[], SystemSettingsListArgs>({
      query: ({ keys }) => ({ url: '/system-settings', params: { keys } }),
      transformResponse: (body: SystemSettingsList) => body.data,
      // Fetched once and kept in portal state for the whole session.
      keepUnusedDataFor: Infinity,
    }),
    systemSettingsDismiss: build.mutation<void, { id: string; version: number }>({
      query: ({ id, version }) => ({
        url: `/system-settings/${encodeURIComponent(id)}/dismiss`,
        method: 'POST',
        body: { version },
      }),
      // Hidden at once. If the call fails the toast says so, and the banner stays closed for this session.
      async onQueryStarted({ id, version }, { dispatch }) {
        dispatch(
          systemSettingsApi.util.updateQueryData('systemSettingsList', BANNER_SETTINGS, (messages) => {
            for (const m of messages) if (m.id === id && m.version === version) m.dismissed = true;
          }),
        );
      },
    }),
  }),
});

export const { useSystemSettingsListQuery, useSystemSettingsDismissMutation } = systemSettingsApi;
