/**
 * Home (`/`, `/dashboard`) and the projects list (`/v2/projects`). Home is the first page after sign-in,
 * so this module uses only the first-page kit: the list (antd Table, forms), the charts (chart.js) and
 * "My requests" arrive in their own chunks once a company is known ("My requests" with a Retry of its
 * own when its chunk fails, so the rest of Home stays).
 */
import { deferred } from '@portal/shared/web/deferred';
import { useSelector } from '@portal/shared/web/store';
import { Spin } from '@portal/shared/ui';
import { PageHeader } from '@portal/shared/ui/components';
import { useModuleCompany } from '@portal/shared/web/module-company';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { LazyPart } from '../../../app/lazy-retry';
import { useAfterFirstPaint } from '../../../app/use-after-first-paint';

type Root = { session: SessionState };

const ProjectsList = deferred(() => import('./projects-list').then((m) => ({ default: m.ProjectsList })));
const DashboardCharts = deferred(() => import('./dashboard-charts').then((m) => ({ default: m.DashboardCharts })));
const loadMyRequests = () => import('./my-requests').then((m) => ({ default: m.MyRequests }));

function Loading({ label }: { label: string }) {
  return (
    <div style={{ padding: 32, textAlign: 'center' }}>
      <Spin aria-label={label} />
    </div>
  );
}

/**
 * The selected company when the requests module is on for the user there (Home's "My requests"),
 * whatever the projects module: the requests section does not depend on it. Never for auditors: they
 * neither ask for evidence nor are asked for it.
 */
function useRequestsCompanyId(): string | null {
  const company = useSelector((s: Root) => sessionSelectors.selectSelectedCompany(s));
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  if (user?.isTevora && user.isAuditor) return null;
  return company?.modulesAccess.requests && access?.modulesAccess.requests !== false ? company.id : null;
}

export function DashboardPage() {
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const target = useModuleCompany('projects');
  const requestsCompanyId = useRequestsCompanyId();
  const painted = useAfterFirstPaint();
  const myRequests = requestsCompanyId ? (
    <section aria-label="My requests">
      <h3 style={{ marginTop: 0 }}>My requests</h3>
      {painted ? (
        <LazyPart load={loadMyRequests} what="My requests" fallback={<Loading label="Loading requests" />}>
          {(MyRequests) => <MyRequests companyId={requestsCompanyId} staff={user?.isTevora ?? false} />}
        </LazyPart>
      ) : (
        <Loading label="Loading requests" />
      )}
    </section>
  ) : null;
  return (
    <div data-testid="dashboard">
      <PageHeader title="Home" />
      {'blocked' in target ? (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 24 }}>
          {target.blocked}
          {myRequests}
        </div>
      ) : (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 24 }}>
          <p style={{ margin: 0 }}>
            Welcome{user ? `, ${user.firstName}` : ''}. You are working in {target.companyName}.
          </p>
          {myRequests}
          {painted ? (
            <DashboardCharts companyId={target.companyId} fallback={<Loading label="Loading charts" />} />
          ) : (
            <Loading label="Loading charts" />
          )}
          <section aria-label="Projects">
            <h3 style={{ marginTop: 0 }}>Projects</h3>
            {painted ? (
              <ProjectsList companyId={target.companyId} fallback={<Loading label="Loading projects" />} />
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
  const target = useModuleCompany('projects');
  return (
    <div data-testid="projects-dashboard">
      <PageHeader title="Projects" crumbs={[{ title: 'Projects' }]} />
      {'blocked' in target ? (
        target.blocked
      ) : (
        <ProjectsList companyId={target.companyId} fallback={<Loading label="Loading projects" />} />
      )}
    </div>
  );
}
