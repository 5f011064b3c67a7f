/**
 * /safe-transfer: files sent to users of the company through expiring links. The page uses the
 * first-page kit only; the transfers (extra kit, forms, upload) arrive in their own chunk.
 */
import { deferred } from '@portal/shared/web/deferred';
import { ProjectsCompanyPage } from '../../../app/projects-company-page';

const TransfersView = deferred(() => import('./transfers-view').then((m) => ({ default: m.TransfersView })));

export function SafeTransferPage() {
  return (
    <ProjectsCompanyPage
      testId="safe-transfer"
      title="Safe Transfer"
      crumbs={[{ title: 'Safe Transfer' }]}
      what="transfers"
      loadingLabel="Loading transfers"
    >
      {(companyId, loading) => <TransfersView companyId={companyId} fallback={loading} />}
    </ProjectsCompanyPage>
  );
}
