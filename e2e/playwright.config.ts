import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the whole portal: the real api (started by each worker on a free port with a fresh
 * DATA_DIR and the built shell and remotes, tests/fixtures.ts) driven in Debian's Chromium. A file's
 * tests run in order in one worker; E2E_WORKERS=N shares the files among N workers, each with
 * its own portal.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: require.resolve('./global-setup'),
  fullyParallel: false,
  // One worker unless E2E_WORKERS asks for more: with one per core on a 2-core machine the
  // accessibility walk ran past its timeout and a project test failed on both attempts.
  workers: Number(process.env.E2E_WORKERS) || 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // CI also asks for a JSON report, to print one closing line over every suite
  reporter: process.env.E2E_JSON_REPORT
    ? [['list'], ['json', { outputFile: process.env.E2E_JSON_REPORT }]]
    : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    // A trace records a screencast of every frame: with it on for every test, Chromium's GPU and
    // browser processes spent more processor time than the page and the api together (a settings run
    // took 2.8 min instead of 1.8). It is recorded for a test's retry, the run that shows a failure
    // that holds.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      // the closed network otherwise floods Chromium with refused connections
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
