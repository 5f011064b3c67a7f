/**
 * The company a module's page works in: the one selected in the header, when that module is open to
 * the user there. Otherwise the panel that says why not (the api would answer 403 to every call of the
 * page). First-page kit only: Home uses it.
 */
import type { ReactNode } from 'react';
import type { ModuleName } from '@portal/shared/core/modules';
import { StatusPanel } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { useSelector } from '@portal/shared/web/store';

type Root = { session: SessionState };

export interface ModuleCompany {
  companyId: string;
  companyName: string;
}

/** `what`: what the page shows, for "Choose a company in the header to see its <what>." (the module's name by default). */
export function useModuleCompany(module: ModuleName, what: string = module): ModuleCompany | { blocked: ReactNode } {
  const company = useSelector((s: Root) => sessionSelectors.selectSelectedCompany(s));
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  if (!company) {
    return {
      blocked: (
        <StatusPanel
          nested
          kind="notFound"
          title="No company selected"
          subTitle={`Choose a company in the header to see its ${what}.`}
        />
      ),
    };
  }
  if (!company.modulesAccess[module] || access?.modulesAccess[module] === false) {
    const name = `${module[0].toUpperCase()}${module.slice(1)}`;
    return {
      blocked: (
        <StatusPanel
          nested
          kind="forbidden"
          title={`${name} are not available`}
          subTitle={`Your access to ${company.name} does not include the ${module} module.`}
        />
      ),
    };
  }
  return { companyId: company.id, companyName: company.name };
}
