import { useSelector } from '@portal/shared/web/store';
import { Alert, Flex, Skeleton } from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { RemoteOverrides } from './remote-overrides';

type Root = { session: SessionState };

/**
 * Personal settings (everyone): the profile and, for users who sign in with a password, the password;
 * for staff, the modules this browser loads from another address (a release under test).
 */
export function PersonalPage() {
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const companyId = useSelector((s: Root) => sessionSelectors.selectSelectedCompanyId(s));
  const header = (
    <PageHeader title="Personal settings" crumbs={[{ title: 'Settings', to: '/settings' }, { title: 'Personal' }]} />
  );
  if (!user) {
    return (
      <div data-testid="settings-personal">
        {header}
        <Skeleton active />
      </div>
    );
  }
  // Federated users cannot edit their profile; their identity provider owns it.
  const federated = user.metadata.isFederated;
  return (
    <div data-testid="settings-personal">
      {header}
      <Flex vertical gap="large">
        {federated ? (
          <Alert
            type="info"
            showIcon
            title="You sign in with your company's single sign-on"
            description="Your profile and password come from it: to change them, use your company's single sign-on (or ask its administrator)."
          />
        ) : null}
        <ProfileForm key={user.id} user={user} readOnly={federated} />
        {federated ? null : <PasswordForm user={user} companyId={companyId} />}
        {user.isTevora && !user.isAuditor ? <RemoteOverrides /> : null}
      </Flex>
    </div>
  );
}
