/**
 * Test double of ../federation/remotes for the shell's tests (`jest.mock`): each "remote" is a small
 * App that, like a real one, renders its own nested <Routes> under the path the shell mounts it at,
 * and shows the selected company and the theme it runs in.
 */
import { Route, Routes, useLocation } from '@portal/shared/web/router';
import { useSelector } from '@portal/shared/web/store';
import { theme } from '@portal/shared/ui';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import type { RemoteAppModule, RemoteAppProps } from '@portal/shared/web/remote';
import fs from 'node:fs';
import path from 'node:path';
import { REMOTES } from '@portal/shared/core/modules';
import type { PortalRemote, RemoteDeclaration } from '@portal/shared/core/schemas';

/**
 * The portal's four remotes as the portal config lists them: each one's own declaration (its
 * src/portal-module.json, read here, not copied).
 */
export const PORTAL_REMOTES: PortalRemote[] = REMOTES.map((name) => ({
  name,
  ...(JSON.parse(
    fs.readFileSync(path.resolve(__dirname, '..', '..', '..', name, 'src', 'portal-module.json'), 'utf8'),
  ) as RemoteDeclaration),
}));

export const loadedRemotes: string[] = [];

function remoteApp(remote: string) {
  function Page({ basePath }: RemoteAppProps) {
    const { pathname } = useLocation();
    const company = useSelector((s: { session: SessionState }) => sessionSelectors.selectSelectedCompany(s));
    const { token } = theme.useToken();
    return (
      <p data-testid={remote} data-bg={token.colorBgContainer}>
        {remote} at {pathname} (mounted at {basePath}) for {company?.name ?? 'no company'}
      </p>
    );
  }
  return function FakeRemoteApp(props: RemoteAppProps) {
    return (
      <Routes>
        <Route path="detail/:id" element={<p>{remote} detail page</p>} />
        <Route path="*" element={<Page {...props} />} />
      </Routes>
    );
  };
}

export function initFederation(): void {}

export async function loadRemoteApp(remote: string): Promise<RemoteAppModule> {
  loadedRemotes.push(remote);
  return { default: remoteApp(remote) };
}
