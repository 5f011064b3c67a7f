/**
 * A project's interviews calls, injected into the portal's one RTK Query api (endpoint names start with
 * `interviews`). The contract (paths, bodies, replies, errors) is shared/src/core/interviews. Every
 * change invalidates the list, so a scheduled, rescheduled or canceled interview shows at once.
 */
import { portalApi } from '@portal/shared/web/api';
import type {
  Interview,
  InterviewCancel,
  InterviewCreate,
  InterviewList,
  InterviewPeople,
  InterviewsQuery,
  InterviewUpdate,
} from '@portal/shared/core/interviews';

const enc = encodeURIComponent;
const interviewsUrl = (projectId: string) => `/projects/${enc(projectId)}/interviews`;
const interviewUrl = (projectId: string, interviewId: string) => `${interviewsUrl(projectId)}/${enc(interviewId)}`;

/** The invitation of an interview (text/calendar) under the api's base, for downloadFromApi. */
export const invitationPath = (projectId: string, interviewId: string) =>
  `${interviewUrl(projectId, interviewId)}/calendar.ics`;

// `ProjectUsers` is the roster's tag (app/projects-api.ts): a roster change changes who may take part.
const api = portalApi.enhanceEndpoints({ addTagTypes: ['Interviews', 'ProjectUsers'] });

export const interviewsApi = api.injectEndpoints({
  endpoints: (build) => ({
    interviewsList: build.query<InterviewList, { projectId: string } & InterviewsQuery>({
      query: ({ projectId, ...params }) => ({ url: interviewsUrl(projectId), params }),
      providesTags: ['Interviews'],
    }),
    /** Whom the schedule form offers: organizers, interviewers and attendees. */
    interviewsPeople: build.query<InterviewPeople, string>({
      query: (projectId) => `/projects/${enc(projectId)}/interview-people`,
      providesTags: ['ProjectUsers'],
    }),
    interviewsCreate: build.mutation<Interview, { projectId: string; body: InterviewCreate }>({
      query: ({ projectId, body }) => ({ url: interviewsUrl(projectId), method: 'POST', body }),
      invalidatesTags: ['Interviews'],
    }),
    interviewsUpdate: build.mutation<Interview, { projectId: string; interviewId: string; body: InterviewUpdate }>({
      query: ({ projectId, interviewId, body }) => ({
        url: interviewUrl(projectId, interviewId),
        method: 'PATCH',
        body,
      }),
      invalidatesTags: ['Interviews'],
    }),
    interviewsCancel: build.mutation<Interview, { projectId: string; interviewId: string; body: InterviewCancel }>({
      query: ({ projectId, interviewId, body }) => ({
        url: `${interviewUrl(projectId, interviewId)}/cancel`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['Interviews'],
    }),
  }),
});
