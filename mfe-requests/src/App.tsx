import { Route, Routes, useParams } from '@portal/shared/web/router';
import { ComingSoon, NotFoundResult, PageHeader } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';

function RequestsListPage() {
  return (
    <div data-testid="requests-list">
      <PageHeader title="Requests" crumbs={[{ title: 'Requests' }]} />
      <ComingSoon what="The evidence request list" />
    </div>
  );
}

function RequestDetailPage() {
  const { requestId } = useParams();
  return (
    <div data-testid="request-detail">
      <PageHeader title={`Request ${requestId}`} crumbs={[{ title: 'Requests', to: '/requests' }, { title: String(requestId) }]} />
      <ComingSoon what="Request detail" />
    </div>
  );
}

/** mfe-requests: mounted by the shell at /requests. */
export default function RequestsApp(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route index element={<RequestsListPage />} />
      <Route path=":requestId" element={<RequestDetailPage />} />
      <Route path="*" element={<NotFoundResult />} />
    </Routes>
  );
}
