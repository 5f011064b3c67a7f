import { Tabs } from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { useSearchParams } from '@portal/shared/web/router';
import { AuditLog } from './audit-log';
import { FeatureFlags } from './feature-flags';
import { PortalMessages } from './portal-messages';

const TABS = [
  { key: 'messages', label: 'Portal messages', children: <PortalMessages /> },
  { key: 'flags', label: 'Feature flags', children: <FeatureFlags /> },
  { key: 'audit', label: 'Audit log', children: <AuditLog /> },
];

/** /settings/system (staff admins): portal messages, feature flags and the audit log as tabs kept in `?tab=`. */
export function SystemPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const active = TABS.some((t) => t.key === requested) ? requested! : 'messages';
  return (
    <div data-testid="settings-system">
      <PageHeader title="System Admin" crumbs={[{ title: 'Settings', to: '/settings' }, { title: 'System Admin' }]} />
      <Tabs
        activeKey={active}
        destroyOnHidden
        // Each tab keeps its own filters in the address; switching starts the other tab afresh.
        onChange={(key) => setParams(new URLSearchParams({ tab: key }))}
        items={TABS}
      />
    </div>
  );
}
