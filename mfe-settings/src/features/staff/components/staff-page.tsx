import { ComingSoon } from '@portal/shared/ui/components';

/** Placeholder while issue 4 builds it. */
export function StaffPage() {
  return <ComingSoon what="StaffPage" />;
}
