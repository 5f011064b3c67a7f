import type { ReactNode } from 'react';
import { useSelector } from '@portal/shared/web/store';
import { StatusPanel } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';

type Root = { session: SessionState };

/**
 * The company selected in the header when its projects module is open to the user, else the panel
 * that says why not (the api would answer 403 to every call of the page). First-page kit only.
 */
export function useProjectsCompany(what: string): { companyId: string; companyName: string } | { blocked: ReactNode } {
  const company = useSelector((s: Root) => sessionSelectors.selectSelectedCompany(s));
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  if (!company) {
    return { blocked: <StatusPanel kind="notFound" title="No company selected" subTitle={`Choose a company in the header to see its ${what}.`} /> };
  }
  if (!company.modulesAccess.projects || access?.modulesAccess.projects === false) {
    return {
      blocked: <StatusPanel kind="forbidden" title="Projects are not available" subTitle={`Your access to ${company.name} does not include the projects module.`} />,
    };
  }
  return { companyId: company.id, companyName: company.name };
}
