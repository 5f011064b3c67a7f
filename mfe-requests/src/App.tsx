import { deferred } from '@portal/shared/web/deferred';
import { Route, Routes } from '@portal/shared/web/router';
import { NotFoundResult, PageLoading } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';

// Each page loads on first use: the list's table and dialogs never wait for the detail page, nor the reverse.
const RequestsListPage = deferred(() =>
  import('./features/requests-list/components/requests-list-page').then((m) => ({ default: m.RequestsListPage })),
);
const RequestDetailPage = deferred(() =>
  import('./features/request-detail/request-detail-page').then((m) => ({ default: m.RequestDetailPage })),
);

/** mfe-requests: mounted by the shell at /requests. */
export default function RequestsApp(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route index element={<RequestsListPage fallback={<PageLoading />} />} />
      <Route path=":requestId" element={<RequestDetailPage fallback={<PageLoading />} />} />
      <Route path="*" element={<NotFoundResult />} />
    </Routes>
  );
}
