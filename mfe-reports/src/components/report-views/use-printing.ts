import { useSyncExternalStore } from 'react';

/** Whether the page is being printed: set by the browser's print events, read by every subscriber. */
let printing = false;

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia('print');
  const set = (next: boolean) => {
    printing = next;
    onChange();
  };
  const before = () => set(true);
  const after = () => set(false);
  const change = (event: MediaQueryListEvent) => set(event.matches);
  window.addEventListener('beforeprint', before);
  window.addEventListener('afterprint', after);
  media.addEventListener('change', change);
  return () => {
    window.removeEventListener('beforeprint', before);
    window.removeEventListener('afterprint', after);
    media.removeEventListener('change', change);
  };
}

/**
 * True while the page prints (from the print dialog's opening to its closing): what only print shows
 * (every row of every report table) is rendered then, not kept in the page all the time. The update
 * renders before the browser lays the page out for print (React flushes it in the event's microtask).
 */
export function usePrinting(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => printing,
    () => false,
  );
}
