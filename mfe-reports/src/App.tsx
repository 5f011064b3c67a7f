import { Route, Routes } from '@portal/shared/web/router';
import { ComingSoon, NotFoundResult, PageHeader } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';

function ReportsPage() {
  return (
    <div data-testid="reports">
      <PageHeader title="Reports" crumbs={[{ title: 'Reports' }]} />
      <ComingSoon what="Status, requests, controls and workload reports" />
    </div>
  );
}

/** mfe-reports: mounted by the shell at /reports. */
export default function ReportsApp(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route index element={<ReportsPage />} />
      <Route path="*" element={<NotFoundResult />} />
    </Routes>
  );
}
