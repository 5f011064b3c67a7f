/**
 * /documents -> /projects/documents -> here: every file of the selected company's projects. The page
 * itself uses the first-page kit only; the table (extra kit) arrives in its own chunk.
 */
import { deferred } from '@portal/shared/web/deferred';
import { ProjectsCompanyPage } from '../../../app/projects-company-page';

const DocumentsList = deferred(() => import('./documents-list').then((m) => ({ default: m.DocumentsList })));

export function DocumentsPage() {
  return (
    <ProjectsCompanyPage
      testId="documents"
      title="Documents"
      crumbs={[{ title: 'Projects', to: '/v2/projects' }, { title: 'Documents' }]}
      what="documents"
      loadingLabel="Loading documents"
    >
      {(companyId, loading) => <DocumentsList companyId={companyId} fallback={loading} />}
    </ProjectsCompanyPage>
  );
}
