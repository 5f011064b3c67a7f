import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from '@portal/shared/web/router';
import { Spin } from '@portal/shared/ui';
import { NotFoundResult } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';
import { DashboardPage, ProjectsListPage } from './features/dashboard/components/dashboard-page';

// The project, documents and transfer screens load on first use, so they add nothing to Home's first load.
const ProjectDetailPage = lazy(() => import('./features/projects/components/project-detail-page').then((m) => ({ default: m.ProjectDetailPage })));
const TaskPage = lazy(() => import('./features/projects/components/task-page').then((m) => ({ default: m.TaskPage })));
const ControlPage = lazy(() => import('./features/projects/components/control-page').then((m) => ({ default: m.ControlPage })));
const DocumentsPage = lazy(() => import('./features/documents/components/documents-page').then((m) => ({ default: m.DocumentsPage })));
const SafeTransferPage = lazy(() => import('./features/safe-transfer/components/safe-transfer-page').then((m) => ({ default: m.SafeTransferPage })));
const TeamRosterPage = lazy(() => import('./features/projects/components/team-roster-page').then((m) => ({ default: m.TeamRosterPage })));

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

/**
 * mfe-projects owns "/", "/dashboard", "/v2/projects/**" and "/safe-transfer"; the shell mounts it at "/"
 * (and redirects the legacy /projects/** to /v2/projects/**).
 */
export default function ProjectsApp(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route index element={<DashboardPage />} />
      <Route path="dashboard" element={<DashboardPage />} />
      <Route path="v2/projects">
        <Route index element={<ProjectsListPage />} />
        <Route path="documents" element={<Page><DocumentsPage /></Page>} />
        <Route path=":projectId" element={<Page><ProjectDetailPage /></Page>} />
        <Route path=":projectId/tasks/:taskId" element={<Page><TaskPage /></Page>} />
        <Route path=":projectId/controls/:controlId" element={<Page><ControlPage /></Page>} />
        <Route path=":projectId/team-roster" element={<Page><TeamRosterPage /></Page>} />
      </Route>
      <Route path="safe-transfer" element={<Page><SafeTransferPage /></Page>} />
      <Route path="*" element={<NotFoundResult />} />
    </Routes>
  );
}
