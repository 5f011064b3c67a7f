/**
 * Releases of remotes as an open tab meets them (issue 33), in a real browser against the real server:
 * a remote whose next chunk a newer release removed asks for a reload (and the reload opens the page),
 * a remote built against another portal contract says so, naming both versions, a release published
 * while a tab is open leaves that tab working (the next load gets it), a remotes manifest broken
 * by a deploy leaves the last good one in force, and a sixth remote built on its own and added to the
 * manifest is in the menu of the same shell build (its routes and menu entry are its declaration's).
 */
import type { Request } from '@playwright/test';
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { publishRelease } from '../../api/src/modules/web/releases';
import { startPortal, WEB_PACKAGES } from '../portal-server';
import { version as CONTRACT } from '../../shared/package.json';
import { expect, mainNav, openAs, signIn, test } from './fixtures';

const repo = path.resolve(__dirname, '..', '..');

/**
 * A web root of its own: the repository's builds (linked), and releases published beside them, with
 * the manifest file the portal started on it reads.
 */
function webRootOfBuilds() {
  const web = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  for (const pkg of WEB_PACKAGES) {
    fs.mkdirSync(path.join(web, pkg));
    fs.symlinkSync(path.join(repo, pkg, 'dist'), path.join(web, pkg, 'dist'));
  }
  return { web, target: { webRoot: web, manifestFile: path.join(web, 'remotes.json') } };
}

test('an open tab whose next chunk a newer release removed offers a reload, which opens the page', async ({ page }) => {
  await openAs(page, 'member@acme.test', '/');
  const link = page
    .getByRole('region', { name: 'Projects', exact: true })
    .getByRole('link', { name: 'Acme SOC 2 Type II 2026' });
  await expect(link).toBeVisible();

  // A new release of mfe-projects replaced its files: whatever this tab has not fetched yet is gone.
  await page.route('**/remotes/mfe-projects/**', (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await link.click();
  await expect(page.getByText('A new version of Projects is available')).toBeVisible();
  await expect(page.getByRole('button', { name: /Retry/ })).toHaveCount(0);
  await expect(mainNav(page).getByRole('link', { name: 'Requests', exact: true })).toBeVisible();

  await page.unroute('**/remotes/mfe-projects/**');
  await page.getByRole('button', { name: /Reload/ }).click();
  await expect(page.getByRole('heading', { name: 'Acme SOC 2 Type II 2026' })).toBeVisible();
});

test('a remote built against another portal contract says so, and the rest of the portal works', async ({ page }) => {
  // mfe-reports as a build against contract 2.x would ship it: every contract module required at ^2.0.0
  await page.route('**/remotes/mfe-reports/remoteEntry.js', async (route) => {
    const built = await route.fetch();
    const body = (await built.text())
      .replaceAll(`"^${CONTRACT}"`, '"^2.0.0"')
      .replaceAll(`version:"${CONTRACT}"`, 'version:"2.0.0"');
    await route.fulfill({ status: 200, contentType: 'application/javascript', body });
  });
  await openAs(page, 'admin@demo.test', '/');
  await mainNav(page).getByRole('link', { name: 'Reports', exact: true }).click();
  await expect(page.getByText('Reports cannot open in this version of the portal')).toBeVisible();
  await expect(
    page.getByText(`needs portal contract ^2.0.0; this portal provides ${CONTRACT}.`, { exact: false }),
  ).toBeVisible();
  await expect(page.getByText(/Reference: [0-9A-F]{8}/)).toBeVisible();

  await mainNav(page).getByRole('link', { name: 'Requests', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Requests' })).toBeVisible();
});

test('a remotes manifest broken by a deploy leaves the last good one in force', async ({ browser }) => {
  test.setTimeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-manifest-'));
  const file = path.join(dir, 'remotes.json');
  const good = Object.fromEntries(
    ['mfe-projects', 'mfe-requests', 'mfe-settings', 'mfe-reports'].map((name) => [
      name,
      `/remotes/${name}/mf-manifest.json`,
    ]),
  );
  fs.writeFileSync(file, JSON.stringify(good));
  const portal = await startPortal({ REMOTES_MANIFEST_FILE: file });
  const context = await browser.newContext({ baseURL: portal.baseURL });
  try {
    const page = await context.newPage();
    await signIn(page, 'admin@demo.test');
    await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();

    // half a file, as a deploy that copies it in place leaves it for a moment
    fs.writeFileSync(file, '{"mfe-requests": "/remotes/mfe-req');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
    await mainNav(page).getByRole('link', { name: 'Requests', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Requests' })).toBeVisible();
    const listed = await page.request.get('/remotes.json');
    expect(listed.status()).toBe(200);
    expect(await listed.json()).toEqual(good);
  } finally {
    await context.close();
    await portal.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a release published while a tab is open leaves that tab working, and the next load gets it', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const { web, target } = webRootOfBuilds();
  const first = await publishRelease(target, 'mfe-reports', '0.1.0', path.join(repo, 'mfe-reports', 'dist'));
  const portal = await startPortal({ WEB_ROOT: web, REMOTES_MANIFEST_FILE: target.manifestFile });
  const context = await browser.newContext({ baseURL: portal.baseURL });
  try {
    const page = await context.newPage();
    // each file fetched, with the document that asked for it: a file the tab asked for just before the
    // reload may answer after it, and counts for the page it was asked by
    const fetched: { url: string; status: number; load: number }[] = [];
    let load = 0;
    const loadOf = new WeakMap<Request, number>();
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) load += 1;
    });
    page.on('request', (req) => loadOf.set(req, load));
    page.on('response', (res) => {
      if (res.url().includes('/releases/'))
        fetched.push({ url: new URL(res.url()).pathname, status: res.status(), load: loadOf.get(res.request()) ?? -1 });
    });
    await signIn(page, 'admin@demo.test');
    await mainNav(page).getByRole('link', { name: 'Reports', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.every((f) => f.url.startsWith(`/releases/mfe-reports/${first.release}/`))).toBe(true);

    // the next build (here: the same files and one more) is published, and the manifest moves to it
    const next = path.join(web, 'next-dist');
    fs.cpSync(path.join(repo, 'mfe-reports', 'dist'), next, { recursive: true, dereference: true });
    fs.writeFileSync(path.join(next, 'release-note.txt'), 'the next release');
    const second = await publishRelease(target, 'mfe-reports', '0.1.0', next);
    expect(second.release).not.toBe(first.release);

    // the open tab goes on with the release it started with: its files are all still there
    await page.getByRole('tab', { name: 'Team workload' }).click();
    await expect(page.getByRole('tab', { name: 'Team workload', selected: true })).toBeVisible();
    expect(fetched.filter((f) => f.status !== 200 && f.status !== 304)).toEqual([]);

    // a new load reads the manifest again and gets the new release
    const before = load;
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    const reloaded = fetched.filter((f) => f.load > before);
    expect(reloaded.some((f) => f.url.startsWith(`/releases/mfe-reports/${second.release}/`))).toBe(true);
    expect(reloaded.some((f) => f.url.startsWith(`/releases/mfe-reports/${first.release}/`))).toBe(false);
  } finally {
    await context.close();
    await portal.stop();
    fs.rmSync(web, { recursive: true, force: true });
  }
});

test('a sixth remote, built on its own and added to the manifest, is in the menu and opens, with the same shell', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // built as its own team would build it (the shell's build is left as it is)
  const sixth = path.resolve(__dirname, '..', 'fixtures', 'mfe-sixth');
  execFileSync(process.execPath, [require.resolve('webpack-cli/bin/cli.js'), '--mode', 'production'], {
    cwd: sixth,
    stdio: 'pipe',
  });
  const { web, target } = webRootOfBuilds();
  // the manifest of the five remotes: the default one, and the new remote's release
  const { release } = await publishRelease(target, 'mfe-sixth', '0.1.0', path.join(sixth, 'dist'));
  const portal = await startPortal({ WEB_ROOT: web, REMOTES_MANIFEST_FILE: target.manifestFile });
  const context = await browser.newContext({ baseURL: portal.baseURL });
  try {
    const page = await context.newPage();
    await signIn(page, 'admin@demo.test');
    const link = mainNav(page).getByRole('link', { name: 'Sixth module', exact: true });
    await expect(link).toBeVisible();
    // its declared order: after Reports, before Settings
    await expect(mainNav(page).getByRole('link')).toHaveText([
      'Home',
      'Projects',
      'Safe Transfer',
      'Requests',
      'Reports',
      'Sixth module',
      'Settings',
    ]);
    const fetched: string[] = [];
    page.on('response', (res) => fetched.push(new URL(res.url()).pathname));
    await link.click();
    await expect(page.getByRole('heading', { name: 'Sixth module', level: 1 })).toBeVisible();
    await expect(page.getByText('Mounted at /sixth, showing /sixth')).toBeVisible();
    expect(fetched.some((p) => p.startsWith(`/releases/mfe-sixth/${release}/`))).toBe(true);

    // out of the manifest again: no menu entry, and its address is a page the portal does not have
    const manifest = JSON.parse(fs.readFileSync(target.manifestFile, 'utf8')) as Record<string, string>;
    delete manifest['mfe-sixth'];
    fs.writeFileSync(target.manifestFile, JSON.stringify(manifest));
    await page.reload();
    await expect(page.getByText('Page not found')).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Reports', exact: true })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Sixth module', exact: true })).toHaveCount(0);
  } finally {
    await context.close();
    await portal.stop();
    fs.rmSync(web, { recursive: true, force: true });
  }
});
