import type { EffectiveModuleAccess, ModuleName } from '@portal/shared/core/modules';

export interface NavItem {
  key: string;
  label: string;
  path: string;
  remote: string;
}

/** The portal's modules: where each lives, which remote carries it and which module access gates it (REMOTE_MODULES' gate: navigation.test.ts). */
export const NAV_ITEMS: (NavItem & { module: ModuleName | null })[] = [
  { key: 'projects', label: 'Projects', path: '/v2/projects', remote: 'mfe-projects', module: 'projects' },
  // files sent to the company's users through expiring links: part of the projects area (mfe-projects)
  { key: 'safe-transfer', label: 'Safe Transfer', path: '/safe-transfer', remote: 'mfe-projects', module: 'projects' },
  { key: 'requests', label: 'Requests', path: '/requests', remote: 'mfe-requests', module: 'requests' },
  { key: 'reports', label: 'Reports', path: '/reports', remote: 'mfe-reports', module: 'reports' },
  { key: 'settings', label: 'Settings', path: '/settings', remote: 'mfe-settings', module: null },
];

/** The modules the signed-in user may use in the selected company; settings has no module gate. */
export function navigationFor(access: EffectiveModuleAccess | null): NavItem[] {
  return NAV_ITEMS.filter((i) => i.module === null || access?.[i.module] === true).map(
    ({ module: _m, ...item }) => item,
  );
}

/** Which menu entry a path belongs to. */
export function activeKey(pathname: string): string {
  if (pathname === '/' || pathname === '/dashboard') return 'home';
  const hit = NAV_ITEMS.find((i) => pathname === i.path || pathname.startsWith(`${i.path}/`));
  return hit?.key ?? '';
}

/** The remote that shows `pathname` when no module access gates it (mfe-settings), else null. */
export function ungatedRemoteFor(pathname: string): string | null {
  const hit = NAV_ITEMS.find((i) => i.module === null && (pathname === i.path || pathname.startsWith(`${i.path}/`)));
  return hit?.remote ?? null;
}
