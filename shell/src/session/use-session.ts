import { useCallback, useEffect } from 'react';
import { useDispatch, useSelector, skipToken } from '@portal/shared/web/store';
import {
  portalApi,
  useCompaniesAccessPermissionsQuery,
  useCompaniesGetQuery,
  useCompaniesListQuery,
} from '@portal/shared/web/api';
import { publishSessionEvent } from '@portal/shared/web/events';
import { sessionActions, sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { chooseCompany, COMPANY_COOKIE, readCookie, signOut, writeCookie } from './sign-in';

type Root = { session: SessionState };
const ONE_YEAR = 365 * 24 * 3600;

/**
 * Company selection, once the user is signed in: loads their companies, selects
 * the remembered one if they still belong to it (else the first), loads its details and then its
 * access permissions. Whenever the list changes (a refetch after a company was removed) the selection
 * runs again. Returns what the frame needs to decide what to show.
 */
export function useCompanySession() {
  const dispatch = useDispatch();
  const loggedIn = useSelector((s: Root) => sessionSelectors.selectLoggedIn(s));
  const companies = useCompaniesListQuery(loggedIn ? undefined : skipToken);
  const companyList = useSelector((s: Root) => sessionSelectors.selectCompanies(s));
  const selectedId = useSelector((s: Root) => sessionSelectors.selectSelectedCompanyId(s));
  const details = useCompaniesGetQuery(selectedId ?? skipToken);
  // Details first, then access permissions.
  const detailsReady = !!selectedId && details.currentData?.id === selectedId;
  const access = useCompaniesAccessPermissionsQuery(detailsReady ? selectedId : skipToken);

  useEffect(() => {
    if (companies.data) dispatch(sessionActions.companiesLoaded(companies.data.results));
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
    if (details.currentData) dispatch(sessionActions.companyDetailsLoaded(details.currentData));
  }, [details.currentData, dispatch]);

  useEffect(() => {
    if (access.currentData && selectedId) dispatch(sessionActions.accessLoaded(access.currentData));
  }, [access.currentData, selectedId, dispatch]);

  const companyFailed = !!selectedId && (details.isError || access.isError);
  return {
    companiesLoading: loggedIn && companies.isLoading,
    noCompanies: !!companies.data && companies.data.results.length === 0,
    accessError: companyFailed,
    retryAccess: () => (details.isError ? details.refetch() : access.refetch()),
  };
}

/** Choosing a company: remembered in a cookie, then its details and access load (useCompanySession). */
export function useSelectCompany() {
  const dispatch = useDispatch();
  const selectedId = useSelector((s: Root) => sessionSelectors.selectSelectedCompanyId(s));
  return useCallback(
    (companyId: string) => {
      writeCookie(COMPANY_COOKIE, companyId, ONE_YEAR);
      if (companyId === selectedId) return;
      dispatch(sessionActions.companySelected(companyId));
      publishSessionEvent({ type: 'companyChanged', companyId });
    },
    [dispatch, selectedId],
  );
}

/** Logout clears the user, the logged-in flag and session storage, then goes to the sign-out address. */
export function useSignOut() {
  const dispatch = useDispatch();
  return useCallback(
    () =>
      signOut(() => {
        dispatch(sessionActions.loggedOut());
        dispatch(portalApi.util.resetApiState());
        publishSessionEvent({ type: 'logout' });
      }),
    [dispatch],
  );
}
