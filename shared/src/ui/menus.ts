/**
 * The portal's menu kit: antd's Dropdown and Menu, and the components built on them (Breadcrumb,
 * Avatar with its group popover). Provided by the shell like `@portal/shared/ui` (the same antd
 * instance and context), but not part of the first page: together they cost about 45 KB gzip, and the
 * first page needs none of them to show its content. The shell's header menus load this kit 2 s after
 * the first content is on screen (or when a menu is reached for before that); pages import it like
 * any kit.
 */
export { Avatar, Breadcrumb, Dropdown, Menu } from 'antd';
export type { DropdownProps, MenuProps } from 'antd';
