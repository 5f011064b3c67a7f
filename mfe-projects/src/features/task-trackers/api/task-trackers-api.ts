/**
 * Templates and task tracker files for a project, injected into the portal's one RTK Query api
 * (endpoint names start with `projects`, like the rest of this remote). The contract is
 * shared/src/core/practices. The file import is not an endpoint: it needs upload progress and a
 * cancel, which fetch lacks (app/upload.ts); after one the caller invalidates TRACKER_CHANGES.
 */
import { portalApi } from '@portal/shared/web/api';
import type {
  ApplicableTracker,
  ApplyTemplate,
  ApplyTemplateResult,
  ProjectImportResult,
  TaskTrackerDetail,
} from '@portal/shared/core/practices';
import { uploadForm, type UploadOptions } from '../../../app/upload';

const enc = encodeURIComponent;
const projectUrl = (projectId: string) => `/projects/${enc(projectId)}`;

const api = portalApi.enhanceEndpoints({
  addTagTypes: [
    'ProjectTaskTrackers',
    'Projects',
    'ProjectsSummary',
    'Project',
    'Tasks',
    'Task',
    'Controls',
    'Control',
    'PointsOfFocus',
  ],
});

/**
 * What tasks copied into a project make stale: its task list, controls and points of focus, the
 * project's counts (and its practice, which an apply may set), the dashboard, and which templates are
 * of the project's practice.
 */
export const TRACKER_CHANGES = [
  'Tasks',
  'Task',
  'Controls',
  'Control',
  'PointsOfFocus',
  'Project',
  'Projects',
  'ProjectsSummary',
  'ProjectTaskTrackers',
] as const;

export const taskTrackersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Published templates of active practices that can be applied to the project, its own practice's first. */
    projectsTaskTrackers: build.query<ApplicableTracker[], string>({
      query: (projectId) => `${projectUrl(projectId)}/task-trackers`,
      transformResponse: (body: { results: ApplicableTracker[] }) => body.results,
      providesTags: ['ProjectTaskTrackers'],
    }),
    /** One template with its tasks and subtasks (staff only: the apply dialog's task picker). */
    projectsTaskTracker: build.query<TaskTrackerDetail, string>({
      query: (trackerId) => `/task-trackers/${enc(trackerId)}`,
    }),
    projectsApplyTemplate: build.mutation<ApplyTemplateResult, { projectId: string; body: ApplyTemplate }>({
      query: ({ projectId, body }) => ({ url: `${projectUrl(projectId)}/task-trackers/apply`, method: 'POST', body }),
      invalidatesTags: [...TRACKER_CHANGES],
    }),
  }),
});

/** Sends a task tracker file to be imported into the project (all of it or nothing), with upload progress and a cancel. */
export function importTrackerFile(
  projectId: string,
  file: File,
  options: UploadOptions = {},
): Promise<ProjectImportResult> {
  const form = new FormData();
  form.append('file', file);
  return uploadForm<ProjectImportResult>(`${projectUrl(projectId)}/tasks/import`, form, options);
}
