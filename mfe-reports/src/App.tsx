import { lazy, Suspense } from 'react';
import { Route, Routes } from '@portal/shared/web/router';
import { Spin } from '@portal/shared/ui';
import { NotFoundResult } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';

// The page (its charts and tables) loads on first use, not with the remote's entry.
const ReportsPage = lazy(() => import('./features/reports/components/reports-page').then((m) => ({ default: m.ReportsPage })));

function Page() {
  return (
    <Suspense
      fallback={
        <div role="status" aria-label="Loading the page" style={{ padding: 48, textAlign: 'center' }}>
          <Spin size="large" />
        </div>
      }
    >
      <ReportsPage />
    </Suspense>
  );
}

/** mfe-reports: mounted by the shell at /reports. */
export default function ReportsApp(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route index element={<Page />} />
      <Route path="*" element={<NotFoundResult />} />
    </Routes>
  );
}
