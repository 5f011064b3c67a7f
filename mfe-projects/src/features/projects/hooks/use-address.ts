import { useCallback } from 'react';
import { useSearchParams } from '@portal/shared/web/router';

/** A query parameter's new value: null, undefined, '' or an empty list removes it (its default applies). */
export type AddressChanges = Record<string, string | number | readonly string[] | null | undefined>;

/**
 * The project screens' state lives in the address: every change pushes a history entry (unless
 * `replace`), so reload, back and forward restore it. Parameters not named in a change are kept.
 */
export function useAddress(): [URLSearchParams, (changes: AddressChanges, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const change = useCallback(
    (changes: AddressChanges, { replace = false } = {}) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(changes)) {
            const text = Array.isArray(value) ? value.join(',') : value;
            if (text === null || text === undefined || text === '') next.delete(key);
            else next.set(key, String(text));
          }
          return next;
        },
        { replace },
      ),
    [setParams],
  );
  return [params, change];
}

/** A page number for the address: page 1 is the default, so it is left out. */
export function pageValue(page: number | undefined): number | null {
  return page && page > 1 ? page : null;
}
