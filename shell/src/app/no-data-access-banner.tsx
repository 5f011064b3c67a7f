import { Alert } from '@portal/shared/ui/extra';

/** Shown when the user belongs to no company. */
export default function NoDataAccessBanner() {
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
