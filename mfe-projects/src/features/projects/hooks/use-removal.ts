import { useCallback, useState } from 'react';

/**
 * Deleting the thing a page shows. While the delete runs the page keeps its last copy and stops
 * asking for it (the caller skips its query with `removing`): refetching a deleted task or control
 * would answer 404 and the shell would toast an error for a delete that worked.
 */
export function useRemoval<T>(): {
  removing: T | null;
  remove: (item: T, action: () => Promise<unknown>) => Promise<boolean>;
} {
  const [removing, setRemoving] = useState<T | null>(null);
  const remove = useCallback(async (item: T, action: () => Promise<unknown>) => {
    setRemoving(item);
    try {
      await action();
      return true;
    } catch {
      // the shell shows the toast; the page shows the item again
      setRemoving(null);
      return false;
    }
  }, []);
  return { removing, remove };
}
