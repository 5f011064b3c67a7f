/**
 * The documents screen's call: every file of the selected company's projects (contract:
 * shared/src/core/files, GET /companies/:id/files). Injected into the portal's one RTK Query api.
 */
import { portalApi } from '@portal/shared/web/api';
import type { DocumentList, DocumentsQuery } from '@portal/shared/core/files';

const api = portalApi.enhanceEndpoints({ addTagTypes: ['Documents', 'Files', 'Folders'] });

export const documentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // The Files tab's tags too: an upload, rename, move or removal there (of a file or a folder) makes this list stale.
    documentsList: build.query<DocumentList, { companyId: string } & DocumentsQuery>({
      query: ({ companyId, ...params }) => ({ url: `/companies/${encodeURIComponent(companyId)}/files`, params }),
      providesTags: ['Documents', 'Files', 'Folders'],
    }),
  }),
});
