import type { EffectiveModuleAccess } from '@portal/shared/core/modules';
import type { PortalRemote, RemoteNavEntry } from '@portal/shared/core/schemas';

/**
 * The portal's menu and routes come from the remotes themselves: each declares its module gate,
 * where it is mounted and its menu entries (its portal-module.json), and the portal config lists the
 * remotes of the manifest in force with their declarations (docs/federation.md). No remote is named
 * here: a new one is a manifest entry.
 */
export interface NavItem extends RemoteNavEntry {
  remote: string;
}

/** The menu entry a path belongs to: Home for the dashboard, else the entry (not Home) whose path it is or is under. */
export const activeKeyOf = (items: readonly { key: string; path: string }[], pathname: string) =>
  pathname === '/' || pathname === '/dashboard'
    ? 'home'
    : (items.find((i) => i.path !== '/' && (pathname === i.path || pathname.startsWith(`${i.path}/`)))?.key ?? '');

/** The menu entries of the remotes the user may use in the selected company, by their declared order. */
export function navigationFor(remotes: readonly PortalRemote[], access: EffectiveModuleAccess | null): NavItem[] {
  return remotes
    .filter((r) => r.module === null || access?.[r.module] === true)
    .flatMap((r) => r.nav.map((n) => ({ ...n, remote: r.name })))
    .sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));
}
