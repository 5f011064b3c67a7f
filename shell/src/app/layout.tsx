import { useDispatch, useSelector } from '@portal/shared/web/store';
import { Link, useLocation } from '@portal/shared/web/router';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  AppstoreOutlined,
  BarChartOutlined,
  BulbOutlined,
  FileSearchOutlined,
  HomeOutlined,
  LockOutlined,
  LogoutOutlined,
  ProjectOutlined,
  SettingOutlined,
  SwapOutlined,
  theme as antdTheme,
} from '@portal/shared/ui';
import type { MenuProps } from '@portal/shared/ui/menus';
import { FrameButton, NavList, VISUALLY_HIDDEN, type NavListItem } from '@portal/shared/ui/components';
import { sessionActions, sessionSelectors, type SessionState } from '@portal/shared/web/session';
import type { NavIcon, PortalRemote } from '@portal/shared/core/schemas';
import { useSelectCompany, useSignOut } from '../session/use-session';
import { FeatureFlagsClient } from '../features/flags/feature-flags-client';
import { HeaderHelpLink } from '../features/flags/header-help-link';
import { MaintenanceBannerSlot } from '../features/banner/components/maintenance-banner-slot';
import { NotificationBell } from '../features/notifications/components/notification-bell';
import { activeKeyOf, navigationFor } from './navigation';
import { HeaderDropdown } from './header-dropdown';
import { NoDataAccess, usePortalRemotes } from './routes';

type Root = { session: SessionState };

/** antd's Layout colours for the dark header and sider (its `headerBg` and `siderBg`). */
const DARK_BAR = '#001529';
/** Below antd's `lg` breakpoint the sider narrows to its icons. */
const NARROW_SCREEN = '(max-width: 991.98px)';
const SIDER_WIDTH = 220;
const NARROW_SIDER_WIDTH = 56;

/** Whether the screen is below the `lg` breakpoint, now and as the window is resized. */
function useNarrowScreen(): boolean {
  const [narrow, setNarrow] = useState(
    () => typeof window.matchMedia === 'function' && window.matchMedia(NARROW_SCREEN).matches,
  );
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(NARROW_SCREEN);
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return narrow;
}

// Rarely shown: it loads with the extra UI kit when needed, not on every first page.

const NO_REMOTES: PortalRemote[] = [];

/** The icons a remote's menu entry may name (NAV_ICONS); any other module gets the generic one. */
const ICONS: Partial<Record<NavIcon, ReactNode>> = {
  projects: <ProjectOutlined />,
  // a secure way to send files: the padlock
  transfer: <LockOutlined />,
  requests: <FileSearchOutlined />,
  reports: <BarChartOutlined />,
  settings: <SettingOutlined />,
};

export function PortalFrame({ children, noCompanies }: { children: ReactNode; noCompanies: boolean }) {
  const dispatch = useDispatch();
  const location = useLocation();
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const companies = useSelector((s: Root) => sessionSelectors.selectCompanies(s));
  const selectedId = useSelector((s: Root) => sessionSelectors.selectSelectedCompanyId(s));
  const selected = useSelector((s: Root) => sessionSelectors.selectSelectedCompany(s));
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  const remotes = usePortalRemotes() ?? NO_REMOTES;
  const theme = useSelector((s: Root) => sessionSelectors.selectTheme(s));
  const brand = useSelector((s: Root) => sessionSelectors.selectBrand(s));
  const detailedView = useSelector((s: Root) => sessionSelectors.selectDetailedView(s));
  const selectCompany = useSelectCompany();
  const signOut = useSignOut();

  const { token } = antdTheme.useToken();
  const narrow = useNarrowScreen();

  const items = useMemo<NavListItem[]>(
    () => [
      { key: 'home', icon: <HomeOutlined />, label: 'Home', path: '/' },
      ...navigationFor(remotes, access?.modulesAccess ?? null).map((n) => ({
        key: n.key,
        icon: (n.icon && ICONS[n.icon]) ?? <AppstoreOutlined />,
        label: n.label,
        path: n.path,
      })),
    ],
    [remotes, access],
  );

  const userMenu: MenuProps['items'] = [
    { key: 'settings', icon: <SettingOutlined />, label: <Link to="/settings/personal">Personal settings</Link> },
    // a checkbox item (role and state reach the <li>); remembered per browser under 'detailed-view'
    {
      key: 'detailed-view',
      label: 'Detailed view',
      extra: detailedView ? 'On' : 'Off',
      role: 'menuitemcheckbox',
      'aria-checked': detailedView,
      onClick: () => dispatch(sessionActions.detailedViewSet(!detailedView)),
    } as NonNullable<MenuProps['items']>[number],
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: 'Sign out', onClick: signOut },
  ];

  return (
    // antd's Layout, Sider and Header in their look, as plain elements: antd's Layout brings its
    // Sider's collapse machinery (about 2.5 KB gzip) to every first page for one fixed frame.
    <div
      style={{
        display: 'flex',
        minHeight: '100vh',
        background: token.colorBgLayout,
        color: token.colorText,
        fontSize: token.fontSize,
      }}
    >
      <aside
        style={{
          flex: `0 0 ${narrow ? NARROW_SIDER_WIDTH : SIDER_WIDTH}px`,
          width: narrow ? NARROW_SIDER_WIDTH : SIDER_WIDTH,
          minWidth: 0,
          background: theme === 'dark' ? DARK_BAR : token.colorBgContainer,
          transition: `all ${token.motionDurationMid}, background 0s`,
        }}
      >
        <div
          title={narrow ? `${brand} Portal` : undefined}
          style={{
            padding: narrow ? '16px 0' : '16px 20px',
            textAlign: narrow ? 'center' : undefined,
            fontWeight: 700,
            fontSize: 16,
            color: theme === 'dark' ? '#fff' : undefined,
          }}
        >
          {/* collapsed, the sider is 56 px wide: the brand's initial, its full name for assistive technology */}
          {narrow ? (
            <>
              <span aria-hidden="true">{brand.slice(0, 1)}</span>
              <span style={VISUALLY_HIDDEN}>{brand} Portal</span>
            </>
          ) : (
            `${brand} Portal`
          )}
        </div>
        <nav aria-label="Main">
          <NavList
            items={items}
            activeKey={activeKeyOf(items, location.pathname)}
            dark={theme === 'dark'}
            collapsed={narrow}
          />
        </nav>
      </aside>
      <div style={{ display: 'flex', flexDirection: 'column', flex: 'auto', width: 0, minHeight: 0 }}>
        <header
          style={{
            flex: '0 0 auto',
            display: 'flex',
            alignItems: 'center',
            gap: 16,
            justifyContent: 'flex-end',
            height: 64,
            paddingInline: 24,
            background: theme === 'dark' ? DARK_BAR : '#fff',
          }}
        >
          {companies.length > 0 ? (
            <HeaderDropdown
              trigger={['click']}
              autoFocus
              menu={{
                items: companies.map((c) => ({ key: c.id, label: c.name })),
                selectable: true,
                selectedKeys: selectedId ? [selectedId] : [],
                onClick: ({ key }) => selectCompany(key),
              }}
            >
              <FrameButton
                aria-label={`Company: ${selected?.name ?? 'none'}. Switch company`}
                aria-haspopup="menu"
                icon={<SwapOutlined />}
              >
                {selected?.name ?? 'Choose a company'}
              </FrameButton>
            </HeaderDropdown>
          ) : null}
          <FeatureFlagsClient />
          <HeaderHelpLink />
          <NotificationBell />
          <FrameButton
            variant="text"
            aria-label="Toggle theme"
            aria-pressed={theme === 'dark'}
            title={theme === 'dark' ? 'Switch to the light theme' : 'Switch to the dark theme'}
            icon={<BulbOutlined />}
            onClick={() => dispatch(sessionActions.themeSet(theme === 'dark' ? 'light' : 'dark'))}
          />
          <HeaderDropdown menu={{ items: userMenu }} trigger={['click']}>
            {/* named by its content, the shown name first (WCAG 2.5.3, label in name): "Alice Morgan User menu" */}
            <FrameButton variant="text" aria-haspopup="menu">
              {/* the initial in antd's small avatar look (antd's Avatar would bring its group popover) */}
              <span
                aria-hidden="true"
                style={{
                  display: 'inline-flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  width: 24,
                  height: 24,
                  borderRadius: '50%',
                  background: token.colorTextPlaceholder,
                  color: token.colorTextLightSolid,
                  fontSize: token.fontSizeSM,
                }}
              >
                {user?.firstName?.[0] ?? '?'}
              </span>
              <span>{user ? `${user.firstName} ${user.lastName}` : ''}</span>
              <span style={VISUALLY_HIDDEN}>User menu</span>
            </FrameButton>
          </HeaderDropdown>
        </header>
        <MaintenanceBannerSlot />
        {noCompanies ? <NoDataAccess /> : null}
        <main style={{ flex: 'auto', minHeight: 0, padding: 24 }}>{children}</main>
      </div>
    </div>
  );
}
