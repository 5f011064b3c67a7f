import { useEffect, useRef, useState } from 'react';

export const SEARCH_DELAY_MS = 300;

/**
 * A search box bound to a value kept elsewhere (the address): the box follows outside changes
 * (back, forward, clearing the filters) and, after a pause in typing, hands its text to `commit`.
 */
export function useDebouncedText(value: string, commit: (text: string) => void, delayMs = SEARCH_DELAY_MS): [string, (text: string) => void] {
  const [text, setText] = useState(value);
  const committed = useRef(value);
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  }, [commit]);
  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = wanted;
      commitRef.current(wanted);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);
  return [text, setText];
}
