/**
 * /documents -> /projects/documents -> here: every file of the selected company's projects. The page
 * itself uses the first-page kit only; the table (extra kit) arrives in its own chunk.
 */
import { lazy, Suspense } from 'react';
import { Spin } from '@portal/shared/ui';
import { PageHeader } from '@portal/shared/ui/components';
import { useProjectsCompany } from '../../../app/use-projects-company';

const DocumentsList = lazy(() => import('./documents-list').then((m) => ({ default: m.DocumentsList })));

export function DocumentsPage() {
  const target = useProjectsCompany('documents');
  return (
    <div data-testid="documents">
      <PageHeader title="Documents" crumbs={[{ title: 'Projects', to: '/v2/projects' }, { title: 'Documents' }]} />
      {'blocked' in target ? (
        target.blocked
      ) : (
        <Suspense
          fallback={
            <div style={{ padding: 32, textAlign: 'center' }}>
              <Spin aria-label="Loading documents" />
            </div>
          }
        >
          <DocumentsList companyId={target.companyId} />
        </Suspense>
      )}
    </div>
  );
}
