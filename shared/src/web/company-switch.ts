import { useEffect, useState } from 'react';
import { useSearchParams } from '@portal/shared/web/router';

/**
 * For a page whose address names things of the selected company (a project, people, a page of a list):
 * when another company is chosen in the header, the address drops them (`withoutCompanyFilters`),
 * replaced so that Back does not bring them back for the new company. Returns true while that is under
 * way: the page must not ask the api with the old company's filters meanwhile. `companyId`: the
 * selected company the page works in (null: none).
 */
export function useCompanySwitch(
  companyId: string | null,
  withoutCompanyFilters: (params: URLSearchParams) => URLSearchParams,
): boolean {
  const [params, setParams] = useSearchParams();
  // the company the address's filters were chosen in
  const [filtersCompanyId, setFiltersCompanyId] = useState(companyId);
  useEffect(() => {
    if (companyId === null || companyId === filtersCompanyId) return;
    const next = withoutCompanyFilters(params);
    if (filtersCompanyId !== null && next.toString() !== params.toString()) setParams(next, { replace: true });
    else setFiltersCompanyId(companyId);
  }, [companyId, filtersCompanyId, params, setParams, withoutCompanyFilters]);
  return companyId !== null && filtersCompanyId !== null && companyId !== filtersCompanyId;
}
