import type { ReactNode } from 'react';
import { useSelector } from '@portal/shared/web/store';
import { matchPath, Navigate, Route, Routes, useLocation, useParams } from '@portal/shared/web/router';
import { Spin } from '@portal/shared/ui';
import type { ModuleName } from '@portal/shared/core/modules';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { RemoteMount } from '../federation/remote-mount';
import { deferred } from '@portal/shared/web/deferred';
import { ModulesHome, NoModuleAccess, NotFoundPage } from '../pages/pages';
import { NAV_ITEMS } from './navigation';

type Root = { session: SessionState };

/** Paths mfe-projects owns (docs/federation.md); it is mounted at "/" and routes them itself. */
const PROJECTS_PATHS = ['/', '/dashboard', '/v2/projects/*', '/safe-transfer'];
const HOME_PATHS = ['/', '/dashboard'];

/**
 * Remotes mounted at their own path, each behind its module's access. mfe-projects is mounted at "/"
 * (it also owns the dashboard) and mfe-settings has no module gate: both are routed below.
 */
const GATED_REMOTES = NAV_ITEMS.flatMap(({ remote, path, module, label }) =>
  module && remote !== 'mfe-projects' ? [{ remote, basePath: path, module, label }] : [],
);

/** Only for users without a company (the banner layout.tsx shows, and their page here): not first-page code. */
export const NoDataAccess = deferred(() => import('./no-data-access-banner'));

/** A large spinner named by what it waits for, in a page's place or (`full`) over the whole screen. */
export function Pending({ label = 'Loading', full }: { label?: string; full?: boolean }) {
  return (
    <div
      style={
        full
          ? { display: 'flex', height: '100vh', alignItems: 'center', justifyContent: 'center' }
          : { padding: 48, textAlign: 'center' }
      }
      role="status"
      aria-label={label}
    >
      <Spin size="large" />
    </div>
  );
}

/**
 * Mounts a remote only when the selected company's module access allows it: a remote that is off
 * is never fetched (not its manifest, not a chunk).
 */
function Gate({ module, label, children }: { module: ModuleName; label: string; children: ReactNode }) {
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  const noCompany = useSelector(
    (s: Root) => sessionSelectors.selectCompaniesLoaded(s) && !sessionSelectors.selectCompanies(s).length,
  );
  // without a company no module access ever loads: say so instead of waiting on it (the chunk of
  // the banner above, which loads at the same moment)
  if (noCompany) return <NoDataAccess page />;
  if (!access) return <Pending />;
  if (!access.modulesAccess[module]) return <NoModuleAccess module={label} />;
  return <>{children}</>;
}

function ProjectsOrNotFound() {
  const { pathname } = useLocation();
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  if (!PROJECTS_PATHS.some((p) => matchPath(p, pathname))) return <NotFoundPage />;
  const isHome = HOME_PATHS.some((p) => matchPath(p, pathname));
  if (isHome && access && !access.modulesAccess.projects) {
    return <ModulesHome fallback={<Pending />} />;
  }
  return (
    <Gate module="projects" label="Projects">
      <RemoteMount key="mfe-projects" remote="mfe-projects" basePath="/" />
    </Gate>
  );
}

/** /projects/** is the legacy entry: the same sub-path under /v2/projects. */
function LegacyProjectsRedirect() {
  const params = useParams();
  const { search, hash } = useLocation();
  const rest = params['*'] ? `/${params['*']}` : '';
  return <Navigate to={`/v2/projects${rest}${search}${hash}`} replace />;
}

/** The route table (signed-in part; /account-removed is public, outside the frame). */
export function PortalRoutes() {
  return (
    <Routes>
      <Route path="/documents" element={<Navigate to="/projects/documents" replace />} />
      <Route path="/projects/*" element={<LegacyProjectsRedirect />} />
      {GATED_REMOTES.map((g) => (
        <Route
          key={g.remote}
          path={`${g.basePath}/*`}
          element={
            <Gate module={g.module} label={g.label}>
              <RemoteMount key={g.remote} remote={g.remote} basePath={g.basePath} />
            </Gate>
          }
        />
      ))}
      <Route
        path="/settings/*"
        element={<RemoteMount key="mfe-settings" remote="mfe-settings" basePath="/settings" />}
      />
      <Route path="*" element={<ProjectsOrNotFound />} />
    </Routes>
  );
}
