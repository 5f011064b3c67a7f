/**
 * bench/bundle: the deterministic budgets of the web build, gated by CI.
 *
 * Builds production (skip with --no-build), starts the real portal, signs in as admin@demo.test in
 * Chromium and counts every JS response until the dashboard has rendered: gzip bytes per file and in
 * all, against the 200 KB gate (issue 10's budget). Each build's bundle-report.json says which npm packages each file
 * holds; a package whose code arrives from two containers is loaded twice (for @portal/shared,
 * which is federated file by file, the same source file from two containers).
 * It also counts the requests the page made before the dashboard rendered (the critical path, api
 * calls apart), and the gzip bytes of all the JavaScript the shell and every remote ship.
 */
import { execSync } from 'child_process';
import { readdirSync, readFileSync } from 'fs';
import path from 'path';
import { gzipSync } from 'zlib';
import { chromium } from 'playwright-core';
import { startPortal, WEB_PACKAGES } from '../../e2e/portal-server';

/**
 * The gate CI enforces: 300 KB until issue 10, raised by 2 KB for the accessible light theme's tokens
 * and the CSP nonce set before any chunk loads (each needed on the first page), then lowered to 250 KB
 * when the remotes' Module Federation runtime lost the code they never run and the menus (Dropdown,
 * Menu, Breadcrumb, Avatar) left the first page (247 KB measured), then to 240 KB when the remotes
 * began to use the shell's federation runtime core instead of a copy each (238 KB measured), then to
 * 232 KB when antd's Button and Layout left the first page for FrameButton and plain elements
 * (228 KB measured), then to 226 KB when the first-page kit's Spin became the portal's own, in
 * antd's look (222 KB measured), then to the 200 KB target of issue 10 (199.5 KB measured) when
 * ConfigProvider's tooltip UniqueProvider (and with it @rc-component/trigger) began to load only when
 * rendered, antd's helper packages were built as free of side effects, and the bell and the
 * maintenance banner began to load after the first content.
 */
const BUDGET_BYTES = 200 * 1024;
/**
 * Requests the dashboard's page makes before it renders: the document, scripts, styles, fonts and api
 * calls (the api calls apart: the chain before the first data is made of them). Counts, not times:
 * the same build makes the same requests. Set at what the portal made when the budget was added (32,
 * of them 5 api calls: the profile, the portal config, the companies, the selected company and its
 * access permissions); lower them as the chain gets shorter.
 */
const REQUEST_BUDGET = { all: 32, api: 5 };
/**
 * gzip bytes of every JavaScript file the shell and the remotes ship (every route, every chunk): what
 * a user who opens every page downloads, and what a change of a shared dependency costs. 1,350.7 KB
 * when the budget was set (at 1,375 KB); lowered to 1,360 KB when the remotes stopped shipping their
 * own copies of the error catalogue (the shell's is the one in use: 1,350.6 KB measured).
 */
const ALL_REMOTES_BUDGET_BYTES = 1360 * 1024;
const WATCHED = [
  'react',
  'react-dom',
  'antd',
  '@reduxjs/toolkit',
  'react-router',
  'react-router-dom',
  'react-redux',
  'rxjs',
];
/** bundle-report.json names each file of @portal/shared as `@portal/shared/src/...` */
const SHARED_FILE = '@portal/shared/src/';
const CONTAINERS: Record<string, string> = {
  '/': 'shell',
  '/remotes/mfe-projects/': 'mfe-projects',
  '/remotes/mfe-requests/': 'mfe-requests',
  '/remotes/mfe-settings/': 'mfe-settings',
  '/remotes/mfe-reports/': 'mfe-reports',
};

function containerOf(pathname: string): { container: string; base: string; file: string } {
  const base = Object.keys(CONTAINERS)
    .filter((b) => pathname.startsWith(b))
    .sort((a, b) => b.length - a.length)[0];
  return { container: CONTAINERS[base], base, file: pathname.slice(base.length) };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** gzip bytes of each package's built JavaScript (dist/, every chunk, source maps aside). */
function builtJavaScript(root: string): { name: string; files: number; gzip: number }[] {
  return WEB_PACKAGES.map((name) => {
    const dist = path.join(root, name, 'dist');
    const files = (readdirSync(dist, { recursive: true }) as string[]).filter((f) => f.endsWith('.js'));
    const gzip = files.reduce((n, f) => n + gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length, 0);
    return { name, files: files.length, gzip };
  });
}

async function main() {
  if (!process.argv.includes('--no-build')) {
    console.log('building production bundles…');
    execSync('npm run build --silent', { cwd: `${__dirname}/../..`, stdio: 'inherit' });
  }
  const portal = await startPortal();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    // The moment the dashboard is in the DOM, as the page itself sees it: scripts requested after it
    // (work deferred until the page is shown) are not part of what the user waited for.
    // (a string: tsx would add helpers to a function that do not exist in the page)
    // A MutationObserver notes it in the microtask after the insertion, before any effect or frame
    // of the page could start deferred work, so what was requested before it is the same every run.
    await page.addInitScript(`(() => {
      const seen = () => {
        if (window.__dashboardAt === undefined && document.querySelector('[data-testid="dashboard"]')) {
          window.__dashboardAt = performance.now();
          observer.disconnect();
        }
      };
      const observer = new MutationObserver(seen);
      observer.observe(document, { childList: true, subtree: true });
    })();`);
    await page.goto(`${portal.baseURL}/auth/saml/login`);
    // identifier-first: the email decides the next step (the password form for local users)
    await page.getByLabel('Email').fill('admin@demo.test');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill('Demo-Passw0rd!');

    const scripts: { url: URL; raw: number; gzip: number }[] = [];
    let counting = true;
    const pending: Promise<void>[] = [];
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (!counting || !url.pathname.endsWith('.js')) return;
      pending.push(
        res.body().then((body) => {
          scripts.push({ url, raw: body.length, gzip: gzipSync(body).length });
        }),
      );
    });
    const started = Date.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('dashboard').waitFor({ state: 'visible', timeout: 60_000 });
    const renderedMs = Date.now() - started;
    counting = false;
    await Promise.all(pending);
    // The dashboard document's requests, split at the moment it rendered (the sign-in's own requests
    // were on the page before: a navigation starts a new list). Those after it are deferred work.
    const { beforeRender, requestedAfter } = await page.evaluate(() => {
      const at = (window as unknown as { __dashboardAt?: number }).__dashboardAt ?? Infinity;
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return {
        beforeRender: entries.filter((e) => e.startTime <= at).map((e) => new URL(e.name).pathname),
        requestedAfter: entries.filter((e) => e.startTime > at).map((e) => e.name),
      };
    });
    // The tab's icon is none of these: the browser asks for it beside the page, and nothing waits for it.
    const iconAt = beforeRender.indexOf('/favicon.ico');
    if (iconAt >= 0) beforeRender.splice(iconAt, 1);
    const apiBeforeRender = beforeRender.filter((p) => p.startsWith('/api/'));
    const deferred = scripts.filter((s) => requestedAfter.includes(s.url.href));
    for (const s of deferred) scripts.splice(scripts.indexOf(s), 1);

    const reports = new Map<string, Record<string, string[]>>();
    for (const base of new Set(scripts.map((s) => containerOf(s.url.pathname).base))) {
      const res = await fetch(`${portal.baseURL}${base}bundle-report.json`);
      reports.set(base, res.ok ? ((await res.json()) as Record<string, string[]>) : {});
    }

    const byPackage = new Map<string, Set<string>>();
    const rows = scripts
      .map((s) => {
        const { container, base, file } = containerOf(s.url.pathname);
        const entries = reports.get(base)?.[file] ?? [];
        for (const p of entries) {
          // @portal/shared is shared file by file: one of its files from two containers is a duplicate,
          // two different files of it from two containers are not
          if (!WATCHED.includes(p) && !p.startsWith(SHARED_FILE)) continue;
          if (!byPackage.has(p)) byPackage.set(p, new Set());
          byPackage.get(p)!.add(container);
        }
        const packages = [...new Set(entries.map((p) => (p.startsWith(SHARED_FILE) ? '@portal/shared' : p)))];
        return { ...s, container, file, packages };
      })
      .sort((a, b) => b.gzip - a.gzip);

    const total = rows.reduce((n, r) => n + r.gzip, 0);
    const totalRaw = rows.reduce((n, r) => n + r.raw, 0);
    console.log(`\nFirst page (sign-in -> dashboard rendered in ${renderedMs} ms): ${rows.length} JS files`);
    for (const r of rows) {
      console.log(
        `  ${kb(r.gzip).padStart(9)} gzip  ${kb(r.raw).padStart(9)} raw  ${r.container}/${r.file}  ${r.packages.join(', ')}`,
      );
    }
    if (deferred.length) {
      console.log(
        `  requested after the dashboard rendered (not counted): ${deferred.map((s) => containerOf(s.url.pathname).file).join(', ')}`,
      );
    }
    console.log(`\nfirst-load JS: ${kb(total)} gzip, ${total.toLocaleString('en-US')} bytes (${kb(totalRaw)} raw)`);
    console.log(
      `budget: ${kb(BUDGET_BYTES)} gzip, ${BUDGET_BYTES.toLocaleString('en-US')} bytes (issue 10); used ${((total / BUDGET_BYTES) * 100).toFixed(1)}% (ratio ${(total / BUDGET_BYTES).toFixed(3)})`,
    );
    const duplicated = [...byPackage].filter(([, containers]) => containers.size > 1);
    if (duplicated.length) {
      for (const [p, c] of duplicated) console.log(`DUPLICATED: ${p} loaded from ${[...c].join(' and ')}`);
    } else {
      console.log(`duplicated singletons: none (checked ${WATCHED.join(', ')} and each file of @portal/shared)`);
    }
    const sharedFrom = new Map<string, number>();
    for (const [p, c] of byPackage) {
      if (!p.startsWith(SHARED_FILE)) console.log(`  ${p}: from ${[...c].join(', ')}`);
      else for (const container of c) sharedFrom.set(container, (sharedFrom.get(container) ?? 0) + 1);
    }
    for (const [container, n] of sharedFrom) console.log(`  @portal/shared: ${n} file(s) from ${container}`);

    // the document itself, then what it requested
    const requests = { all: beforeRender.length + 1, api: apiBeforeRender.length };
    console.log(
      `\nrequests before the dashboard rendered: ${requests.all} (budget ${REQUEST_BUDGET.all}), of them api calls: ${requests.api} (budget ${REQUEST_BUDGET.api})`,
    );
    for (const p of apiBeforeRender) console.log(`  ${p}`);

    const built = builtJavaScript(path.join(__dirname, '..', '..'));
    const allRemotes = built.reduce((n, b) => n + b.gzip, 0);
    console.log('\nall the JavaScript shipped (every chunk of the shell and the remotes):');
    for (const b of built)
      console.log(`  ${kb(b.gzip).padStart(9)} gzip  ${String(b.files).padStart(4)} files  ${b.name}`);
    console.log(
      `all remotes: ${kb(allRemotes)} gzip; budget ${kb(ALL_REMOTES_BUDGET_BYTES)} (ratio ${(allRemotes / ALL_REMOTES_BUDGET_BYTES).toFixed(3)})`,
    );

    const over = [
      total > BUDGET_BYTES && 'first-page JavaScript',
      duplicated.length > 0 && 'duplicated singletons',
      requests.all > REQUEST_BUDGET.all && 'requests before the dashboard rendered',
      requests.api > REQUEST_BUDGET.api && 'api calls before the dashboard rendered',
      allRemotes > ALL_REMOTES_BUDGET_BYTES && 'all-remotes JavaScript',
    ].filter(Boolean);
    if (over.length) console.log(`\nOVER BUDGET: ${over.join(', ')}`);
    process.exitCode = over.length ? 1 : 0;
  } finally {
    await browser.close();
    await portal.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
