import { useState, type CSSProperties, type ReactNode } from 'react';
import { Link } from '@portal/shared/web/router';
import { theme as antdTheme } from '@portal/shared/ui';

export interface SideNavItem {
  key: string;
  label: string;
  path: string;
  icon: ReactNode;
}

/** Read by screen readers, not shown. */
const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

/** antd's dark menu colours on the dark sider. */
const DARK = { text: 'rgba(255, 255, 255, 0.65)', hoverText: '#fff', selectedText: '#fff' };

/**
 * The sider's navigation: a list of links, the current one marked `aria-current="page"`, in the look
 * of antd's inline menu. Site navigation is links, not an application menu (`role="menu"` asks for
 * arrow-key handling that a list of links does not have), and antd's Menu would put about 20 KB gzip
 * on every first page. Collapsed (narrow screens), each link shows its icon and keeps its name for
 * assistive technology and as a tooltip.
 */
export function SideNav({ items, activeKey, dark, collapsed }: { items: SideNavItem[]; activeKey: string; dark: boolean; collapsed: boolean }) {
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: '4px 0' }}>
      {items.map((item) => (
        <li key={item.key}>
          <SideNavLink item={item} active={item.key === activeKey} dark={dark} collapsed={collapsed} />
        </li>
      ))}
    </ul>
  );
}

function SideNavLink({ item, active, dark, collapsed }: { item: SideNavItem; active: boolean; dark: boolean; collapsed: boolean }) {
  const { token } = antdTheme.useToken();
  const [hover, setHover] = useState(false);
  const color = dark ? (active ? DARK.selectedText : hover ? DARK.hoverText : DARK.text) : active ? token.colorPrimary : token.colorText;
  const background = active ? (dark ? token.colorPrimary : token.controlItemBgActive) : hover ? (dark ? 'transparent' : token.colorBgTextHover) : 'transparent';
  return (
    <Link
      to={item.path}
      aria-current={active ? 'page' : undefined}
      title={collapsed ? item.label : undefined}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: collapsed ? 'center' : 'flex-start',
        gap: token.marginSM,
        height: 40,
        margin: '4px',
        paddingInline: collapsed ? 0 : 16,
        borderRadius: token.borderRadiusLG,
        color,
        background,
        fontSize: token.fontSize,
        textDecoration: 'none',
        transition: `background ${token.motionDurationMid}, color ${token.motionDurationMid}`,
      }}
    >
      <span aria-hidden="true" style={{ display: 'inline-flex', fontSize: collapsed ? 16 : 14 }}>
        {item.icon}
      </span>
      <span style={collapsed ? VISUALLY_HIDDEN : { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{item.label}</span>
    </Link>
  );
}
