import { useCallback, useState } from 'react';

export type ViewChoice = 'chart' | 'table';

/** Per table key, so someone who reads one table as numbers keeps it so across reports and visits. */
export const viewChoiceKey = (tableKey: string) => `portal.reports.view.${tableKey}`;

function read(tableKey: string): ViewChoice {
  try {
    return window.localStorage.getItem(viewChoiceKey(tableKey)) === 'table' ? 'table' : 'chart';
  } catch {
    return 'chart'; // storage disabled: the default applies
  }
}

function write(tableKey: string, choice: ViewChoice): void {
  try {
    window.localStorage.setItem(viewChoiceKey(tableKey), choice);
  } catch {
    // storage disabled or full: the choice lasts for this page only
  }
}

/** Whether a report table shows as a chart or as a table, remembered in this browser. */
export function useViewChoice(tableKey: string): [ViewChoice, (choice: ViewChoice) => void] {
  const [choice, setChoice] = useState(() => read(tableKey));
  const choose = useCallback(
    (next: ViewChoice) => {
      setChoice(next);
      write(tableKey, next);
    },
    [tableKey],
  );
  return [choice, choose];
}
