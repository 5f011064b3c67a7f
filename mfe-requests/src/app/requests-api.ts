/**
 * The requests remote's calls (contract: shared/src/core/requests). Evidence uploads go through
 * `@portal/shared/web/upload` (progress, cancel) and then invalidate 'Request' and 'RequestHistory';
 * import and export are files (the shared upload and download helpers).
 */
import { portalApi } from '@portal/shared/web/api';
import type {
  RequestAssigneeOptions,
  RequestBulk,
  RequestBulkResult,
  RequestComment,
  RequestCommentCreate,
  RequestCreate,
  RequestDetail,
  RequestEvent,
  RequestList,
  RequestsQuery,
  RequestTransition,
  RequestUpdate,
} from '@portal/shared/core/requests';

const enc = encodeURIComponent;

const api = portalApi.enhanceEndpoints({
  addTagTypes: ['Requests', 'Request', 'RequestComments', 'RequestHistory', 'RequestAssignees'],
});

export const requestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    requestsList: build.query<RequestList, { companyId: string } & RequestsQuery>({
      query: ({ companyId, ...params }) => ({ url: `/companies/${enc(companyId)}/requests`, params }),
      providesTags: ['Requests'],
    }),
    requestAssigneeOptions: build.query<RequestAssigneeOptions, string>({
      query: (companyId) => `/companies/${enc(companyId)}/requests/assignees`,
      providesTags: ['RequestAssignees'],
    }),
    requestCreate: build.mutation<RequestDetail, { companyId: string; body: RequestCreate }>({
      query: ({ companyId, body }) => ({ url: `/companies/${enc(companyId)}/requests`, method: 'POST', body }),
      invalidatesTags: ['Requests'],
    }),
    requestBulk: build.mutation<RequestBulkResult, { companyId: string; body: RequestBulk }>({
      query: ({ companyId, body }) => ({ url: `/companies/${enc(companyId)}/requests/bulk`, method: 'POST', body }),
      invalidatesTags: ['Requests', 'Request', 'RequestHistory'],
    }),
    requestDetail: build.query<RequestDetail, string>({
      query: (requestId) => `/requests/${enc(requestId)}`,
      providesTags: (_r, _e, id) => [{ type: 'Request', id }],
    }),
    requestUpdate: build.mutation<RequestDetail, { requestId: string; body: RequestUpdate }>({
      query: ({ requestId, body }) => ({ url: `/requests/${enc(requestId)}`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { requestId }) => [
        'Requests',
        { type: 'Request', id: requestId },
        { type: 'RequestHistory', id: requestId },
      ],
    }),
    requestTransition: build.mutation<RequestDetail, { requestId: string; body: RequestTransition }>({
      query: ({ requestId, body }) => ({ url: `/requests/${enc(requestId)}/transitions`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { requestId }) => [
        'Requests',
        { type: 'Request', id: requestId },
        { type: 'RequestHistory', id: requestId },
      ],
    }),
    requestComments: build.query<RequestComment[], string>({
      query: (requestId) => `/requests/${enc(requestId)}/comments`,
      transformResponse: (body: { results: RequestComment[] }) => body.results,
      providesTags: (_r, _e, id) => [{ type: 'RequestComments', id }],
    }),
    requestCommentCreate: build.mutation<RequestComment, { requestId: string; body: RequestCommentCreate }>({
      query: ({ requestId, body }) => ({ url: `/requests/${enc(requestId)}/comments`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { requestId }) => [
        'Requests',
        { type: 'RequestComments', id: requestId },
        { type: 'RequestHistory', id: requestId },
        { type: 'Request', id: requestId },
      ],
    }),
    requestHistory: build.query<RequestEvent[], string>({
      query: (requestId) => `/requests/${enc(requestId)}/history`,
      transformResponse: (body: { results: RequestEvent[] }) => body.results,
      providesTags: (_r, _e, id) => [{ type: 'RequestHistory', id }],
    }),
    requestFileDelete: build.mutation<void, { requestId: string; fileId: string }>({
      query: ({ requestId, fileId }) => ({ url: `/requests/${enc(requestId)}/files/${enc(fileId)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { requestId }) => [
        'Requests',
        { type: 'Request', id: requestId },
        { type: 'RequestHistory', id: requestId },
      ],
    }),
  }),
});

export const {
  useRequestsListQuery,
  useRequestAssigneeOptionsQuery,
  useRequestCreateMutation,
  useRequestBulkMutation,
  useRequestDetailQuery,
  useRequestUpdateMutation,
  useRequestTransitionMutation,
  useRequestCommentsQuery,
  useRequestCommentCreateMutation,
  useRequestHistoryQuery,
  useRequestFileDeleteMutation,
} = requestsApi;

/** After an evidence upload (outside RTK): the request, its history and the list refresh. */
export function invalidateAfterUpload(requestId: string) {
  return requestsApi.util.invalidateTags([
    'Requests',
    { type: 'Request', id: requestId },
    { type: 'RequestHistory', id: requestId },
  ]);
}

/** What an import changes: the lists and the pickers' choices (a team named in a file, say). */
export const REQUESTS_IMPORT_TAGS = ['Requests', 'RequestAssignees'] as const;
