/**
 * Home's "My requests": the one requests call the projects remote makes (contract:
 * shared/src/core/requests). It is injected here rather than imported from mfe-requests, which the
 * shell loads only for users with the requests module. It provides the same 'Requests' tag as the
 * requests remote, so a change made there (submit, accept, assign...) refreshes Home too.
 */
import { portalApi } from '@portal/shared/web/api';
import {
  REQUEST_ACTIVE_STATUSES,
  REQUEST_CLIENT_ACTION_STATUSES,
  type RequestList,
  type RequestsQuery,
} from '@portal/shared/core/requests';

/** Requests Home shows at most. */
export const MY_REQUESTS_LIMIT = 5;

/**
 * What needs the caller: a client's requests assigned to them (directly or through a team) that wait
 * for their evidence; a staff member's requests they asked for that are still active.
 */
export function myRequestsQuery(staff: boolean): RequestsQuery {
  return {
    ...(staff ? { requesterId: 'me' } : { assigneeId: 'me' }),
    status: [...(staff ? REQUEST_ACTIVE_STATUSES : REQUEST_CLIENT_ACTION_STATUSES)],
    sort: 'dueDate',
    page: 1,
    pageSize: MY_REQUESTS_LIMIT,
  };
}

/** The requests list page filtered the same way ("View all"). */
export function myRequestsListPath(staff: boolean): string {
  return staff ? '/requests?requesterId=me' : '/requests?assigneeId=me';
}

const api = portalApi.enhanceEndpoints({ addTagTypes: ['Requests'] });

export const myRequestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    dashboardMyRequests: build.query<RequestList, { companyId: string; staff: boolean }>({
      query: ({ companyId, staff }) => ({
        url: `/companies/${encodeURIComponent(companyId)}/requests`,
        params: myRequestsQuery(staff),
      }),
      providesTags: ['Requests'],
    }),
  }),
});
