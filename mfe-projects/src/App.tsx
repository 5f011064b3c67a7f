import { Route, Routes } from '@portal/shared/web/router';
import { NotFoundResult } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';
import { DashboardPage } from './features/dashboard/components/dashboard-page';
import {
  ControlDetailPage,
  ProjectDetailPage,
  ProjectsDashboardPage,
  TaskDetailPage,
  TeamRosterPage,
} from './features/projects/components/project-pages';
import { SafeTransferPage } from './features/safe-transfer/components/safe-transfer-page';

/** mfe-projects owns "/", "/dashboard", "/v2/projects/**" and "/safe-transfer"; the shell mounts it at "/". */
export default function ProjectsApp(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route index element={<DashboardPage />} />
      <Route path="dashboard" element={<DashboardPage />} />
      <Route path="v2/projects">
        <Route index element={<ProjectsDashboardPage />} />
        <Route path=":projectId" element={<ProjectDetailPage />} />
        <Route path=":projectId/tasks/:taskId" element={<TaskDetailPage />} />
        <Route path=":projectId/controls/:controlId" element={<ControlDetailPage />} />
        <Route path=":projectId/team-roster" element={<TeamRosterPage />} />
      </Route>
      <Route path="safe-transfer" element={<SafeTransferPage />} />
      <Route path="*" element={<NotFoundResult />} />
    </Routes>
  );
}
