import { cloneElement, useLayoutEffect, useRef, useState, type MouseEvent, type ReactElement, type Ref } from 'react';
import type { DropdownProps } from '@portal/shared/ui/menus';
import { moduleLoader, type ModuleLoader } from '@portal/shared/web/deferred';
import { useLoadedAfterFirstContent } from './after-first-content';

export type MenusKit = typeof import('@portal/shared/ui/menus');

/** The menu kit (antd's Dropdown and Menu), loaded once for every header menu. */
export const menusKit = moduleLoader<MenusKit>(() => import('@portal/shared/ui/menus'));

export type HeaderDropdownProps = Omit<DropdownProps, 'children'> & { children: ReactElement<TriggerProps> };
type TriggerProps = {
  ref?: Ref<HTMLElement>;
  onClick?: (e: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
};

/**
 * An antd Dropdown for the header whose code is not on the first page.
 *
 * The trigger (a Button) shows at once. The menu kit loads `settleMs` (2 s) after the page's first
 * content is on screen, so it never competes with the rest of the page (the dashboard's lists and
 * charts follow its first content by up to a second); until then, pointing at or focusing the trigger
 * starts the load, and a click loads it and opens the menu (focus moves into it, as for a keyboard
 * user it must). When the kit arrives the trigger is rendered inside the Dropdown; if it had focus,
 * it keeps it. Before the kit is there, the trigger's own onClick, onFocus and onPointerEnter are
 * replaced (the header's buttons have none).
 * `open` and `onOpenChange` work as on Dropdown, controlled or not.
 *
 * This makes one on a given menu kit loader (tests pass one whose load they control).
 */
export function headerDropdown(kitLoader: ModuleLoader<MenusKit>, settleMs = 2000) {
  return function HeaderDropdown(props: HeaderDropdownProps) {
    return <LazyDropdown {...props} kitLoader={kitLoader} settleMs={settleMs} />;
  };
}

/** The header's menus, on the shared menu kit. */
export const HeaderDropdown = headerDropdown(menusKit);

function LazyDropdown({
  children,
  open,
  onOpenChange,
  kitLoader,
  settleMs,
  ...props
}: HeaderDropdownProps & { kitLoader: ModuleLoader<MenusKit>; settleMs: number }) {
  const [ownOpen, setOwnOpen] = useState(false);
  const [openedEarly, setOpenedEarly] = useState(false);
  const trigger = useRef<HTMLElement | null>(null);
  const refocus = useRef(false);
  const shown = open ?? ownOpen;

  const setOpen: NonNullable<DropdownProps['onOpenChange']> = (next, info) => {
    if (open === undefined) setOwnOpen(next);
    if (!next) setOpenedEarly(false);
    onOpenChange?.(next, info);
  };

  // a trigger with the focus keeps it when the kit arrives and it is rendered inside the Dropdown
  const [kit, adopt] = useLoadedAfterFirstContent(
    kitLoader,
    'Header menus: the menu code (opening a menu tries again)',
    {
      settleMs,
      beforeShow: () => {
        refocus.current = trigger.current !== null && trigger.current === document.activeElement;
      },
    },
  );

  useLayoutEffect(() => {
    if (kit && refocus.current) {
      refocus.current = false;
      trigger.current?.focus();
    }
  }, [kit]);

  if (!kit) {
    const prefetch = () => void kitLoader.load().catch(() => undefined);
    return cloneElement(children, {
      ref: trigger,
      onPointerEnter: prefetch,
      onFocus: prefetch,
      onClick: () => {
        kitLoader.load().then(
          (loaded) => {
            adopt(loaded);
            setOpenedEarly(true);
            setOpen(true, { source: 'trigger' });
          },
          (error: unknown) => console.error('Header menus: the menu code did not load; try again.', error),
        );
      },
    });
  }
  const { Dropdown } = kit;
  return (
    <Dropdown {...props} autoFocus={props.autoFocus || openedEarly} open={shown} onOpenChange={setOpen}>
      {cloneElement(children, { ref: trigger })}
    </Dropdown>
  );
}
