/**
 * The portal's UI kit: the one place that imports antd and its icons.
 *
 * Why: sharing `antd` whole across the federation ships all of it (~437 KB gzip) on the first page.
 * This module is shared as a singleton (it lives in @portal/shared), so there is one antd instance,
 * one ConfigProvider context and one style cache across the shell and every remote, while webpack
 * tree-shakes antd down to the components listed here. Add a component here before using it.
 */
export {
  Alert,
  App,
  Avatar,
  Badge,
  Breadcrumb,
  Button,
  Card,
  Col,
  Descriptions,
  ConfigProvider,
  Divider,
  Dropdown,
  Empty,
  Flex,
  Layout,
  List,
  Menu,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
  Spin,
  Statistic,
  Switch,
  Tag,
  Tooltip,
  Typography,
  theme,
} from 'antd';
export type { MenuProps, ThemeConfig } from 'antd';
export {
  AppstoreOutlined,
  BarChartOutlined,
  BulbOutlined,
  FileSearchOutlined,
  HomeOutlined,
  LogoutOutlined,
  ProjectOutlined,
  ReloadOutlined,
  SettingOutlined,
  SwapOutlined,
  UserOutlined,
} from '@ant-design/icons';
