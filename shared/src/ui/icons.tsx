/**
 * The first-page kit's icons: antd's own outlined icons (the same drawings, from
 * @ant-design/icons-svg) in the same markup as @ant-design/icons gives them, `<span role="img"
 * aria-label="home" class="anticon anticon-home"><svg …/></span>`, so they look and read the same.
 *
 * Why not @ant-design/icons here: each of its icons renders through its icon base, which brings
 * its own stylesheet injection and render helpers to the first page. The `.anticon` styles come from
 * antd's ConfigProvider either way. Icons off the first page come from `ui/extra`, as antd's.
 */
import { createElement, forwardRef, type HTMLAttributes, type ReactNode } from 'react';
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import AppstoreSvg from '@ant-design/icons-svg/es/asn/AppstoreOutlined';
import BarChartSvg from '@ant-design/icons-svg/es/asn/BarChartOutlined';
import BellSvg from '@ant-design/icons-svg/es/asn/BellOutlined';
import BulbSvg from '@ant-design/icons-svg/es/asn/BulbOutlined';
import DownSvg from '@ant-design/icons-svg/es/asn/DownOutlined';
import ExclamationCircleSvg from '@ant-design/icons-svg/es/asn/ExclamationCircleOutlined';
import FileSearchSvg from '@ant-design/icons-svg/es/asn/FileSearchOutlined';
import HomeSvg from '@ant-design/icons-svg/es/asn/HomeOutlined';
import LockSvg from '@ant-design/icons-svg/es/asn/LockOutlined';
import LogoutSvg from '@ant-design/icons-svg/es/asn/LogoutOutlined';
import ProjectSvg from '@ant-design/icons-svg/es/asn/ProjectOutlined';
import QuestionCircleSvg from '@ant-design/icons-svg/es/asn/QuestionCircleOutlined';
import ReloadSvg from '@ant-design/icons-svg/es/asn/ReloadOutlined';
import SettingSvg from '@ant-design/icons-svg/es/asn/SettingOutlined';
import SwapSvg from '@ant-design/icons-svg/es/asn/SwapOutlined';
import UserSvg from '@ant-design/icons-svg/es/asn/UserOutlined';

/** What the portal passes to an icon: the span's attributes (a name, a style, a click...). */
export type PortalIconProps = Omit<HTMLAttributes<HTMLSpanElement>, 'children'>;

function svgNodes(nodes: AbstractNode[] | undefined, key: string): ReactNode[] {
  return (nodes ?? []).map((node, i) =>
    createElement(node.tag, { key: `${key}-${i}`, ...node.attrs }, ...svgNodes(node.children, `${key}-${i}`)),
  );
}

function portalIcon(definition: IconDefinition, displayName: string) {
  // outlined drawings are plain nodes (only two-tone ones are functions of their colours)
  const svg = definition.icon as AbstractNode;
  const Icon = forwardRef<HTMLSpanElement, PortalIconProps>(function PortalIcon(
    { className, tabIndex, onClick, ...rest },
    ref,
  ) {
    return (
      <span
        role="img"
        aria-label={definition.name}
        {...rest}
        ref={ref}
        // as antd's: a clickable icon can take focus from script, not from Tab
        tabIndex={tabIndex ?? (onClick ? -1 : undefined)}
        onClick={onClick}
        className={className ? `anticon anticon-${definition.name} ${className}` : `anticon anticon-${definition.name}`}
      >
        <svg {...svg.attrs} data-icon={definition.name} width="1em" height="1em" fill="currentColor" aria-hidden="true">
          {svgNodes(svg.children, definition.name)}
        </svg>
      </span>
    );
  });
  Icon.displayName = displayName;
  return Icon;
}

export const AppstoreOutlined = portalIcon(AppstoreSvg, 'AppstoreOutlined');
export const BarChartOutlined = portalIcon(BarChartSvg, 'BarChartOutlined');
export const BellOutlined = portalIcon(BellSvg, 'BellOutlined');
export const BulbOutlined = portalIcon(BulbSvg, 'BulbOutlined');
export const DownOutlined = portalIcon(DownSvg, 'DownOutlined');
export const ExclamationCircleOutlined = portalIcon(ExclamationCircleSvg, 'ExclamationCircleOutlined');
export const FileSearchOutlined = portalIcon(FileSearchSvg, 'FileSearchOutlined');
export const HomeOutlined = portalIcon(HomeSvg, 'HomeOutlined');
export const LockOutlined = portalIcon(LockSvg, 'LockOutlined');
export const LogoutOutlined = portalIcon(LogoutSvg, 'LogoutOutlined');
export const ProjectOutlined = portalIcon(ProjectSvg, 'ProjectOutlined');
export const QuestionCircleOutlined = portalIcon(QuestionCircleSvg, 'QuestionCircleOutlined');
export const ReloadOutlined = portalIcon(ReloadSvg, 'ReloadOutlined');
export const SettingOutlined = portalIcon(SettingSvg, 'SettingOutlined');
export const SwapOutlined = portalIcon(SwapSvg, 'SwapOutlined');
export const UserOutlined = portalIcon(UserSvg, 'UserOutlined');
