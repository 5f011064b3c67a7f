import { useMemo, type ReactNode } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Link, useLocation } from 'react-router-dom';
import {
  Alert,
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
  Select,
  SettingOutlined,
  Tooltip,
  Typography,
  type MenuProps,
} from '@portal/shared/ui';
import { sessionActions, sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { useSelectCompany } from '../session/use-session';
import { signOut } from '../session/sign-in';
import { activeKey, navigationFor } from './navigation';

type Root = { session: SessionState };

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
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  const theme = useSelector((s: Root) => sessionSelectors.selectTheme(s));
  const brand = useSelector((s: Root) => sessionSelectors.selectBrand(s));
  const selectCompany = useSelectCompany();

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
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: 'Sign out', onClick: () => signOut(() => dispatch(sessionActions.loggedOut())) },
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
            <Select
              aria-label="Company"
              style={{ minWidth: 220 }}
              value={selectedId ?? undefined}
              options={companies.map((c) => ({ value: c.id, label: c.name }))}
              onChange={(id: string) => selectCompany(id)}
              showSearch={{ optionFilterProp: 'label' }}
            />
          ) : null}
          <Tooltip title={theme === 'dark' ? 'Light theme' : 'Dark theme'}>
            <Button
              type="text"
              aria-label="Toggle theme"
              icon={<BulbOutlined />}
              onClick={() => dispatch(sessionActions.themeSet(theme === 'dark' ? 'light' : 'dark'))}
            />
          </Tooltip>
          <Dropdown menu={{ items: userMenu }} trigger={['click']}>
            <Button type="text" aria-label="User menu" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
              <Avatar size="small">{user?.firstName?.[0] ?? '?'}</Avatar>
              <Typography.Text>{user ? `${user.firstName} ${user.lastName}` : ''}</Typography.Text>
            </Button>
          </Dropdown>
        </Layout.Header>
        {noCompanies ? (
          <Alert
            type="warning"
            showIcon
            banner
            title="You have no data access"
            description="Your account is not linked to any company yet. Please contact your administrator."
          />
        ) : null}
        <Layout.Content style={{ padding: 24 }}>
          <main>{children}</main>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
