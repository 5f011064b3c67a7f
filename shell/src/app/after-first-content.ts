import { useCallback, useEffect, useRef, useState } from 'react';
import type { ModuleLoader } from '@portal/shared/web/deferred';
import { afterFirstContent } from './first-content';

export interface AfterFirstContentOptions {
  /** How long after the first content to wait (afterFirstContent's settleMs; default none). */
  settleMs?: number;
  /** Runs just before the part replaces its stand-in (to hand on the stand-in's focus). */
  beforeShow?: () => void;
}

/**
 * A frame part's code, loaded once the first page's content is on screen (afterFirstContent): for
 * parts the user does not need to see the page, which would otherwise count against every first
 * page. Returns the loaded value (null until then) and `show`, to show one loaded earlier (the user
 * reached for the part first).
 */
export function useLoadedAfterFirstContent<T>(
  loader: ModuleLoader<T>,
  what: string,
  { settleMs = 0, beforeShow }: AfterFirstContentOptions = {},
): [T | null, (value: T) => void] {
  const [value, setValue] = useState<T | null>(() => loader.peek()?.value ?? null);
  const before = useRef(beforeShow);
  before.current = beforeShow;
  const show = useCallback((loaded: T) => {
    before.current?.();
    setValue(() => loaded);
  }, []);

  useEffect(() => {
    if (value !== null) return;
    let live = true;
    const cancel = afterFirstContent(() => {
      loader.load().then(
        (loaded) => live && show(loaded),
        (error: unknown) => console.error(`${what} did not load.`, error),
      );
    }, settleMs);
    return () => {
      live = false;
      cancel();
    };
  }, [loader, settleMs, show, value, what]);
  return [value, show];
}
