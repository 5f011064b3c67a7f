import { ComingSoon } from '@portal/shared/ui/components';

/** Placeholder while issue 4 builds it. */
export function CompanyPasswordPolicy(_props: { companyId: string; canEdit: boolean }) {
  return <ComingSoon what="CompanyPasswordPolicy" />;
}
