import { useCallback } from 'react';
import { useSearchParams } from '@portal/shared/web/router';

export type ParamChanges = Record<string, string | number | null | undefined>;

/**
 * List state (search, filters, sort, page) kept in the address, so reload and back restore it.
 * Other parameters (the Company tab's `?tab=users`) are kept as they are.
 */
export function useUrlParams(): [URLSearchParams, (changes: ParamChanges) => void] {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: ParamChanges) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === undefined || value === '') next.delete(key);
          else next.set(key, String(value));
        }
        return next;
      }),
    [setParams],
  );
  return [params, update];
}

/** A positive whole number from the address, else the default (pages default to 1). */
export function intParam(params: URLSearchParams, key: string, fallback: number): number {
  const n = Number(params.get(key));
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
