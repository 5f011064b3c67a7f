/** Loading, not-found and failure states of the project screens, and the project every screen hangs on. */
import type { ReactNode } from 'react';
import { ReloadOutlined, Spin } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { StatusPanel } from '@portal/shared/ui/components';
import { Empty } from '@portal/shared/ui/extra';
import { Link } from '@portal/shared/web/router';
import type { Project } from '@portal/shared/core/projects';
import { projectsApi } from '../../../app/projects-api';
import { isNotFound } from '../model/forms';

function PageLoading({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} style={{ padding: 48, textAlign: 'center' }}>
      <Spin size="large" />
    </div>
  );
}

function NotFoundPanel({
  title,
  subTitle,
  to,
  linkText,
}: {
  title: string;
  subTitle: string;
  to: string;
  linkText: string;
}) {
  return <StatusPanel kind="notFound" title={title} subTitle={subTitle} extra={<Link to={to}>{linkText}</Link>} />;
}

function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <StatusPanel
      kind="warning"
      title={`The ${what} could not be loaded`}
      subTitle="Check your connection and try again."
      extra={
        <Button icon={<ReloadOutlined />} onClick={onRetry}>
          Try again
        </Button>
      }
    />
  );
}

/** What QueryFallback reads of an RTK query. */
interface QueryState {
  isFetching: boolean;
  isUninitialized: boolean;
  error?: unknown;
  refetch: () => unknown;
}

/**
 * A detail page's state while its thing is not shown: loading, not found (404: missing or not visible
 * to the caller; `notFound` says so and links back) or failed with a retry.
 */
export function QueryFallback({
  query,
  what,
  notFound,
}: {
  query: QueryState;
  what: string;
  notFound: Parameters<typeof NotFoundPanel>[0];
}) {
  if (query.isFetching || query.isUninitialized) return <PageLoading label={`Loading the ${what}`} />;
  if (isNotFound(query.error)) return <NotFoundPanel {...notFound} />;
  return <LoadFailed what={what} onRetry={() => void query.refetch()} />;
}

/**
 * Loads the project of the address and renders `children` with it, or the page's loading, "Project
 * not found" or failure state.
 */
export function ProjectGate({ projectId, children }: { projectId: string; children: (project: Project) => ReactNode }) {
  const query = projectsApi.useProjectsGetQuery(projectId);
  const project = query.currentData;
  if (project) return <>{children(project)}</>;
  return (
    <QueryFallback
      query={query}
      what="project"
      notFound={{
        title: 'Project not found',
        subTitle: 'The project does not exist or you do not have access to it.',
        to: '/',
        linkText: 'Back to Home',
      }}
    />
  );
}

/** A list that could not be loaded, in the place of its rows. */
export function LoadFailedEmpty({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Empty description={`The ${what} could not be loaded.`}>
      <Button icon={<ReloadOutlined />} onClick={onRetry}>
        Try again
      </Button>
    </Empty>
  );
}
