import {
  request as playwrightRequest,
  test as base,
  expect,
  type APIRequestContext,
  type Page,
} from '@playwright/test';
import { startPortal, type RunningPortal } from '../portal-server';

export const PASSWORD = 'Demo-Passw0rd!';

export const test = base.extend<object, { portal: RunningPortal }>({
  // Each worker starts a portal of its own (the api on a free port, a fresh DATA_DIR and database):
  // the files a worker runs share it, in order, and never see another worker's changes. Its address
  // and data dir are handed over in this worker's environment (apiAs, the outbox, new contexts).
  portal: [
    async ({}, use) => {
      const portal = await startPortal();
      process.env.E2E_BASE_URL = portal.baseURL;
      process.env.E2E_DATA_DIR = portal.dataDir;
      await use(portal);
      await portal.stop();
    },
    { scope: 'worker', auto: true, timeout: 90_000 },
  ],
  baseURL: async ({ portal }, use) => {
    await use(portal.baseURL);
  },
});

export { expect };

/**
 * Signs in through the real identifier-first sign-in page (Email, Continue, then Password, Sign in);
 * the page ends where the server sends it.
 */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  if (!page.url().includes('/auth/saml/login')) await page.goto('/auth/saml/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
}

/**
 * `page.goto(url)`, tried again when the page's own navigation (a redirect to sign-in, a client-side
 * route change) aborted it: the browser then ends on `url` or on where the server sent it.
 */
export async function gotoSettled(page: Page, url: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.goto(url);
      return;
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('net::ERR_ABORTED')) throw error;
      await page.waitForLoadState('load').catch(() => undefined);
    }
  }
}

/**
 * Opens `url`, signing in as `email` on the way when the browser has no session yet, and ends on
 * `url` with the portal's frame shown.
 */
export async function openAs(page: Page, email: string, url: string): Promise<void> {
  await gotoSettled(page, url);
  const menu = page.getByRole('button', { name: 'User menu' });
  const signInForm = page.getByRole('button', { name: 'Continue' });
  await expect(menu.or(signInForm)).toBeVisible();
  if (await signInForm.isVisible()) {
    await signIn(page, email);
    if (!page.url().endsWith(url)) await page.goto(url);
  }
  await expect(menu).toBeVisible();
}

export function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

/** An api client signed in through the real sign-in form (no browser), for setting up state as an admin would. */
export async function apiAs(email: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({
    baseURL: process.env.E2E_BASE_URL,
    // what the portal's own pages send: the client header and their origin
    extraHTTPHeaders: { 'X-Portal-Client': 'web', Origin: new URL(process.env.E2E_BASE_URL!).origin },
  });
  const res = await api.post('/auth/saml/login', { form: { email, password: PASSWORD }, maxRedirects: 0 });
  expect(res.status(), `sign-in of ${email}`).toBe(303);
  return api;
}
