import { test as base, expect, type Page } from '@playwright/test';

export const PASSWORD = 'Demo-Passw0rd!';

export const test = base.extend({
  // global-setup starts the api on a free port and hands its address over in the environment
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
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

export function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}
