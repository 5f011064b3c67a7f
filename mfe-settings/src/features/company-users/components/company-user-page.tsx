import { ComingSoon } from '@portal/shared/ui/components';

/** Placeholder while issue 4 builds it. */
export function CompanyUserPage() {
  return <ComingSoon what="CompanyUserPage" />;
}
