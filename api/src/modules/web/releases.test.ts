/**
 * Immutable releases of a remote (releases.ts) and the deploy command (deploy-remote.ts), on a web root
 * of a temp dir: publish, publish the same build again, publish a new one, roll back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../../test/app';
import { repoDeclarations } from '../../test/remotes';
import { main } from './deploy-remote';
import { listReleases, pointAt, publishRelease, readManifest, ReleaseError, type ReleaseTarget } from './releases';

let dir: string;
let target: ReleaseTarget;
let dist: string;

function build(files: Record<string, string>) {
  fs.rmSync(dist, { recursive: true, force: true });
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dist, name)), { recursive: true });
    fs.writeFileSync(path.join(dist, name), content);
  }
}

beforeEach(() => {
  dir = makeTempDir('portal-releases-');
  target = { webRoot: path.join(dir, 'web'), manifestFile: path.join(dir, 'web', 'remotes.json') };
  dist = path.join(dir, 'mfe-reports', 'dist');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const declaration = JSON.stringify(repoDeclarations()['mfe-reports']);
const v1 = {
  'mf-manifest.json': '{"name":"mfe_reports"}',
  'portal-module.json': declaration,
  'remoteEntry.js': 'var v = 1;',
  'static/1.aa.js': 'one',
};
const v2 = { ...v1, 'remoteEntry.js': 'var v = 2;', 'static/2.bb.js': 'two' };

describe('publishing a release', () => {
  it('copies the build under releases/<remote>/<version>-<hash>/ and points the manifest at it, the others kept', async () => {
    build(v1);
    const { release, created } = await publishRelease(target, 'mfe-reports', '1.4.0', dist);
    expect(created).toBe(true);
    expect(release).toMatch(/^1\.4\.0-[0-9a-f]{10}$/);
    const folder = path.join(target.webRoot, 'releases', 'mfe-reports', release);
    expect(fs.readFileSync(path.join(folder, 'static/1.aa.js'), 'utf8')).toBe('one');
    expect(await readManifest(target)).toEqual({
      'mfe-projects': '/remotes/mfe-projects/mf-manifest.json',
      'mfe-requests': '/remotes/mfe-requests/mf-manifest.json',
      'mfe-settings': '/remotes/mfe-settings/mf-manifest.json',
      'mfe-reports': `/releases/mfe-reports/${release}/mf-manifest.json`,
    });
    // nothing half-written is left beside them
    expect(fs.readdirSync(path.join(target.webRoot, 'releases', 'mfe-reports'))).toEqual([release]);
    expect(fs.readdirSync(target.webRoot).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('publishes the same build once; a new build is a new release beside it, and the earlier one stays whole', async () => {
    build(v1);
    const first = await publishRelease(target, 'mfe-reports', '1.4.0', dist);
    expect(await publishRelease(target, 'mfe-reports', '1.4.0', dist)).toEqual({
      release: first.release,
      created: false,
    });

    build(v2);
    const second = await publishRelease(target, 'mfe-reports', '1.4.0', dist);
    expect(second.created).toBe(true);
    expect(second.release).not.toBe(first.release);
    const earlier = path.join(target.webRoot, 'releases', 'mfe-reports', first.release);
    expect(fs.readFileSync(path.join(earlier, 'remoteEntry.js'), 'utf8')).toBe('var v = 1;');
    expect(await listReleases(target, 'mfe-reports')).toEqual([
      { release: first.release, inForce: false },
      { release: second.release, inForce: true },
    ]);

    // a rollback is pointing the manifest back
    await pointAt(target, 'mfe-reports', first.release);
    expect((await readManifest(target))['mfe-reports']).toBe(`/releases/mfe-reports/${first.release}/mf-manifest.json`);
    await expect(pointAt(target, 'mfe-reports', '9.9.9-0000000000')).rejects.toThrow(
      `mfe-reports has no release "9.9.9-0000000000": it has ${first.release}, ${second.release}`,
    );
  });

  it('refuses a build without a manifest or a good declaration, and a manifest file it cannot read, changing nothing', async () => {
    build({ 'remoteEntry.js': 'var v = 1;' });
    await expect(publishRelease(target, 'mfe-reports', '1.4.0', dist)).rejects.toThrow(ReleaseError);
    const { 'portal-module.json': _declared, ...undeclared } = v1;
    build(undeclared);
    await expect(publishRelease(target, 'mfe-reports', '1.4.0', dist)).rejects.toThrow(
      /portal-module\.json cannot be read \(ENOENT\): the portal could not show mfe-reports/,
    );
    build({ ...v1, 'portal-module.json': JSON.stringify({ module: 'reports', basePath: '/reports', nav: 'Reports' }) });
    await expect(publishRelease(target, 'mfe-reports', '1.4.0', dist)).rejects.toThrow(
      /portal-module\.json is not a remote's declaration \(nav: .+\)/,
    );
    expect(fs.existsSync(path.join(target.webRoot, 'releases'))).toBe(false);
    build(v1);
    fs.mkdirSync(target.webRoot, { recursive: true });
    fs.writeFileSync(target.manifestFile, '{"mfe-reports": ');
    await expect(publishRelease(target, 'mfe-reports', '1.4.0', dist)).rejects.toThrow(
      `${target.manifestFile} is not JSON`,
    );
    expect(fs.readFileSync(target.manifestFile, 'utf8')).toBe('{"mfe-reports": ');
    expect(fs.existsSync(path.join(target.webRoot, 'releases'))).toBe(false);
  });
});

describe('npm run deploy -w <remote>', () => {
  it('publishes from the remote’s folder, lists, rolls back, and says what is wrong', async () => {
    const cwd = path.dirname(dist);
    fs.mkdirSync(cwd, { recursive: true });
    fs.writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: '@portal/mfe-reports', version: '1.4.0' }));
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      build(v1);
      const env = { WEB_ROOT: target.webRoot };
      expect(await main([], cwd, env)).toBe(0);
      const [first] = await listReleases(target, 'mfe-reports');
      expect(log.mock.calls.at(-1)?.[0]).toContain(`mfe-reports: release ${first.release} published`);
      build(v2);
      expect(await main([], cwd, env)).toBe(0);
      expect(await main(['--rollback', first.release], cwd, env)).toBe(0);
      expect((await readManifest(target))['mfe-reports']).toBe(
        `/releases/mfe-reports/${first.release}/mf-manifest.json`,
      );
      expect(await main(['--list'], cwd, env)).toBe(0);
      expect(log.mock.calls.slice(-2).map((c) => String(c[0]).slice(0, 2))).toEqual(['* ', '  ']);
      expect(await main(['--rollback'], cwd, env)).toBe(1);
      expect(error).toHaveBeenLastCalledWith('deploy: --rollback needs a value');
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  });
});
