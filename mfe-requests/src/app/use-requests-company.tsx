import type { ReactNode } from 'react';
import { useSelector } from '@portal/shared/web/store';
import { useModuleCompany, type ModuleCompany } from '@portal/shared/web/module-company';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';

type Root = { session: SessionState };

export interface RequestsCompany extends ModuleCompany {
  /** Staff who are not auditors: create, import, bulk changes (the api decides again on every call). */
  manage: boolean;
  /** The signed-in user is consultancy staff (auditors included). */
  staff: boolean;
}

/**
 * The company selected in the header when its requests module is open to the user, with what the user
 * may do in it; else the panel that says why not. First-page kit only.
 */
export function useRequestsCompany(): RequestsCompany | { blocked: ReactNode } {
  const target = useModuleCompany('requests');
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  if ('blocked' in target) return target;
  const staff = user?.isTevora === true;
  return { ...target, staff, manage: staff && !user?.isAuditor };
}
