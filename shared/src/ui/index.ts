/**
 * The portal's first-page UI kit: the antd components the frame and the dashboard need.
 *
 * Why a kit: sharing `antd` whole across the federation ships all of it (~437 KB gzip) on the first
 * page. This module is part of the @portal/shared singleton and is provided by the shell, so there is
 * one antd instance, one ConfigProvider context and one style cache across the shell and every remote,
 * while webpack tree-shakes antd down to what is listed here. Heavier components (forms, tables,
 * selects, cards...) live in `@portal/shared/ui/extra`, and menus (Dropdown, Menu, Breadcrumb, Avatar)
 * in `@portal/shared/ui/menus`; each loads when a page first needs it.
 * Only add a component here if the first page needs it: everything here costs every user at sign-in.
 */
export { ConfigProvider } from 'antd';
export { theme } from './theme';
// the portal's own, in antd's look (spin.tsx): antd's Spin would bring its component style machinery
export { Spin } from './spin';
export type { SpinProps } from './spin';
export type { ThemeConfig } from 'antd';
// antd's outlined icons in antd's markup, without @ant-design/icons' icon base (icons.tsx)
export {
  AppstoreOutlined,
  ExclamationCircleOutlined,
  LockOutlined,
  QuestionCircleOutlined,
  BarChartOutlined,
  BellOutlined,
  BulbOutlined,
  DownOutlined,
  FileSearchOutlined,
  HomeOutlined,
  LogoutOutlined,
  ProjectOutlined,
  ReloadOutlined,
  SettingOutlined,
  SwapOutlined,
  UserOutlined,
} from './icons';
