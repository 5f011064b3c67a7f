import { availableParallelism } from 'os';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the whole portal: the real api (started by each worker on a free port with a fresh
 * DATA_DIR and the built shell and remotes, tests/fixtures.ts) driven in Debian's Chromium. A file's
 * tests run in order in one worker; the files are shared among one worker per core
 * (E2E_WORKERS=1 runs them all on one portal, as before).
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: require.resolve('./global-setup'),
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS) || availableParallelism(),
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
    trace: 'retain-on-failure',
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
