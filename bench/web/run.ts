/**
 * bench/web: how fast the portal shows up in a browser, against its budgets.
 *
 *  - Cold load of the dashboard on localhost: largest contentful paint (LCP), with an empty HTTP
 *    cache every time (a new browser context, signed in by its session cookie). Budget: p50 ≤ 1.0 s.
 *  - Each remote mounted after the shell asked for it: from the shell's User Timing mark
 *    `remote:<name>:requested` (the shell is ready and its router mounts the remote) to
 *    `remote:<name>:mounted` (the remote's App has rendered), on cold loads of the remote's page.
 *    Budget: p95 ≤ 300 ms. The remote's App renders its frame (routes, tabs) at once and its pages
 *    load on first use, so the table also prints, without a budget, when the page's own content
 *    (its table, form or heading) was first in the document, from the same `requested` mark.
 *
 * Uses the production build (run `npm run build` first, or leave out --no-build) and the real api on
 * a fresh SQLite database with the demo data, in Chromium.
 *
 *   tsx web/run.ts [--no-build] [--runs N]     (default 15 cold loads per page)
 * Exit code 1 when a figure misses its budget.
 */
import { execSync } from 'child_process';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startPortal } from '../../e2e/portal-server';

const LCP_BUDGET_MS = 1000;
const MOUNT_BUDGET_MS = 300;
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 15;

// `content`: the page's own content (its data, not a spinner), for the "content shown" column
const PAGES = [
  {
    remote: 'mfe-projects',
    path: '/',
    ready: '[data-testid="dashboard"]',
    content: '[data-testid="dashboard"] [aria-label="Projects"] table',
  },
  { remote: 'mfe-requests', path: '/requests', ready: 'h1, h2, h3', content: 'main table' },
  { remote: 'mfe-settings', path: '/settings', ready: 'h1, h2, h3', content: 'main form' },
  { remote: 'mfe-reports', path: '/reports', ready: 'h1, h2, h3', content: 'main h1, main h2, main h3' },
];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function signedInState(browser: Browser, baseURL: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${baseURL}/auth/saml/login`);
  await page.getByLabel('Email').fill('admin@demo.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill('Demo-Passw0rd!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('dashboard').waitFor({ state: 'visible', timeout: 60_000 });
  const state = await context.storageState();
  await context.close();
  return state;
}

/** One cold load: LCP (when `lcp`) and the remote's requested → mounted time. */
async function coldLoad(context: BrowserContext, baseURL: string, target: (typeof PAGES)[number]) {
  const page = await context.newPage();
  await page.addInitScript(`(() => {
    window.__lcp = 0;
    window.__content = NaN;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    const seen = new MutationObserver(() => {
      if (document.querySelector(${JSON.stringify(target.content)})) {
        window.__content = performance.now();
        seen.disconnect();
      }
    });
    seen.observe(document, { childList: true, subtree: true });
  })();`);
  await page.goto(`${baseURL}${target.path}`);
  await page.locator(target.ready).first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForFunction(
    (remote) => performance.getEntriesByName(`remote:${remote}:mounted`).length > 0,
    target.remote,
    { timeout: 60_000 },
  );
  await page.locator(target.content).first().waitFor({ state: 'attached', timeout: 60_000 });
  // LCP settles once rendering does: give late paints a moment, as a user would see them
  await page.waitForTimeout(400);
  const figures = await page.evaluate((remote) => {
    const requested = performance.getEntriesByName(`remote:${remote}:requested`)[0]?.startTime ?? NaN;
    const mounted = performance.getEntriesByName(`remote:${remote}:mounted`)[0]?.startTime ?? NaN;
    const w = window as unknown as { __lcp: number; __content: number };
    return { lcp: w.__lcp, mount: mounted - requested, content: w.__content - requested };
  }, target.remote);
  await page.close();
  return figures;
}

async function main() {
  if (!process.argv.includes('--no-build')) {
    console.log('building production bundles…');
    execSync('npm run build --silent', { cwd: `${__dirname}/../..`, stdio: 'inherit' });
  }
  const portal = await startPortal({ RATE_LIMIT_MAX: '100000' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  let failed = false;
  try {
    const state = await signedInState(browser, portal.baseURL);
    const rows: { page: string; lcp: number[]; mount: number[]; content: number[] }[] = [];
    for (const target of PAGES) {
      const lcp: number[] = [];
      const mount: number[] = [];
      const content: number[] = [];
      // one warm-up load (the server's own first answers), not counted
      for (let run = 0; run <= RUNS; run += 1) {
        const context = await browser.newContext({ storageState: state });
        const figures = await coldLoad(context, portal.baseURL, target);
        await context.close();
        if (run === 0) continue;
        lcp.push(figures.lcp);
        mount.push(figures.mount);
        content.push(figures.content);
      }
      rows.push({ page: `${target.path} (${target.remote})`, lcp, mount, content });
    }

    console.log(`\n${RUNS} cold loads per page (empty cache each time), Chromium, production build, localhost\n`);
    console.log('page                        LCP p50   LCP p95   mount p50   mount p95   content p50   content p95');
    for (const r of rows) {
      console.log(
        `${r.page.padEnd(26)} ${ms(percentile(r.lcp, 50)).padStart(8)}  ${ms(percentile(r.lcp, 95)).padStart(8)}  ${ms(percentile(r.mount, 50)).padStart(10)}  ${ms(percentile(r.mount, 95)).padStart(10)}  ${ms(percentile(r.content, 50)).padStart(12)}  ${ms(percentile(r.content, 95)).padStart(12)}`,
      );
    }
    console.log(
      "(mount: the remote's App rendered; content: its page's table, form or heading in the document; both from the shell asking for the remote)",
    );
    const dashboard = rows[0];
    const lcpP50 = percentile(dashboard.lcp, 50);
    console.log(
      `\ndashboard LCP p50: ${ms(lcpP50)} (budget ${ms(LCP_BUDGET_MS)}, ratio ${(lcpP50 / LCP_BUDGET_MS).toFixed(2)})`,
    );
    if (lcpP50 > LCP_BUDGET_MS) failed = true;
    for (const r of rows) {
      const p95 = percentile(r.mount, 95);
      const over = p95 > MOUNT_BUDGET_MS;
      console.log(
        `${r.page}: remote mounted p95 ${ms(p95)} (budget ${ms(MOUNT_BUDGET_MS)}, ratio ${(p95 / MOUNT_BUDGET_MS).toFixed(2)})${over ? '  OVER' : ''}`,
      );
      if (over) failed = true;
    }
  } finally {
    await browser.close();
    await portal.stop();
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
