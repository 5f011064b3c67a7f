import { ComingSoon } from '@portal/shared/ui/components';

/** Placeholder while issue 4 builds it. */
export function TeamsPage() {
  return <ComingSoon what="TeamsPage" />;
}
