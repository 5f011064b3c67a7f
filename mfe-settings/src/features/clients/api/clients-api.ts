/** The staff's list of client companies and adding one. Adding refreshes the list and the shell's company switcher. */
import type { Company } from '@portal/shared/core/schemas';
import type { CompanyCreate } from '@portal/shared/core/settings';
import { settingsApi } from '../../../app/settings-api';

export type ClientsSort = 'name' | '-name';

export interface ClientsListArgs {
  page: number;
  pageSize: number;
  search?: string;
  sort: ClientsSort;
}

export interface ClientsList {
  results: Company[];
  total: number;
  page: number;
  pageSize: number;
}

export const clientsApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    settingsClientsList: build.query<ClientsList, ClientsListArgs>({
      query: ({ search, ...params }) => ({ url: '/companies', params: { ...params, search: search || undefined } }),
      providesTags: ['Clients'],
    }),
    /** POST /companies (staff admins); 409 company_name_taken names the `name` field. */
    settingsClientsCreate: build.mutation<Company, CompanyCreate>({
      query: (body) => ({ url: '/companies', method: 'POST', body }),
      invalidatesTags: ['Company', 'Clients'],
    }),
  }),
});

export const { useSettingsClientsListQuery, useSettingsClientsCreateMutation } = clientsApi;
