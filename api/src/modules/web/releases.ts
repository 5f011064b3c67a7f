/**
 * Immutable releases of a remote. A release is one build's `dist/`, published under
 * `<WEB_ROOT>/releases/<remote>/<release>/` and never changed or deleted by a later one: a tab opened
 * on it keeps finding its chunks after the manifest has moved on. The release's name is the remote's
 * version and a hash of its files (`0.1.0-3f2a9c1d7b`): the same build published twice is one release.
 * The remotes manifest (REMOTES_MANIFEST_FILE) points each remote at one release, written whole to a
 * temporary file and renamed over the old one, so the api never reads half of it; rolling back is
 * pointing it at an earlier release. The api serves `/releases/...` (plugins/app/static-web.ts).
 * `npm run deploy -w <remote>` runs this (deploy-remote.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RemotesManifest } from '@portal/shared/core/schemas';
import { DECLARATION_FILE, readDeclarationFile } from './remote-declarations';
import { defaultRemotesManifest, ManifestFileError, readManifestFile } from './remotes-manifest';

const REMOTE_NAME = /^[a-z][a-z0-9-]*$/;
const RELEASE_NAME = /^[0-9A-Za-z][0-9A-Za-z.+-]*$/;

export interface ReleaseTarget {
  /** The web root the api serves (WEB_ROOT): releases go under its `releases/`. */
  webRoot: string;
  /** The remotes manifest the api reads (REMOTES_MANIFEST_FILE). */
  manifestFile: string;
}

export class ReleaseError extends Error {}

/** The URL a manifest gives for a release of a remote. */
export const releaseEntry = (remote: string, release: string) => `/releases/${remote}/${release}/mf-manifest.json`;

const releasesOf = (target: ReleaseTarget, remote: string) => path.join(target.webRoot, 'releases', remote);

function checkRemote(remote: string): void {
  if (!REMOTE_NAME.test(remote))
    throw new ReleaseError(`"${remote}" is not a remote's name (lower case, digits and -)`);
}

/** Every file under `dir`, as paths relative to it with / between folders, sorted. */
function filesUnder(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...filesUnder(dir, relative));
    else if (entry.isFile()) out.push(relative);
  }
  return out.sort();
}

/** The release name of a build: its version and the first ten hex digits of a hash of its files. */
export function releaseName(version: string, distDir: string): string {
  const hash = createHash('sha256');
  for (const file of filesUnder(distDir)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(distDir, file)));
    hash.update('\0');
  }
  const name = `${version}-${hash.digest('hex').slice(0, 10)}`;
  if (!RELEASE_NAME.test(name)) throw new ReleaseError(`"${version}" cannot name a release`);
  return name;
}

/** The manifest in the file, or the default one when there is no file yet; a broken file is refused, not replaced. */
export async function readManifest(target: ReleaseTarget): Promise<RemotesManifest> {
  try {
    return await readManifestFile(target.manifestFile);
  } catch (error) {
    if (!(error instanceof ManifestFileError)) throw error;
    if (error.missing) return defaultRemotesManifest();
    throw new ReleaseError(`${target.manifestFile} ${error.message}: fix it (or remove it) first`);
  }
}

/** Writes the manifest whole, then renames it over the old one (a reader sees the old or the new, never half). */
function writeManifest(target: ReleaseTarget, manifest: RemotesManifest): void {
  fs.mkdirSync(path.dirname(target.manifestFile), { recursive: true });
  const temporary = `${target.manifestFile}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  fs.renameSync(temporary, target.manifestFile);
}

/**
 * Publishes `distDir` as a release of `remote` (unless the same build is there already) and points the
 * manifest at it. Returns the release's name and whether it was new.
 */
export async function publishRelease(
  target: ReleaseTarget,
  remote: string,
  version: string,
  distDir: string,
): Promise<{ release: string; created: boolean }> {
  checkRemote(remote);
  if (!fs.existsSync(path.join(distDir, 'mf-manifest.json'))) {
    throw new ReleaseError(`${distDir} holds no mf-manifest.json: build the remote first (npm run build -w ${remote})`);
  }
  // the shell shows a remote only through its declaration (routes, navigation, module gate)
  const declaration = path.join(distDir, DECLARATION_FILE);
  try {
    await readDeclarationFile(declaration);
  } catch (error) {
    throw new ReleaseError(
      `${declaration} ${(error as Error).message}: the portal could not show ${remote} (its src/portal-module.json)`,
    );
  }
  const manifest = await readManifest(target);
  const release = releaseName(version, distDir);
  const folder = path.join(releasesOf(target, remote), release);
  let created = false;
  if (!fs.existsSync(folder)) {
    // copied beside it, then renamed into place: the release appears whole or not at all
    const temporary = path.join(releasesOf(target, remote), `.${release}.${randomBytes(4).toString('hex')}.tmp`);
    fs.mkdirSync(path.dirname(temporary), { recursive: true });
    fs.cpSync(distDir, temporary, { recursive: true });
    fs.renameSync(temporary, folder);
    created = true;
  }
  writeManifest(target, { ...manifest, [remote]: releaseEntry(remote, release) });
  return { release, created };
}

/** The releases of a remote, oldest first, with the one the manifest points at marked. */
export async function listReleases(
  target: ReleaseTarget,
  remote: string,
): Promise<{ release: string; inForce: boolean }[]> {
  checkRemote(remote);
  const dir = releasesOf(target, remote);
  if (!fs.existsSync(dir)) return [];
  const entry = (await readManifest(target))[remote];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && RELEASE_NAME.test(d.name))
    .map((d) => ({ name: d.name, at: fs.statSync(path.join(dir, d.name)).mtimeMs }))
    .sort((a, b) => a.at - b.at || a.name.localeCompare(b.name))
    .map(({ name }) => ({ release: name, inForce: entry === releaseEntry(remote, name) }));
}

/** Points the manifest at an earlier (or any published) release of `remote`: a rollback. */
export async function pointAt(target: ReleaseTarget, remote: string, release: string): Promise<void> {
  checkRemote(remote);
  const known = (await listReleases(target, remote)).map((r) => r.release);
  if (!known.includes(release)) {
    throw new ReleaseError(
      `${remote} has no release "${release}"${known.length ? `: it has ${known.join(', ')}` : ': none is published'}`,
    );
  }
  writeManifest(target, { ...(await readManifest(target)), [remote]: releaseEntry(remote, release) });
}
