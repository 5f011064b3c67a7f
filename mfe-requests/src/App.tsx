import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from '@portal/shared/web/router';
import { Spin } from '@portal/shared/ui';
import { NotFoundResult } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';

// Each page loads on first use: the list's table and dialogs never wait for the detail page, nor the reverse.
const RequestsListPage = lazy(() => import('./features/requests-list/components/requests-list-page').then((m) => ({ default: m.RequestsListPage })));
const RequestDetailPage = lazy(() => import('./features/request-detail/request-detail-page').then((m) => ({ default: m.RequestDetailPage })));

function Page({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div role="status" aria-label="Loading the page" style={{ padding: 48, textAlign: 'center' }}>
          <Spin size="large" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

/** mfe-requests: mounted by the shell at /requests. */
export default function RequestsApp(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route index element={<Page><RequestsListPage /></Page>} />
      <Route path=":requestId" element={<Page><RequestDetailPage /></Page>} />
      <Route path="*" element={<NotFoundResult />} />
    </Routes>
  );
}
