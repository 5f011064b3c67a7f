/** Small UI helpers named by SPEC.md section 1. */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useSelector } from '@portal/shared/web/store';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';

/** Focuses the first enabled input inside the returned ref's element once mounted. */
export function useFocusFirstInput<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current?.querySelector<HTMLElement>('input:not([disabled]), textarea:not([disabled]), select:not([disabled])');
    el?.focus();
  }, []);
  return ref;
}

/**
 * Drop and paste of files on a target, active only while the pointer is over it:
 * pasting elsewhere on the page does nothing.
 */
export function useFileDrop<T extends HTMLElement>(onFiles: (files: File[]) => void): { ref: RefObject<T | null>; over: boolean } {
  const ref = useRef<T>(null);
  const [over, setOver] = useState(false);
  const hovered = useRef(false);
  const cb = useRef(onFiles);
  cb.current = onFiles;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const enter = () => {
      hovered.current = true;
    };
    const leave = () => {
      hovered.current = false;
      setOver(false);
    };
    const dragOver = (e: DragEvent) => {
      e.preventDefault();
      setOver(true);
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      setOver(false);
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length) cb.current(files);
    };
    const paste = (e: ClipboardEvent) => {
      if (!hovered.current) return;
      const files = Array.from(e.clipboardData?.files ?? []);
      if (files.length) {
        e.preventDefault();
        cb.current(files);
      }
    };
    el.addEventListener('pointerenter', enter);
    el.addEventListener('pointerleave', leave);
    el.addEventListener('dragover', dragOver);
    el.addEventListener('dragleave', leave);
    el.addEventListener('drop', drop);
    document.addEventListener('paste', paste);
    return () => {
      el.removeEventListener('pointerenter', enter);
      el.removeEventListener('pointerleave', leave);
      el.removeEventListener('dragover', dragOver);
      el.removeEventListener('dragleave', leave);
      el.removeEventListener('drop', drop);
      document.removeEventListener('paste', paste);
    };
  }, []);
  return { ref, over };
}

export type PortalRole = 'staff' | 'staffAdmin' | 'auditor' | 'client';

export function rolesOf(user: SessionState['user']): PortalRole[] {
  if (!user) return [];
  if (!user.isTevora) return ['client'];
  const roles: PortalRole[] = ['staff'];
  if (user.admin.active) roles.push('staffAdmin');
  if (user.isAuditor) roles.push('auditor');
  return roles;
}

/** True when the signed-in user holds one of `allowed` (or none of them, when `invert`). */
export function useRoleAllowed(allowed: PortalRole[], invert = false): boolean {
  const user = useSelector((s: { session: SessionState }) => sessionSelectors.selectUser(s));
  const has = rolesOf(user).some((r) => allowed.includes(r));
  return invert ? !has : has;
}
