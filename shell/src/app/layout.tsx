import { useDispatch, useSelector } from '@portal/shared/web/store';
import { Link, useLocation } from '@portal/shared/web/router';
import { useMemo, type CSSProperties, type ReactNode } from 'react';
import { deferred } from '@portal/shared/web/deferred';
import {
  AppstoreOutlined,
  Avatar,
  BarChartOutlined,
  BulbOutlined,
  Button,
  Dropdown,
  FileSearchOutlined,
  HomeOutlined,
  Layout,
  LogoutOutlined,
  Menu,
  ProjectOutlined,
  SettingOutlined,
  SwapOutlined,
  type MenuProps,
} from '@portal/shared/ui';
import { sessionActions, sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { useSelectCompany, useSignOut } from '../session/use-session';
import { FeatureFlagsClient } from '../features/flags/feature-flags-client';
import { HeaderHelpLink } from '../features/flags/header-help-link';
import { MaintenanceBannerSlot } from '../features/banner/components/maintenance-banner-slot';
import { NotificationBell } from '../features/notifications/components/notification-bell';
import { activeKey, navigationFor } from './navigation';

type Root = { session: SessionState };

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

// Rarely shown: it loads with the extra UI kit when needed, not on every first page.
const NoDataAccessBanner = deferred(() => import('./no-data-access-banner'));

const ICONS: Record<string, ReactNode> = {
  projects: <ProjectOutlined />,
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
  const theme = useSelector((s: Root) => sessionSelectors.selectTheme(s));
  const brand = useSelector((s: Root) => sessionSelectors.selectBrand(s));
  const detailedView = useSelector((s: Root) => sessionSelectors.selectDetailedView(s));
  const selectCompany = useSelectCompany();
  const signOut = useSignOut();

  const items = useMemo<MenuProps['items']>(
    () => [
      { key: 'home', icon: <HomeOutlined />, label: <Link to="/">Home</Link> },
      ...navigationFor(access?.modulesAccess ?? null).map((n) => ({
        key: n.key,
        icon: ICONS[n.key] ?? <AppstoreOutlined />,
        label: <Link to={n.path}>{n.label}</Link>,
      })),
    ],
    [access],
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
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider breakpoint="lg" collapsedWidth={56} theme={theme} width={220}>
        <div style={{ padding: '16px 20px', fontWeight: 700, fontSize: 16, color: theme === 'dark' ? '#fff' : undefined }}>{brand} Portal</div>
        <nav aria-label="Main">
          <Menu mode="inline" theme={theme} selectedKeys={[activeKey(location.pathname)]} items={items} />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{ display: 'flex', alignItems: 'center', gap: 16, justifyContent: 'flex-end', paddingInline: 24, background: theme === 'dark' ? undefined : '#fff' }}
        >
          {companies.length > 0 ? (
            <Dropdown
              trigger={['click']}
              autoFocus
              menu={{
                items: companies.map((c) => ({ key: c.id, label: c.name })),
                selectable: true,
                selectedKeys: selectedId ? [selectedId] : [],
                onClick: ({ key }) => selectCompany(key),
              }}
            >
              <Button aria-label={`Company: ${selected?.name ?? 'none'}. Switch company`} aria-haspopup="menu" icon={<SwapOutlined />}>
                {selected?.name ?? 'Choose a company'}
              </Button>
            </Dropdown>
          ) : null}
          <FeatureFlagsClient />
          <HeaderHelpLink />
          <NotificationBell />
          <Button
            type="text"
            aria-label="Toggle theme"
            aria-pressed={theme === 'dark'}
            title={theme === 'dark' ? 'Switch to the light theme' : 'Switch to the dark theme'}
            icon={<BulbOutlined />}
            onClick={() => dispatch(sessionActions.themeSet(theme === 'dark' ? 'light' : 'dark'))}
          />
          <Dropdown menu={{ items: userMenu }} trigger={['click']}>
            {/* named by its content, the shown name first (WCAG 2.5.3, label in name): "Alice Morgan User menu" */}
            <Button type="text" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
              <Avatar size="small" aria-hidden>
                {user?.firstName?.[0] ?? '?'}
              </Avatar>
              <span>{user ? `${user.firstName} ${user.lastName}` : ''}</span>
              <span style={VISUALLY_HIDDEN}>User menu</span>
            </Button>
          </Dropdown>
        </Layout.Header>
        <MaintenanceBannerSlot />
        {noCompanies ? <NoDataAccessBanner /> : null}
        <Layout.Content style={{ padding: 24 }}>
          <main>{children}</main>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
