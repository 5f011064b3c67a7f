import { Suspense, type ReactNode } from 'react';
import { Spin } from '@portal/shared/ui';
import { PageHeader } from '@portal/shared/ui/components';
import { useModuleCompany } from '@portal/shared/web/module-company';

/**
 * A page of the selected company's projects module: its header, then the panel that says why the
 * company is not open to the user, or `children` (a lazy chunk) with a spinner while it loads.
 * First-page kit only.
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
  children: (companyId: string) => ReactNode;
}) {
  const target = useModuleCompany('projects', what);
  return (
    <div data-testid={testId}>
      <PageHeader title={title} crumbs={crumbs} />
      {'blocked' in target ? (
        target.blocked
      ) : (
        <Suspense
          fallback={
            <div style={{ padding: 32, textAlign: 'center' }}>
              <Spin aria-label={loadingLabel} />
            </div>
          }
        >
          {children(target.companyId)}
        </Suspense>
      )}
    </div>
  );
}
