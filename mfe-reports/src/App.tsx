import { deferred } from '@portal/shared/web/deferred';
import { Route, Routes } from '@portal/shared/web/router';
import { NotFoundResult, PageLoading } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';

// The page (its charts and tables) loads on first use, not with the remote's entry.
const ReportsPage = deferred(() =>
  import('./features/reports/components/reports-page').then((m) => ({ default: m.ReportsPage })),
);

export default function ReportsApp(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route index element={<ReportsPage fallback={<PageLoading />} />} />
      <Route path="*" element={<NotFoundResult />} />
    </Routes>
  );
}
