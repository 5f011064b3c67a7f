/**
 * The one RTK Query api of the portal (base /api/v1). Remotes add endpoints with
 * `portalApi.injectEndpoints`, named with their domain as prefix (projectsList, requestsGet...).
 */
import { createApi, fetchBaseQuery } from '@portal/shared/web/store';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@portal/shared/web/store';
import type { AccessPermissions, Company, User } from '@portal/shared/core/schemas';

export const API_BASE = '/api/v1';
export const CLIENT_HEADER = 'X-Portal-Client';
export const CLIENT_NAME = 'web';
export const DEFAULT_VERSION_LABEL = 'dev';

/** Query strings as the api reads them: arrays as key[]=value, undefined and null dropped. */
export function serializeParams(params: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const v of value) parts.push(`${encodeURIComponent(`${key}[]`)}=${encodeURIComponent(String(v))}`);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.join('&');
}

/** The api and UI versions the server last announced (x-api-version / x-ui-version). */
export const versions = { apiVersion: DEFAULT_VERSION_LABEL, uiVersion: DEFAULT_VERSION_LABEL };

const rawBaseQuery = fetchBaseQuery({
  baseUrl: API_BASE,
  credentials: 'include',
  paramsSerializer: serializeParams,
  prepareHeaders: (headers) => {
    headers.set(CLIENT_HEADER, CLIENT_NAME);
    return headers;
  },
});

export const portalBaseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, object, FetchBaseQueryMeta> =
  async (args, api, extra) => {
    const result = await rawBaseQuery(args, api, extra);
    const headers = result.meta?.response?.headers;
    if (headers) {
      versions.apiVersion = headers.get('x-api-version') ?? versions.apiVersion;
      versions.uiVersion = headers.get('x-ui-version') ?? versions.uiVersion;
    }
    return result;
  };

export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: portalBaseQuery,
  tagTypes: ['User', 'Company', 'AccessPermissions'],
  endpoints: (build) => ({
    usersMe: build.query<User, void>({
      query: () => '/users/profile/me',
      // The user hook is cached for 300 s (SPEC.md section 9).
      keepUnusedDataFor: 300,
      providesTags: ['User'],
    }),
    companiesList: build.query<{ results: Company[]; total: number }, void>({
      query: () => ({ url: '/companies', params: { ignorePagination: true } }),
      providesTags: ['Company'],
    }),
    companiesAccessPermissions: build.query<AccessPermissions, string>({
      query: (companyId) => `/companies/${encodeURIComponent(companyId)}/access-permissions`,
      providesTags: (_r, _e, id) => [{ type: 'AccessPermissions', id }],
    }),
  }),
});

export const { useUsersMeQuery, useCompaniesListQuery, useCompaniesAccessPermissionsQuery } = portalApi;
