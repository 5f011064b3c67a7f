import { useParams } from '@portal/shared/web/router';
import { useSelector } from '@portal/shared/web/store';
import { Spin } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Space } from '@portal/shared/ui/extra';
import { PageHeader, StatusPanel } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { fullName } from '../../../app/users';
import { useSettingsUserGetQuery } from '../../../app/shared-queries';
import { UserAssignedObjects } from './user-assigned-objects';
import { UserDetails } from './user-details';
import { UserModulesAccessCard } from './user-modules-access';

type Root = { session: SessionState };

/** /settings/company/user/:userId: one member of the selected company, their access and what they are assigned to. */
export function CompanyUserPage() {
  const { userId = '' } = useParams();
  const companyId = useSelector((s: Root) => sessionSelectors.selectSelectedCompanyId(s));
  const permissions = useSelector((s: Root) => sessionSelectors.selectAccess(s))?.settingsPermissions;
  const { data: user, isLoading, isError, error, refetch } = useSettingsUserGetQuery(userId, { skip: !userId });
  const notFound = (error as { status?: unknown } | undefined)?.status === 404;

  return (
    <div data-testid="settings-company-user">
      <PageHeader
        title={user ? fullName(user) : 'User'}
        crumbs={[
          { title: 'Settings', to: '/settings' },
          { title: 'Company', to: '/settings/company' },
          { title: user ? fullName(user) : 'User' },
        ]}
      />
      {isLoading ? (
        <div style={{ padding: 48, textAlign: 'center' }}>
          <Spin aria-label="Loading user" />
        </div>
      ) : notFound ? (
        <StatusPanel
          nested
          kind="notFound"
          title="User not found"
          subTitle="This user does not exist or is not a member of a company you manage."
        />
      ) : isError || !user ? (
        <Alert
          type="error"
          showIcon
          title="The user could not be loaded."
          action={<Button onClick={() => refetch()}>Try again</Button>}
        />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <UserDetails user={user} />
          {companyId ? (
            <>
              <UserModulesAccessCard
                companyId={companyId}
                userId={user.id}
                canEdit={!!permissions?.users.editModulesAccess}
              />
              <UserAssignedObjects companyId={companyId} userId={user.id} />
            </>
          ) : (
            <Alert
              type="info"
              showIcon
              title="Choose a company to see this user's module access and assigned objects."
            />
          )}
        </Space>
      )}
    </div>
  );
}
