import { ComingSoon } from '@portal/shared/ui/components';

/** Placeholder while issue 4 builds it. */
export function CompanyUsers(_props: { companyId: string }) {
  return <ComingSoon what="CompanyUsers" />;
}
