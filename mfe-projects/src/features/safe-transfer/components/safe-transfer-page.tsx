/**
 * /safe-transfer: files sent to users of the company through expiring links. The page uses the
 * first-page kit only; the transfers (extra kit, forms, upload) arrive in their own chunk.
 */
import { lazy, Suspense } from 'react';
import { Spin } from '@portal/shared/ui';
import { PageHeader } from '@portal/shared/ui/components';
import { useProjectsCompany } from '../../../app/use-projects-company';

const TransfersView = lazy(() => import('./transfers-view').then((m) => ({ default: m.TransfersView })));

export function SafeTransferPage() {
  const target = useProjectsCompany('transfers');
  return (
    <div data-testid="safe-transfer">
      <PageHeader title="Safe Transfer" crumbs={[{ title: 'Safe Transfer' }]} />
      {'blocked' in target ? (
        target.blocked
      ) : (
        <Suspense
          fallback={
            <div style={{ padding: 32, textAlign: 'center' }}>
              <Spin aria-label="Loading transfers" />
            </div>
          }
        >
          <TransfersView companyId={target.companyId} />
        </Suspense>
      )}
    </div>
  );
}
