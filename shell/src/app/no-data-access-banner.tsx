import { Alert } from '@portal/shared/ui/extra';
import { FrameLinkButton, StatusPanel } from '@portal/shared/ui/components';

/**
 * What a user who belongs to no company sees (loaded only for them): the banner over every page, and
 * (`page`) where a module would be, a page that says what is still open to them.
 */
export default function NoDataAccess({ page }: { page?: boolean }) {
  if (page) return <NoCompanyPage />;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      title="You have no data access"
      description="Your account is not linked to any company yet. Please contact your administrator."
    />
  );
}

/** Never linked to a company, or the only company's access revoked: the banner above says why. */
function NoCompanyPage() {
  return (
    <StatusPanel
      kind="forbidden"
      title="Nothing to show yet"
      subTitle="Projects, requests and reports appear here once your administrator links your account to a company."
      extra={
        <FrameLinkButton variant="primary" to="/settings/personal">
          Open your personal settings
        </FrameLinkButton>
      }
    />
  );
}
