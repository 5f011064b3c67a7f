/**
 * Safe transfer's calls (contract: shared/src/core/files). Sending is a streamed multipart upload
 * (app/upload.ts, for its progress and cancel), after which the sender invalidates 'Transfers'.
 */
import { portalApi } from '@portal/shared/web/api';
import type { TransferList, TransfersQuery, TransferUser } from '@portal/shared/core/files';

const enc = encodeURIComponent;

const api = portalApi.enhanceEndpoints({ addTagTypes: ['Transfers', 'TransferRecipients'] });

export const transfersApi = api.injectEndpoints({
  endpoints: (build) => ({
    transfersList: build.query<TransferList, { companyId: string } & TransfersQuery>({
      query: ({ companyId, ...params }) => ({ url: `/companies/${enc(companyId)}/transfers`, params }),
      providesTags: ['Transfers'],
    }),
    /** Who may receive a transfer in the company (the "New transfer" picker). */
    transfersRecipients: build.query<TransferUser[], string>({
      query: (companyId) => `/companies/${enc(companyId)}/transfer-recipients`,
      transformResponse: (body: { results: TransferUser[] }) => body.results,
      providesTags: ['TransferRecipients'],
    }),
    /** The sender withdraws a transfer: it and its files are gone for everyone. */
    transfersWithdraw: build.mutation<void, string>({
      query: (transferId) => ({ url: `/transfers/${enc(transferId)}`, method: 'DELETE' }),
      invalidatesTags: ['Transfers'],
    }),
  }),
});
