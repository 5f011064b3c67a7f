import { useEffect, useLayoutEffect, useState } from 'react';
import { useDispatch, useSelector } from '@portal/shared/web/store';
import { sessionActions, sessionSelectors, type SessionState } from '@portal/shared/web/session';

type Root = { session: SessionState };

/** Per-browser choices: the theme and the detailed-view flag. */
export const THEME_KEY = 'portal.theme';
export const DETAILED_VIEW_KEY = 'detailed-view';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled: the defaults apply
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // storage disabled or full: the choice lasts for this page only
  }
}

/** Restores the remembered theme and detailed view before the first paint, and remembers changes. */
export function usePersistedPreferences(): void {
  const dispatch = useDispatch();
  const theme = useSelector((s: Root) => sessionSelectors.selectTheme(s));
  const detailedView = useSelector((s: Root) => sessionSelectors.selectDetailedView(s));
  const [restored, setRestored] = useState(false);

  useLayoutEffect(() => {
    const savedTheme = read(THEME_KEY);
    if (savedTheme === 'dark' || savedTheme === 'light') dispatch(sessionActions.themeSet(savedTheme));
    dispatch(sessionActions.detailedViewSet(read(DETAILED_VIEW_KEY) === 'true'));
    setRestored(true);
  }, [dispatch]);
  useEffect(() => {
    if (restored) write(THEME_KEY, theme);
  }, [theme, restored]);
  useEffect(() => {
    if (restored) write(DETAILED_VIEW_KEY, String(detailedView));
  }, [detailedView, restored]);
}
