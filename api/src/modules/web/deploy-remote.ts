/**
 * `npm run deploy -w <remote>`: publishes the remote's `dist/` as an immutable release and points the
 * remotes manifest at it (releases.ts). Run from the remote's folder (npm does); the remote's name and
 * version come from its package.json.
 *
 *   npm run deploy -w mfe-reports                        publish dist/, point the manifest at it
 *   npm run deploy -w mfe-reports -- --list              the releases, the one in force marked
 *   npm run deploy -w mfe-reports -- --rollback <name>   point the manifest at an earlier release
 *
 * Options: --web-root DIR (WEB_ROOT, else the repository), --manifest FILE (REMOTES_MANIFEST_FILE, else
 * <web root>/remotes.json). The api serves the release once it reads that manifest
 * (REMOTES_MANIFEST_FILE): at the next page load, with no restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../config';
import { listReleases, pointAt, publishRelease, ReleaseError, type ReleaseTarget } from './releases';

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i === -1) return undefined;
  const value = args[i + 1];
  if (!value || value.startsWith('--')) throw new ReleaseError(`--${name} needs a value`);
  return value;
}

export async function main(args: string[], cwd = process.cwd(), env = process.env): Promise<number> {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    const remote = (pkg.name ?? '').replace(/^@portal\//, '');
    const webRoot = path.resolve(cwd, option(args, 'web-root') ?? env.WEB_ROOT ?? REPO_ROOT);
    const target: ReleaseTarget = {
      webRoot,
      manifestFile: path.resolve(
        cwd,
        option(args, 'manifest') ?? env.REMOTES_MANIFEST_FILE ?? path.join(webRoot, 'remotes.json'),
      ),
    };
    if (args.includes('--list')) {
      const releases = await listReleases(target, remote);
      if (!releases.length) console.log(`${remote}: no release published under ${webRoot}/releases`);
      for (const r of releases) console.log(`${r.inForce ? '*' : ' '} ${r.release}`);
      return 0;
    }
    const rollback = option(args, 'rollback');
    if (rollback) {
      await pointAt(target, remote, rollback);
      console.log(`${remote}: ${target.manifestFile} now points at release ${rollback}`);
      return 0;
    }
    const { release, created } = await publishRelease(target, remote, pkg.version ?? '0.0.0', path.join(cwd, 'dist'));
    console.log(
      `${remote}: release ${release} ${created ? 'published' : 'was already published'} under ${webRoot}/releases/${remote}; ${target.manifestFile} points at it.` +
        `\nThe api serves it at the next page load when started with REMOTES_MANIFEST_FILE=${target.manifestFile}.`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    console.error(`deploy: ${error.message}`);
    return 1;
  }
}

if (require.main === module) void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
