/** Small UI helpers the pages share (search delay, …). */
import { useEffect, useRef, useState, type RefObject } from 'react';

/** How long a search box waits after the last keystroke before it searches. */
export const SEARCH_DELAY_MS = 300;

/**
 * A search box bound to a value kept elsewhere (the address): the box follows outside changes
 * (back, forward, clearing the filters) and, after a pause in typing, hands its trimmed text to
 * `commit` (only when it differs from the value).
 */
export function useDebouncedText(
  value: string,
  commit: (text: string) => void,
  delayMs = SEARCH_DELAY_MS,
): [string, (text: string) => void] {
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

/** Focuses the first enabled input inside the returned ref's element once mounted. */
export function useFocusFirstInput<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current?.querySelector<HTMLElement>(
      'input:not([disabled]), textarea:not([disabled]), select:not([disabled])',
    );
    el?.focus();
  }, []);
  return ref;
}

const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

/**
 * Drop and paste of files on a target, active only while the pointer is over it:
 * pasting elsewhere on the page does nothing. While `active` is false (a closed dialog) it listens to
 * nothing. A dragleave into one of the target's own children is not a leave (no flicker), and a paste
 * right after a drop on it counts (browsers send no pointerenter after a drag).
 */
export function useFileDrop<T extends HTMLElement>(
  onFiles: (files: File[]) => void,
  active = true,
): { ref: RefObject<T | null>; over: boolean } {
  const ref = useRef<T>(null);
  const [over, setOver] = useState(false);
  const hovered = useRef(false);
  const cb = useRef(onFiles);
  cb.current = onFiles;
  useEffect(() => {
    const el = ref.current;
    if (!el || !active) return;
    const enter = () => {
      hovered.current = true;
    };
    const pointerLeave = () => {
      hovered.current = false;
      setOver(false);
    };
    const dragLeave = (e: DragEvent) => {
      // leaving for one of its own children (or the target itself) is still over it
      if (e.relatedTarget instanceof Node && el.contains(e.relatedTarget)) return;
      hovered.current = false;
      setOver(false);
    };
    const dragOver = (e: DragEvent) => {
      e.preventDefault();
      hovered.current = true;
      setOver(true);
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      hovered.current = true;
      setOver(false);
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length) cb.current(files);
    };
    const pointerIsOver = () => {
      if (hovered.current) return true;
      try {
        return el.matches(':hover');
      } catch {
        return false;
      }
    };
    const paste = (e: ClipboardEvent) => {
      if (!pointerIsOver()) return;
      const files = Array.from(e.clipboardData?.files ?? []);
      if (files.length) {
        e.preventDefault();
        cb.current(files);
      }
    };
    el.addEventListener('pointerenter', enter);
    el.addEventListener('pointerleave', pointerLeave);
    el.addEventListener('dragover', dragOver);
    el.addEventListener('dragleave', dragLeave);
    el.addEventListener('drop', drop);
    document.addEventListener('paste', paste);
    return () => {
      hovered.current = false;
      setOver(false);
      el.removeEventListener('pointerenter', enter);
      el.removeEventListener('pointerleave', pointerLeave);
      el.removeEventListener('dragover', dragOver);
      el.removeEventListener('dragleave', dragLeave);
      el.removeEventListener('drop', drop);
      document.removeEventListener('paste', paste);
    };
  }, [active]);
  return { ref, over };
}

/**
 * While a screen that takes dropped files is shown (`active`), a file dropped beside its drop target
 * does nothing, instead of the browser opening it in place of the portal. Only drags of files are
 * touched, and only when no target handled them (a target cancels the event itself).
 */
export function useStrayFileDropGuard(active = true): void {
  useEffect(() => {
    if (!active) return;
    const dragOver = (e: DragEvent) => {
      if (e.defaultPrevented || !carriesFiles(e)) return;
      e.preventDefault();
      // the pointer shows that nothing happens here
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'none';
    };
    const drop = (e: DragEvent) => {
      if (e.defaultPrevented || !carriesFiles(e)) return;
      e.preventDefault();
    };
    window.addEventListener('dragover', dragOver);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', dragOver);
      window.removeEventListener('drop', drop);
    };
  }, [active]);
}
