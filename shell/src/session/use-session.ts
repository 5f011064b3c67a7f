import { useEffect } from 'react';
import { useDispatch, useSelector, skipToken } from '@portal/shared/web/store';
import { useCompaniesAccessPermissionsQuery, useCompaniesListQuery, useUsersMeQuery } from '@portal/shared/web/api';
import { publishSessionEvent, session$ } from '@portal/shared/web/events';
import { sessionActions, sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { chooseCompany, COMPANY_COOKIE, readCookie, redirectToSignIn, writeCookie } from './sign-in';

type Root = { session: SessionState };
const ONE_YEAR = 365 * 24 * 3600;

/**
 * Loads the user, then their companies, selects one and loads its access permissions.
 * Returns what the frame needs to decide what to show.
 */
export function useSessionBootstrap() {
  const dispatch = useDispatch();
  const me = useUsersMeQuery();
  const companies = useCompaniesListQuery(me.data ? undefined : skipToken);
  const companyList = useSelector((s: Root) => sessionSelectors.selectCompanies(s));
  const selectedId = useSelector((s: Root) => sessionSelectors.selectSelectedCompanyId(s));
  const access = useCompaniesAccessPermissionsQuery(selectedId ?? skipToken);

  useEffect(() => {
    const sub = session$.subscribe((e) => {
      if (e.type === 'unauthorized') redirectToSignIn();
    });
    return () => sub.unsubscribe();
  }, []);

  useEffect(() => {
    if (me.data) dispatch(sessionActions.userLoaded(me.data));
  }, [me.data, dispatch]);

  useEffect(() => {
    if (!companies.data) return;
    const list = companies.data.results;
    dispatch(sessionActions.companiesLoaded(list));
  }, [companies.data, dispatch]);

  // Re-runs whenever the list changes: a company removed from the list re-runs the selection.
  useEffect(() => {
    if (!companies.data) return;
    const ids = companyList.map((c) => c.id);
    const current = selectedId && ids.includes(selectedId) ? selectedId : null;
    const next = current ?? chooseCompany(ids, readCookie(COMPANY_COOKIE));
    if (next !== selectedId) {
      dispatch(sessionActions.companySelected(next));
      publishSessionEvent({ type: 'companyChanged', companyId: next });
    }
  }, [companies.data, companyList, selectedId, dispatch]);

  useEffect(() => {
    if (access.currentData && selectedId) dispatch(sessionActions.accessLoaded(access.currentData));
  }, [access.currentData, selectedId, dispatch]);

  const meStatus = me.error && 'status' in me.error ? me.error.status : null;
  return {
    userLoading: me.isLoading,
    userError: me.error ? (meStatus === 401 ? 'unauthorized' : 'failed') : null,
    retryUser: me.refetch,
    companiesLoading: !!me.data && companies.isLoading,
    noCompanies: !!companies.data && companies.data.results.length === 0,
    accessLoading: !!selectedId && !access.currentData && !access.isError,
    accessError: access.isError,
    retryAccess: access.refetch,
  };
}

export function useSelectCompany() {
  const dispatch = useDispatch();
  return (companyId: string) => {
    writeCookie(COMPANY_COOKIE, companyId, ONE_YEAR);
    dispatch(sessionActions.companySelected(companyId));
    publishSessionEvent({ type: 'companyChanged', companyId });
  };
}
