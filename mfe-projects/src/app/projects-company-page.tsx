import type { ReactNode } from 'react';
import { Spin } from '@portal/shared/ui';
import { PageHeader } from '@portal/shared/ui/components';
import { useModuleCompany } from '@portal/shared/web/module-company';

/**
 * A page of the selected company's projects module: its header, then the panel that says why the
 * company is not open to the user, or `children` (a part loaded on first use, given the spinner to
 * show while it loads). First-page kit only.
 */
export function ProjectsCompanyPage({
  testId,
  title,
  crumbs,
  what,
  loadingLabel,
  children,
}: {
  testId: string;
  title: string;
  crumbs: { title: string; to?: string }[];
  /** What the page shows, for the "No company selected" panel. */
  what: string;
  loadingLabel: string;
  children: (companyId: string, loading: ReactNode) => ReactNode;
}) {
  const target = useModuleCompany('projects', what);
  return (
    <div data-testid={testId}>
      <PageHeader title={title} crumbs={crumbs} />
      {'blocked' in target
        ? target.blocked
        : children(
            target.companyId,
            <div style={{ padding: 32, textAlign: 'center' }}>
              <Spin aria-label={loadingLabel} />
            </div>,
          )}
    </div>
  );
}
