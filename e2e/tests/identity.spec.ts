import type { Page } from '@playwright/test';
import { apiAs, expect, mainNav, signIn, test } from './fixtures';

const DEMO_USERS = [
  'admin@demo.test',
  'consultant@demo.test',
  'auditor@demo.test',
  'lead@acme.test',
  'member@acme.test',
  'client@globex.test',
  'both@acme.test',
];

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/saml\/login/);
}

/** A marker on window survives client-side navigation and is lost on a reload. */
async function markPage(page: Page) {
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
}
async function expectNotReloaded(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
}

test.describe('sign-in and sign-out', () => {
  for (const email of DEMO_USERS) {
    test(`${email} signs in and out`, async ({ page }) => {
      await page.goto('/');
      await expect(page).toHaveURL(/\/auth\/saml\/login/);
      await signIn(page, email);
      await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
      await expect(mainNav(page).getByRole('link', { name: 'Home', exact: true })).toBeVisible();
      expect(
        (await page.request.get('/api/v1/users/profile/me', { headers: { 'X-Portal-Client': 'web' } })).status(),
      ).toBe(200);
      await signOut(page);
      expect((await page.request.get('/api/v1/users/profile/me')).status()).toBe(401);
      // the portal itself sends a signed-out user back to sign-in
      await page.goto('/settings');
      await expect(page).toHaveURL(/\/auth\/saml\/login/);
    });
  }

  test('a deep link opened signed out returns to itself after sign-in', async ({ page }) => {
    await page.goto('/settings/company?tab=users#top');
    await expect(page).toHaveURL(/\/auth\/saml\/login/);
    await signIn(page, 'lead@acme.test');
    await expect(page).toHaveURL(/\/settings\/company\?tab=users#top$/);
  });

  test('a return address on another site is not followed', async ({ page, context, baseURL }) => {
    await context.addCookies([
      { name: 'toUrl', value: encodeURIComponent('https://elsewhere.example/'), url: baseURL! },
    ]);
    await page.goto('/auth/saml/login');
    await signIn(page, 'member@acme.test');
    expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
    await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
  });
});

test.describe('company selection', () => {
  test('both@acme.test switches company: navigation and the mounted remote change without a reload', async ({
    page,
  }) => {
    await page.goto('/auth/saml/login');
    await signIn(page, 'both@acme.test');
    const nav = mainNav(page);
    const switcher = page.getByRole('button', { name: /^Company: .*Switch company$/ });
    await expect(switcher).toContainText('Acme Corp');
    await nav.getByRole('link', { name: 'Requests', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Requests' })).toBeVisible();
    await markPage(page);

    // Globex has requests off: the link goes and the mounted Requests remote is replaced
    await switcher.click();
    await page.getByRole('menuitem', { name: 'Globex Inc' }).click();
    await expect(switcher).toContainText('Globex Inc');
    await expect(nav.getByRole('link', { name: 'Requests', exact: true })).toHaveCount(0);
    await expect(page.getByText('You do not have access to Requests')).toBeVisible();
    await expectNotReloaded(page);

    // and back
    await switcher.click();
    await page.getByRole('menuitem', { name: 'Acme Corp' }).click();
    await expect(nav.getByRole('link', { name: 'Requests', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Requests' })).toBeVisible();
    await expectNotReloaded(page);

    // the choice is remembered for the next visit
    await page.reload();
    await expect(switcher).toContainText('Acme Corp');
  });
});

test.describe('maintenance banner', () => {
  test('shows sanitized HTML and stays closed after closing', async ({ page }) => {
    const admin = await apiAs('admin@demo.test');
    const created = await admin.post('/api/v1/system-settings', {
      data: {
        key: 'banner',
        status: 'active',
        value: 'Maintenance tonight <img src=x onerror="window.__xss=1"> <b>22:00 UTC</b>',
      },
    });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    try {
      await page.goto('/auth/saml/login');
      await signIn(page, 'client@globex.test');
      const banner = page.getByRole('alert').filter({ hasText: 'Maintenance tonight' });
      await expect(banner).toBeVisible();
      await expect(banner.locator('b')).toHaveText('22:00 UTC');
      // the image is there, its handler is not, and nothing ran
      await expect(banner.locator('img')).toHaveCount(1);
      expect(await banner.locator('img').getAttribute('onerror')).toBeNull();
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

      await banner.getByRole('button', { name: /close/i }).click();
      await expect(banner).toHaveCount(0);
      await page.reload();
      await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
      await expect(page.getByText('Maintenance tonight')).toHaveCount(0);
    } finally {
      await admin.delete(`/api/v1/system-settings/${id}`);
      await admin.dispose();
    }
  });
});

test('a user whose only company access was revoked sees why and where to go, never a spinner that does not end', async ({
  page,
}) => {
  const admin = await apiAs('admin@demo.test');
  const companies = (await (await admin.get('/api/v1/companies?page=1&pageSize=100')).json()) as {
    results: { id: string; name: string }[];
  };
  const globex = companies.results.find((c) => c.name.startsWith('Globex'))!;
  const users = (await (await admin.get(`/api/v1/companies/${globex.id}/users?page=1&pageSize=100`)).json()) as {
    results: { id: string; email: string }[];
  };
  const client = users.results.find((u) => u.email === 'client@globex.test')!;
  const access = `/api/v1/companies/${globex.id}/users/${client.id}`;
  expect((await admin.delete(`${access}/revoke-access`)).status()).toBe(200);
  try {
    await page.goto('/auth/saml/login');
    await signIn(page, 'client@globex.test');
    await expect(page.getByText('You have no data access')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Nothing to show yet' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Open your personal settings' }).click();
    await expect(page).toHaveURL(/\/settings\/personal$/);
    await expect(page.getByLabel('First name')).toHaveValue('Gwen');
  } finally {
    expect((await admin.post(`${access}/restore-access`)).status()).toBe(200);
    await admin.dispose();
  }
});

test.describe('feature flags', () => {
  test('a flag changed through the api changes the page without a reload', async ({ page }) => {
    const admin = await apiAs('admin@demo.test');
    const setHelpLink = (value: boolean) =>
      admin.put('/api/v1/feature-flags/header-help-link', { data: { defaultValue: value, enabled: true, rules: [] } });
    try {
      await page.goto('/auth/saml/login');
      await signIn(page, 'lead@acme.test');
      await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Help' })).toHaveCount(0);
      await markPage(page);
      expect((await setHelpLink(true)).ok()).toBe(true);
      await expect(page.getByRole('link', { name: 'Help' })).toBeVisible();
      expect((await setHelpLink(false)).ok()).toBe(true);
      await expect(page.getByRole('link', { name: 'Help' })).toHaveCount(0);
      await expectNotReloaded(page);
    } finally {
      await setHelpLink(false);
      await admin.dispose();
    }
  });
});
