import { deferred } from '@portal/shared/web/deferred';
import { Route, Routes } from '@portal/shared/web/router';
import { NotFoundResult, PageLoading } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';
import { DashboardPage, ProjectsListPage } from './features/dashboard/components/dashboard-page';

// The project, documents and transfer screens load on first use, so they add nothing to Home's first load.
const ProjectDetailPage = deferred(() =>
  import('./features/projects/components/project-detail-page').then((m) => ({ default: m.ProjectDetailPage })),
);
const TaskPage = deferred(() =>
  import('./features/projects/components/task-page').then((m) => ({ default: m.TaskPage })),
);
const ControlPage = deferred(() =>
  import('./features/projects/components/control-page').then((m) => ({ default: m.ControlPage })),
);
const DocumentsPage = deferred(() =>
  import('./features/documents/components/documents-page').then((m) => ({ default: m.DocumentsPage })),
);
const SafeTransferPage = deferred(() =>
  import('./features/safe-transfer/components/safe-transfer-page').then((m) => ({ default: m.SafeTransferPage })),
);
const TeamRosterPage = deferred(() =>
  import('./features/projects/components/team-roster-page').then((m) => ({ default: m.TeamRosterPage })),
);

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
        <Route path="documents" element={<DocumentsPage fallback={<PageLoading />} />} />
        <Route path=":projectId" element={<ProjectDetailPage fallback={<PageLoading />} />} />
        <Route path=":projectId/tasks/:taskId" element={<TaskPage fallback={<PageLoading />} />} />
        <Route path=":projectId/controls/:controlId" element={<ControlPage fallback={<PageLoading />} />} />
        <Route path=":projectId/team-roster" element={<TeamRosterPage fallback={<PageLoading />} />} />
      </Route>
      <Route path="safe-transfer" element={<SafeTransferPage fallback={<PageLoading />} />} />
      <Route path="*" element={<NotFoundResult />} />
    </Routes>
  );
}
