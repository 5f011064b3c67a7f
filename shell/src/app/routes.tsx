import type { ReactNode } from 'react';
import { useSelector } from '@portal/shared/web/store';
import { matchPath, Navigate, Route, Routes, useLocation, useParams } from '@portal/shared/web/router';
import { Spin } from '@portal/shared/ui';
import type { ModuleName } from '@portal/shared/core/modules';
import type { PortalRemote } from '@portal/shared/core/schemas';
import { usePortalConfigGetQuery } from '@portal/shared/web/api';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { RemoteMount } from '../federation/remote-mount';
import { deferred } from '@portal/shared/web/deferred';
import { ModulesHome, NoModuleAccess, NotFoundPage } from '../pages/pages';

type Root = { session: SessionState };

const HOME_PATHS = ['/', '/dashboard'];
/**
 * The remotes of the portal with what each declares (the portal config, read at start), or undefined
 * until it has come. The routes and the menu are built from them (navigation.ts).
 */
export function usePortalRemotes(): PortalRemote[] | undefined {
  return usePortalConfigGetQuery().data?.remotes;
}

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

/** A remote where it is mounted, behind its module's access when it declares one. */
function Mounted({ remote, basePath }: { remote: PortalRemote; basePath: string }) {
  const title = remote.nav[0]?.label ?? remote.name;
  const mount = <RemoteMount key={remote.name} remote={remote.name} title={title} basePath={basePath} />;
  if (!remote.module) return mount;
  return (
    <Gate module={remote.module} label={title}>
      {mount}
    </Gate>
  );
}

/**
 * A path no remote mounted at a path of its own shows: the remote mounted at `/` when it declares the
 * path (the dashboard and the projects pages), else "Page not found". Home without that remote, or
 * with its module off, shows the modules the user has.
 */
function RootRemoteOrNotFound({ remote }: { remote: PortalRemote | undefined }) {
  const { pathname } = useLocation();
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  const isHome = HOME_PATHS.some((p) => matchPath(p, pathname));
  const shows = !!remote && (remote.paths ?? ['/']).some((p) => matchPath(p, pathname));
  if (isHome && (!shows || (remote?.module && access && !access.modulesAccess[remote.module]))) {
    return <ModulesHome fallback={<Pending />} />;
  }
  if (!shows || !remote) return <NotFoundPage />;
  return <Mounted remote={remote} basePath="/" />;
}

/** /projects/** is the legacy entry: the same sub-path under /v2/projects. */
function LegacyProjectsRedirect() {
  const params = useParams();
  const { search, hash } = useLocation();
  const rest = params['*'] ? `/${params['*']}` : '';
  return <Navigate to={`/v2/projects${rest}${search}${hash}`} replace />;
}

/** The route table (signed-in part; /account-removed is public, outside the frame), from the remotes' declarations. */
export function PortalRoutes() {
  const remotes = usePortalRemotes();
  if (!remotes) return <Pending />;
  return (
    <Routes>
      <Route path="/documents" element={<Navigate to="/projects/documents" replace />} />
      <Route path="/projects/*" element={<LegacyProjectsRedirect />} />
      {remotes.map((r) =>
        r.basePath === '/' ? null : (
          <Route key={r.name} path={`${r.basePath}/*`} element={<Mounted remote={r} basePath={r.basePath} />} />
        ),
      )}
      <Route path="*" element={<RootRemoteOrNotFound remote={remotes.find((r) => r.basePath === '/')} />} />
    </Routes>
  );
}
