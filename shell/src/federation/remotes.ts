/**
 * Remotes are registered at run time from /remotes.json (name -> mf-manifest.json URL) and only when
 * first mounted: a remote the user may not use is never fetched, not even its manifest. The api lists
 * only the remotes this user may mount, so the list is read again when a remote is missing from it
 * (its module may have been turned on since) and on Retry (its release may have moved).
 */
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { RetryPlugin } from '@module-federation/retry-plugin';
import { federationName, type RemoteAppModule } from '@portal/shared/web/remote';
import { remoteFallbackPlugin } from './error-plugin';

let manifest: Promise<Record<string, string>> | null = null;
const registered = new Set<string>();

export function initFederation(): void {
  registerPlugins([
    RetryPlugin({ fetch: { retryTimes: 2, retryDelay: 500 }, script: { retryTimes: 2, retryDelay: 500 } }),
    remoteFallbackPlugin(),
  ]);
}

export function loadRemotesManifest(): Promise<Record<string, string>> {
  manifest ??= fetch('/remotes.json', { credentials: 'same-origin', cache: 'no-cache' }).then(async (res) => {
    if (!res.ok) throw new Error(`The remotes manifest could not be loaded (HTTP ${res.status})`);
    return (await res.json()) as Record<string, string>;
  });
  manifest.catch(() => {
    manifest = null; // a failed manifest read is tried again next time
  });
  return manifest;
}

const loading = new Map<string, Promise<RemoteAppModule>>();

/**
 * Loads a remote's ./App; callers share a load under way or done (a failed one is forgotten). With
 * `fresh`, the remote is registered again with `force`, which drops the federation runtime's cached
 * (failed) entry, so Retry really fetches again.
 */
export function loadRemoteApp(remote: string, fresh = false): Promise<RemoteAppModule> {
  const shared = fresh ? undefined : loading.get(remote);
  if (shared) return shared;
  const load = loadRemoteAppNow(remote, fresh);
  loading.set(remote, load);
  load.catch(() => {
    if (loading.get(remote) === load) loading.delete(remote);
  });
  return load;
}

async function loadRemoteAppNow(remote: string, fresh: boolean): Promise<RemoteAppModule> {
  if (fresh) manifest = null;
  let entries = await loadRemotesManifest();
  if (!entries[remote] && !fresh) {
    manifest = null;
    entries = await loadRemotesManifest();
  }
  const entry = entries[remote];
  if (!entry) throw new Error(`The remote "${remote}" is not listed in /remotes.json`);
  const name = federationName(remote);
  if (!registered.has(remote) || fresh) {
    registerRemotes([{ name, entry: new URL(entry, window.location.href).toString() }], {
      force: registered.has(remote),
    });
    registered.add(remote);
  }
  const mod = await loadRemote<RemoteAppModule>(`${name}/App`);
  if (!mod || typeof mod.default !== 'function') throw new Error(`The remote "${remote}" did not provide an App`);
  return mod;
}
