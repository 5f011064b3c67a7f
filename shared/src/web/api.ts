/**
 * The one RTK Query api of the portal (base /api/v1). Remotes add endpoints with
 * `portalApi.injectEndpoints`, named with their domain as prefix (projectsList, requestsGet...).
 */
import { createApi, fetchBaseQuery } from '@portal/shared/web/store';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@portal/shared/web/store';
import type { AccessPermissions, Company, PortalConfig, User } from '@portal/shared/core/schemas';
import { sessionActions } from '@portal/shared/web/session';

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

export const portalBaseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  object,
  FetchBaseQueryMeta
> = async (args, api, extra) => {
  const result = await rawBaseQuery(args, api, extra);
  const headers = result.meta?.response?.headers;
  if (headers) {
    const apiVersion = headers.get('x-api-version') ?? versions.apiVersion;
    const uiVersion = headers.get('x-ui-version') ?? versions.uiVersion;
    // kept in the session settings too, only when they change
    if (apiVersion !== versions.apiVersion || uiVersion !== versions.uiVersion) {
      versions.apiVersion = apiVersion;
      versions.uiVersion = uiVersion;
      api.dispatch(sessionActions.versionsAnnounced({ apiVersion, uiVersion }));
    }
  }
  return result;
};

export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: portalBaseQuery,
  tagTypes: ['User', 'Company', 'AccessPermissions'],
  endpoints: (build) => ({
    /** Public: the brand and versions, read at start in parallel with the user. */
    portalConfigGet: build.query<PortalConfig, void>({
      query: () => '/portal-config',
    }),
    usersMe: build.query<User, void>({
      query: () => '/users/profile/me',
      // The user hook is cached for 300 s.
      keepUnusedDataFor: 300,
      providesTags: ['User'],
    }),
    companiesList: build.query<{ results: Company[]; total: number }, void>({
      query: () => ({ url: '/companies', params: { ignorePagination: true } }),
      providesTags: ['Company'],
    }),
    companiesGet: build.query<Company, string>({
      query: (companyId) => `/companies/${encodeURIComponent(companyId)}`,
      providesTags: (_r, _e, id) => [{ type: 'Company', id }],
    }),
    companiesAccessPermissions: build.query<AccessPermissions, string>({
      query: (companyId) => `/companies/${encodeURIComponent(companyId)}/access-permissions`,
      providesTags: (_r, _e, id) => [{ type: 'AccessPermissions', id }],
    }),
  }),
});

export const {
  usePortalConfigGetQuery,
  useUsersMeQuery,
  useCompaniesListQuery,
  useCompaniesGetQuery,
  useCompaniesAccessPermissionsQuery,
} = portalApi;

/** The `details` of a 400 from the api, as antd Form field errors: [{ name, errors }]. */
export function fieldErrors(error: unknown): { name: string; errors: string[] }[] {
  const data = (error as { data?: { details?: { field: string; message: string }[] } } | undefined)?.data;
  const byField = new Map<string, string[]>();
  for (const d of data?.details ?? []) byField.set(d.field, [...(byField.get(d.field) ?? []), d.message]);
  return [...byField].map(([name, errors]) => ({ name, errors }));
}

interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
}

/**
 * An antd Form rule that checks a field with the api's own zod schema, so the messages match the server's.
 * `skipEmpty`: an empty value (undefined, null or '') passes unchecked (an optional field left blank).
 * `nullAsMissing`: a null value (a cleared number input) is checked as an absent one.
 *
 * @deprecated Use `schemaRule` from `@portal/shared/core/errors`: the same check, whose message
 * leaves out the api's name of the field. Kept for remotes built against contract 1.2 or earlier;
 * removed at the next major.
 */
export function zodRule(schema: Schema, { skipEmpty = false, nullAsMissing = false } = {}) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (skipEmpty && (value === undefined || value === null || value === '')) return;
      const result = schema.safeParse(nullAsMissing ? (value ?? undefined) : value);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'Invalid value');
    },
  };
}

/** The api's message for a failed call (the shell also shows it as a toast). */
export function errorMessage(error: unknown): string | null {
  const data = (error as { data?: { message?: string } } | undefined)?.data;
  return typeof data?.message === 'string' ? data.message : null;
}
