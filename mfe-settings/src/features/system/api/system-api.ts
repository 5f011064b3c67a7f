import type { AuditEntry, SystemSettingFile } from '@portal/shared/core/settings';
import type { SignedUrl } from '@portal/shared/core/files';
import type { PortalMessage, PortalMessageBody, SystemSettingsList } from '@portal/shared/core/schemas';
import type { FeatureFlagDefinition, FlagRule, FlagValue } from '@portal/shared/core/feature-flags';
import { settingsApi } from '../../../app/settings-api';

const enc = encodeURIComponent;

export interface AuditLogArgs {
  search?: string;
  action?: string;
  targetType?: string;
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

export interface AuditLogPage {
  results: AuditEntry[];
  total: number;
  page: number;
  pageSize: number;
}

export interface FeatureFlagBody {
  description: string;
  defaultValue: FlagValue;
  rules: FlagRule[];
  enabled: boolean;
}

/** System Admin (staff admins): portal messages and their files, feature flags, the audit log. */
export const systemApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    settingsMessagesList: build.query<PortalMessage[], void>({
      query: () => '/system-settings',
      transformResponse: (body: SystemSettingsList) => body.data,
      providesTags: ['SystemSettings'],
    }),
    settingsMessagesCreate: build.mutation<PortalMessage, PortalMessageBody>({
      query: (body) => ({ url: '/system-settings', method: 'POST', body }),
      invalidatesTags: ['SystemSettings', 'AuditLog'],
    }),
    settingsMessagesUpdate: build.mutation<PortalMessage, { id: string; body: PortalMessageBody }>({
      query: ({ id, body }) => ({ url: `/system-settings/${enc(id)}`, method: 'PUT', body }),
      invalidatesTags: ['SystemSettings', 'AuditLog'],
    }),
    settingsMessagesDelete: build.mutation<void, string>({
      query: (id) => ({ url: `/system-settings/${enc(id)}`, method: 'DELETE' }),
      invalidatesTags: ['SystemSettings', 'AuditLog'],
    }),
    settingsMessageFiles: build.query<SystemSettingFile[], string>({
      query: (id) => `/system-settings/${enc(id)}/files`,
      transformResponse: (body: { files: SystemSettingFile[] }) => body.files,
      providesTags: (_r, _e, id) => [{ type: 'SystemSettings', id: `files/${id}` }],
    }),
    settingsMessageFilesUpload: build.mutation<SystemSettingFile[], { id: string; files: File[] }>({
      query: ({ id, files }) => {
        const form = new FormData();
        for (const file of files) form.append('files', file, file.name);
        return { url: `/system-settings/${enc(id)}/files`, method: 'PATCH', body: form };
      },
      transformResponse: (body: { files: SystemSettingFile[] }) => body.files,
      invalidatesTags: (_r, _e, { id }) => [{ type: 'SystemSettings', id: `files/${id}` }, 'AuditLog'],
    }),
    /** A short-lived download link: files are served only through signed URLs. Never cached. */
    settingsFileSignedUrl: build.mutation<SignedUrl, string>({
      query: (fileId) => ({ url: `/files/${enc(fileId)}/signed-url`, method: 'GET' }),
    }),
    settingsMessageFilesDelete: build.mutation<void, { id: string; fileId: string }>({
      query: ({ id, fileId }) => ({ url: `/system-settings/${enc(id)}/files/${enc(fileId)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'SystemSettings', id: `files/${id}` }, 'AuditLog'],
    }),
    settingsFlagsList: build.query<FeatureFlagDefinition[], void>({
      query: () => '/feature-flags/definitions',
      transformResponse: (body: { results: FeatureFlagDefinition[] }) => body.results,
      providesTags: ['FeatureFlags'],
    }),
    settingsFlagsPut: build.mutation<FeatureFlagDefinition, { key: string; body: FeatureFlagBody }>({
      query: ({ key, body }) => ({ url: `/feature-flags/${enc(key)}`, method: 'PUT', body }),
      invalidatesTags: ['FeatureFlags', 'AuditLog'],
    }),
    settingsFlagsDelete: build.mutation<void, string>({
      query: (key) => ({ url: `/feature-flags/${enc(key)}`, method: 'DELETE' }),
      invalidatesTags: ['FeatureFlags', 'AuditLog'],
    }),
    settingsAuditLog: build.query<AuditLogPage, AuditLogArgs>({
      query: (params) => ({ url: '/audit-log', params }),
      providesTags: ['AuditLog'],
    }),
  }),
});

export const {
  useSettingsMessagesListQuery,
  useSettingsMessagesCreateMutation,
  useSettingsMessagesUpdateMutation,
  useSettingsMessagesDeleteMutation,
  useSettingsMessageFilesQuery,
  useSettingsMessageFilesUploadMutation,
  useSettingsMessageFilesDeleteMutation,
  useSettingsFileSignedUrlMutation,
  useSettingsFlagsListQuery,
  useSettingsFlagsPutMutation,
  useSettingsFlagsDeleteMutation,
  useSettingsAuditLogQuery,
} = systemApi;
