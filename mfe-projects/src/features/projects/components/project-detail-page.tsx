import type { ReactNode } from 'react';
import { Spin } from '@portal/shared/ui';
import { Tabs } from '@portal/shared/ui/extra';
import { useParams } from '@portal/shared/web/router';
import { projectView, type Project, type ProjectView } from '@portal/shared/core/projects';
import { LazyPart } from '../../../app/lazy-retry';
import { useAddress } from '../hooks/use-address';
import { ControlsTab } from './controls-tab';
import { FilesTab } from './files-tab';
import { ProjectGate } from './page-states';
import { PointsOfFocusTab } from './points-of-focus-tab';
import { ProjectHeader } from './project-header';
import { TasksTab } from './tasks-tab';

// The Interviews tab (its pickers and forms) loads on first use, so it adds nothing to the other tabs;
// a chunk that cannot be loaded (after a deploy) shows a Retry in the tab, not a blank remote.
const loadInterviewsTab = () =>
  import('../../interviews/components/interviews-tab').then((m) => ({ default: m.InterviewsTab }));

const TAB_LABELS: Record<ProjectView, string> = {
  tasks: 'Tasks',
  files: 'Files',
  controls: 'Controls',
  pointsOfFocus: 'Points of focus',
  interviews: 'Interviews',
};

/**
 * The tabs of a project. The address is the state: `view` names the tab (tasks by
 * default) and each tab its page; choosing a tab pushes a history entry and keeps every other parameter,
 * so reload, back and forward come back to the same tab and page. Only the open tab loads its list.
 */
function ProjectTabs({ project }: { project: Project }) {
  const [params, change] = useAddress();
  const view = projectView(params);
  const content: Record<ProjectView, () => ReactNode> = {
    tasks: () => <TasksTab project={project} />,
    files: () => <FilesTab project={project} />,
    controls: () => <ControlsTab project={project} />,
    pointsOfFocus: () => <PointsOfFocusTab project={project} />,
    interviews: () => (
      <LazyPart
        load={loadInterviewsTab}
        what="The Interviews tab"
        fallback={
          <div role="status" aria-label="Loading the interviews" style={{ padding: 48, textAlign: 'center' }}>
            <Spin />
          </div>
        }
      >
        {(InterviewsTab) => <InterviewsTab project={project} />}
      </LazyPart>
    ),
  };
  return (
    <Tabs
      activeKey={view}
      onChange={(key) => change({ view: key === 'tasks' ? null : key })}
      items={(Object.keys(TAB_LABELS) as ProjectView[]).map((key) => ({
        key,
        label: TAB_LABELS[key],
        children: key === view ? content[key]() : null,
      }))}
    />
  );
}

/** /v2/projects/:projectId */
export function ProjectDetailPage() {
  const { projectId = '' } = useParams();
  return (
    <div data-testid="project-detail">
      <ProjectGate projectId={projectId}>
        {(project) => (
          <>
            <ProjectHeader project={project} />
            <ProjectTabs project={project} />
          </>
        )}
      </ProjectGate>
    </div>
  );
}
