import { ComingSoon, PageHeader } from '@portal/shared/ui/components';

/** /documents -> /projects/documents -> here: every file of the company's projects (the files module fills it). */
export function DocumentsPage() {
  return (
    <div data-testid="documents">
      <PageHeader title="Documents" crumbs={[{ title: 'Projects', to: '/v2/projects' }, { title: 'Documents' }]} />
      <ComingSoon what="The documents of every project" />
    </div>
  );
}
