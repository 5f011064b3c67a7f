import type {
  PracticeCreate,
  PracticeDetail,
  PracticeStatus,
  PracticeSummary,
  PracticeUpdate,
  TaskTrackerDetail,
  TaskTrackerFormat,
  TaskTrackerSummary,
  TaskTrackerUpdate,
} from '@portal/shared/core/practices';
import { settingsApi } from '../../../app/settings-api';

const enc = encodeURIComponent;

export interface PracticesSearch {
  status: PracticeStatus | 'all';
  search?: string;
}

/**
 * What a change to a practice's templates makes stale: its templates, the practice (counts), the
 * practices list (counts) and the template itself. Imports (sent by XHR for their progress, not by
 * this api) invalidate the same through `practicesApi.util.invalidateTags`.
 */
export function templateChangeTags(practiceId: string, trackerId?: string) {
  return [
    { type: 'Practices' as const, id: 'LIST' },
    { type: 'Practices' as const, id: practiceId },
    { type: 'Practices' as const, id: `templates/${practiceId}` },
    ...(trackerId ? [{ type: 'Practices' as const, id: `tracker/${trackerId}` }] : []),
  ];
}

/**
 * Practices & Templates (shared/src/core/practices): practices, their task tracker templates.
 * Changing a practice invalidates every `Practices` query (its name shows on staff screens too).
 */
export const practicesApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    settingsPracticesSearch: build.query<PracticeSummary[], PracticesSearch>({
      query: ({ status, search }) => ({ url: '/practices', params: { status, search: search || undefined } }),
      transformResponse: (body: { results: PracticeSummary[] }) => body.results,
      providesTags: [{ type: 'Practices', id: 'LIST' }],
    }),
    settingsPracticeGet: build.query<PracticeDetail, string>({
      query: (id) => `/practices/${enc(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Practices', id }],
    }),
    settingsPracticeCreate: build.mutation<PracticeSummary, PracticeCreate>({
      query: (body) => ({ url: '/practices', method: 'POST', body }),
      invalidatesTags: ['Practices'],
    }),
    settingsPracticeUpdate: build.mutation<PracticeSummary, { id: string; body: PracticeUpdate }>({
      query: ({ id, body }) => ({ url: `/practices/${enc(id)}`, method: 'PATCH', body }),
      invalidatesTags: ['Practices'],
    }),
    settingsTemplatesList: build.query<TaskTrackerSummary[], string>({
      query: (practiceId) => `/practices/${enc(practiceId)}/task-trackers`,
      transformResponse: (body: { results: TaskTrackerSummary[] }) => body.results,
      providesTags: (_r, _e, practiceId) => [{ type: 'Practices', id: `templates/${practiceId}` }],
    }),
    settingsTemplateGet: build.query<TaskTrackerDetail, string>({
      query: (trackerId) => `/task-trackers/${enc(trackerId)}`,
      providesTags: (_r, _e, trackerId) => [{ type: 'Practices', id: `tracker/${trackerId}` }],
    }),
    settingsTemplateUpdate: build.mutation<
      TaskTrackerSummary,
      { practiceId: string; id: string; body: TaskTrackerUpdate }
    >({
      query: ({ id, body }) => ({ url: `/task-trackers/${enc(id)}`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { practiceId, id }) => templateChangeTags(practiceId, id),
    }),
    settingsTemplateDelete: build.mutation<void, { practiceId: string; id: string }>({
      query: ({ id }) => ({ url: `/task-trackers/${enc(id)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { practiceId }) => templateChangeTags(practiceId),
    }),
  }),
});

export const {
  useSettingsPracticesSearchQuery,
  useSettingsPracticeGetQuery,
  useSettingsPracticeCreateMutation,
  useSettingsPracticeUpdateMutation,
  useSettingsTemplatesListQuery,
  useSettingsTemplateGetQuery,
  useSettingsTemplateUpdateMutation,
  useSettingsTemplateDeleteMutation,
} = practicesApi;

/** Where multipart imports go (sent with uploadForm, for progress and cancel). Under /api/v1. */
export const importTemplatePath = (practiceId: string) => `/practices/${enc(practiceId)}/task-trackers/import`;
export const replaceTemplatePath = (trackerId: string) => `/task-trackers/${enc(trackerId)}/import`;

/** A template's export (under /api/v1), fetched with downloadFromApi so a refusal is said. */
export const templateExportPath = (trackerId: string, format: TaskTrackerFormat) =>
  `/task-trackers/${enc(trackerId)}/export?format=${format}`;
