import { useParams, useSearchParams } from '@portal/shared/web/router';
import { ComingSoon, PageHeader } from '@portal/shared/ui/components';

/** Page-number query parameters default to 1 (SPEC.md section 9). */
export function pageParam(params: URLSearchParams, name: string): number {
  const n = Number(params.get(name));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export function ProjectsDashboardPage() {
  return (
    <div data-testid="projects-dashboard">
      <PageHeader title="Projects" crumbs={[{ title: 'Projects' }]} />
      <ComingSoon what="The projects dashboard" />
    </div>
  );
}

export function ProjectDetailPage() {
  const { projectId } = useParams();
  const [search] = useSearchParams();
  const pages = ['tasksPage', 'filesPage', 'controlsPage', 'pointsOfFocusPage'].map((p) => `${p} ${pageParam(search, p)}`);
  return (
    <div data-testid="project-detail">
      <PageHeader title={`Project ${projectId}`} crumbs={[{ title: 'Projects', to: '/v2/projects' }, { title: String(projectId) }]} />
      <p style={{ color: '#888' }}>{pages.join(' · ')}</p>
      <ComingSoon what="Project detail" />
    </div>
  );
}

export function TaskDetailPage() {
  const { projectId, taskId } = useParams();
  return (
    <div>
      <PageHeader
        title={`Task ${taskId}`}
        crumbs={[{ title: 'Projects', to: '/v2/projects' }, { title: String(projectId), to: `/v2/projects/${projectId}` }, { title: 'Task' }]}
      />
      <ComingSoon what="Task detail" />
    </div>
  );
}

export function ControlDetailPage() {
  const { projectId, controlId } = useParams();
  return (
    <div>
      <PageHeader
        title={`Control ${controlId}`}
        crumbs={[{ title: 'Projects', to: '/v2/projects' }, { title: String(projectId), to: `/v2/projects/${projectId}` }, { title: 'Control' }]}
      />
      <ComingSoon what="Control detail" />
    </div>
  );
}

export function TeamRosterPage() {
  const { projectId } = useParams();
  return (
    <div>
      <PageHeader
        title="Team roster"
        crumbs={[{ title: 'Projects', to: '/v2/projects' }, { title: String(projectId), to: `/v2/projects/${projectId}` }, { title: 'Team roster' }]}
      />
      <ComingSoon what="The team roster" />
    </div>
  );
}
