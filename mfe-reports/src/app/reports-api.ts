/**
 * The reports remote's calls (contract: shared/src/core/reports). The files (CSV, XLSX, PDF) are
 * downloads (`@portal/shared/web/download`), not queries.
 */
import { portalApi } from '@portal/shared/web/api';
import type { Report, ReportKind, ReportOptions, ReportQuery } from '@portal/shared/core/reports';

const enc = encodeURIComponent;

/** One report call: the company, the kind and the filters (`today` included: the caller's day). */
export type ReportArgs = { companyId: string; kind: ReportKind } & ReportQuery;

export const reportsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    reportsOptions: build.query<ReportOptions, string>({
      query: (companyId) => `/companies/${enc(companyId)}/reports/options`,
    }),
    reportsGet: build.query<Report, ReportArgs>({
      query: ({ companyId, kind, ...params }) => ({ url: `/companies/${enc(companyId)}/reports/${enc(kind)}`, params }),
    }),
  }),
});

export const { useReportsOptionsQuery, useReportsGetQuery } = reportsApi;
