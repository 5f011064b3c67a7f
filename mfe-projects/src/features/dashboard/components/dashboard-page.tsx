/**
 * Home (`/`, `/dashboard`) and the projects list (`/v2/projects`). Home is the first page after sign-in,
 * so this module uses only the first-page kit: the list (antd Table, forms) and the charts (chart.js)
 * arrive in their own chunks once a company is known.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { useSelector } from '@portal/shared/web/store';
import { Spin } from '@portal/shared/ui';
import { PageHeader, StatusPanel } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { useAfterFirstPaint } from '../../../app/use-after-first-paint';

type Root = { session: SessionState };

const ProjectsList = lazy(() => import('./projects-list').then((m) => ({ default: m.ProjectsList })));
const DashboardCharts = lazy(() => import('./dashboard-charts').then((m) => ({ default: m.DashboardCharts })));

function Loading({ label }: { label: string }) {
  return (
    <div style={{ padding: 32, textAlign: 'center' }}>
      <Spin aria-label={label} />
    </div>
  );
}

/** The selected company when its projects are open to the user, else the panel that says why not. */
function useProjectsCompany(): { companyId: string; companyName: string } | { blocked: ReactNode } {
  const company = useSelector((s: Root) => sessionSelectors.selectSelectedCompany(s));
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  if (!company) {
    return {
      blocked: <StatusPanel kind="notFound" title="No company selected" subTitle="Choose a company in the header to see its projects." />,
    };
  }
  // Without the module the api answers 403 to every call: say it once here instead of failing each one.
  if (!company.modulesAccess.projects || access?.modulesAccess.projects === false) {
    return {
      blocked: <StatusPanel kind="forbidden" title="Projects are not available" subTitle={`Your access to ${company.name} does not include the projects module.`} />,
    };
  }
  return { companyId: company.id, companyName: company.name };
}

export function DashboardPage() {
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const target = useProjectsCompany();
  const painted = useAfterFirstPaint();
  return (
    <div data-testid="dashboard">
      <PageHeader title="Home" />
      {'blocked' in target ? (
        target.blocked
      ) : (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 24 }}>
          <p style={{ margin: 0 }}>
            Welcome{user ? `, ${user.firstName}` : ''}. You are working in {target.companyName}.
          </p>
          {painted ? (
            <Suspense fallback={<Loading label="Loading charts" />}>
              <DashboardCharts companyId={target.companyId} />
            </Suspense>
          ) : (
            <Loading label="Loading charts" />
          )}
          <section aria-label="Projects">
            <h3 style={{ marginTop: 0 }}>Projects</h3>
            {painted ? (
              <Suspense fallback={<Loading label="Loading projects" />}>
                <ProjectsList companyId={target.companyId} />
              </Suspense>
            ) : (
              <Loading label="Loading projects" />
            )}
          </section>
        </div>
      )}
    </div>
  );
}

/** The project area's dashboard: the same list as Home, without the charts. */
export function ProjectsListPage() {
  const target = useProjectsCompany();
  return (
    <div data-testid="projects-dashboard">
      <PageHeader title="Projects" crumbs={[{ title: 'Projects' }]} />
      {'blocked' in target ? (
        target.blocked
      ) : (
        <Suspense fallback={<Loading label="Loading projects" />}>
          <ProjectsList companyId={target.companyId} />
        </Suspense>
      )}
    </div>
  );
}
