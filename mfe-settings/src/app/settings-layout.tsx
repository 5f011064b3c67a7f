import type { ReactNode } from 'react';
import { useSelector } from '@portal/shared/web/store';
import { Link, useLocation } from '@portal/shared/web/router';
import { Spin } from '@portal/shared/ui';
import { NavList, StatusPanel } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { allowedTabs, tabLabel, TAB_RULES, type SettingsTab, type TabContext } from './tabs';

type Root = { session: SessionState };

export function useTabContext(): TabContext & { loading: boolean } {
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  const companies = useSelector((s: Root) => sessionSelectors.selectCompanies(s));
  const companiesLoaded = useSelector((s: Root) => sessionSelectors.selectCompaniesLoaded(s));
  // Permissions arrive with the selected company's access; with no company there are none to wait for.
  const loading = !user || (!access && !(companiesLoaded && companies.length === 0));
  return { user, permissions: access?.settingsPermissions ?? null, loading };
}

/** The settings frame: the menu of the tabs this user may use, beside the tab. */
export function SettingsLayout({ children }: { children: ReactNode }) {
  const context = useTabContext();
  const brand = useSelector((s: Root) => sessionSelectors.selectBrand(s));
  const { pathname } = useLocation();
  const current = (pathname.split('/settings/')[1] ?? '').split('/')[0] || 'personal';
  const selected = current === 'templates' ? 'practices' : current;
  const items = allowedTabs(context).map((tab) => ({
    key: tab,
    label: tabLabel(tab, brand),
    path: `/settings/${tab}`,
  }));
  return (
    <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start' }}>
      <nav aria-label="Settings" style={{ width: 220, flex: 'none' }}>
        <NavList items={items} activeKey={selected} />
      </nav>
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
    </div>
  );
}

/** Renders the tab only for users who may use it; a direct link otherwise says plainly that it is not permitted. */
export function TabGuard({ tab, children }: { tab: SettingsTab; children: ReactNode }) {
  const context = useTabContext();
  if (context.loading && !TAB_RULES[tab](context)) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin aria-label="Loading permissions" />
      </div>
    );
  }
  if (!TAB_RULES[tab](context)) return <NotPermitted />;
  return <>{children}</>;
}

export function NotPermitted() {
  return (
    <StatusPanel
      kind="forbidden"
      title="You do not have permission to view this page"
      subTitle="This settings page needs a permission you do not hold in the selected company. Ask your company administrator if you need it."
      extra={<Link to="/settings">Back to your settings</Link>}
    />
  );
}
