import { useState } from 'react';
import { useSearchParams } from '@portal/shared/web/router';
import { useSelector } from '@portal/shared/web/store';
import { Spin } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Menu } from '@portal/shared/ui/menus';
import { Alert, Empty, PlusOutlined, Typography } from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { useSettingsTeamsCreateMutation, useSettingsTeamsListQuery } from '../api/teams-api';
import { TeamNameModal } from './team-name-modal';
import { TeamPanel } from './team-panel';

type Root = { session: SessionState };

/** /settings/teams: the selected company's teams beside the chosen one (`?team=`), with its members, module access and objects. */
export function TeamsPage() {
  const company = useSelector((s: Root) => sessionSelectors.selectSelectedCompany(s));
  const permissions = useSelector((s: Root) => sessionSelectors.selectAccess(s))?.settingsPermissions;
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const companyId = company?.id ?? '';
  const { data: teams, isLoading, isError, refetch } = useSettingsTeamsListQuery(companyId, { skip: !companyId });
  const [create] = useSettingsTeamsCreateMutation();

  const select = (teamId: string | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (teamId) next.set('team', teamId);
      else next.delete('team');
      return next;
    });

  const requested = params.get('team');
  const selected = teams?.find((t) => t.id === requested) ?? teams?.[0] ?? null;

  return (
    <div data-testid="settings-teams">
      <PageHeader
        title="Teams"
        crumbs={[{ title: 'Settings', to: '/settings' }, { title: 'Teams' }]}
        extra={
          company ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              Create team
            </Button>
          ) : null
        }
      />
      {!company ? (
        <Alert type="info" showIcon title="Choose a company to manage its teams." />
      ) : isLoading ? (
        <div style={{ padding: 48, textAlign: 'center' }}>
          <Spin aria-label="Loading teams" />
        </div>
      ) : isError ? (
        <Alert
          type="error"
          showIcon
          title="The teams could not be loaded."
          action={<Button onClick={() => refetch()}>Try again</Button>}
        />
      ) : !teams?.length ? (
        <Empty
          description={`${company.name} has no teams yet. Create one to give several users the same module access.`}
        />
      ) : (
        <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start' }}>
          <nav aria-label="Teams list" style={{ width: 240, flex: 'none' }}>
            <Menu
              mode="inline"
              selectedKeys={selected ? [selected.id] : []}
              onClick={({ key }) => select(key)}
              items={teams.map((t) => ({
                key: t.id,
                label: (
                  <span>
                    {t.name} <Typography.Text type="secondary">({t.users.length})</Typography.Text>
                  </span>
                ),
              }))}
            />
          </nav>
          <div style={{ flex: 1, minWidth: 0 }}>
            {selected ? (
              <TeamPanel
                key={selected.id}
                company={company}
                team={selected}
                canEditModules={!!permissions?.company.editModulesAccess}
                onDeleted={() => select(null)}
              />
            ) : null}
          </div>
        </div>
      )}
      <TeamNameModal
        title="Create team"
        okText="Create"
        open={creating}
        onClose={() => setCreating(false)}
        onSubmit={async (name) => {
          const team = await create({ companyId, name }).unwrap();
          select(team.id);
        }}
      />
    </div>
  );
}
