import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './fixtures';

/**
 * Collects what the page's Content-Security-Policy blocks: `securitypolicyviolation` events (on every
 * document the page loads) and console errors about the policy.
 */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}: ${e.sample}`);
    });
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      consoleErrors.push(message.text());
  });
  return async () => [
    ...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)),
    ...consoleErrors,
  ];
}

test.describe('signing in and the modules a user sees', () => {
  test('admin@demo.test signs in and sees all four modules, each one mounting, with nothing blocked by the CSP', async ({
    page,
  }) => {
    const violations = await watchCsp(page);
    const first = await page.goto('/');
    expect(first?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(first?.headers()['content-security-policy']).toMatch(/style-src 'self' 'nonce-[^']+'/);
    await expect(page).toHaveURL(/\/auth\/saml\/login/);
    expect(await violations()).toEqual([]);
    await signIn(page, 'admin@demo.test');
    await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
    const nav = mainNav(page);
    for (const name of ['Home', 'Projects', 'Safe Transfer', 'Requests', 'Reports', 'Settings']) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    expect(await violations()).toEqual([]);
    // Safe Transfer is reached from the navigation, which marks it as the current page
    await nav.getByRole('link', { name: 'Safe Transfer', exact: true }).click();
    await expect(page).toHaveURL(/\/safe-transfer$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Safe Transfer' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Safe Transfer', exact: true })).toHaveAttribute('aria-current', 'page');
    // the tab's icon is there (the page links it; tools ask for /favicon.ico itself)
    const icon = await page.request.get('/favicon.ico');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/^image\//);
    await nav.getByRole('link', { name: 'Requests', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Requests' })).toBeVisible();
    // a dialog: portal, scroll lock, date picker styles
    await page.getByRole('button', { name: 'New request' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await violations()).toEqual([]);
    await nav.getByRole('link', { name: 'Reports', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    // a report with recharts charts and the report views' own CSS
    await page.getByRole('tab', { name: 'Requests' }).click();
    await expect(page.locator('.recharts-wrapper').first()).toBeVisible();
    expect(await violations()).toEqual([]);
    await nav.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(page.getByText('admin@demo.test')).toBeVisible();
    await nav.getByRole('link', { name: 'Projects', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
    expect(await violations()).toEqual([]);
    // every style element carries the nonce, and the watch does see a style without one
    expect(await page.evaluate(() => [...document.querySelectorAll('style')].filter((s) => !s.nonce).length)).toBe(0);
    await page.evaluate(() => {
      const injected = document.createElement('div');
      injected.innerHTML = '<style>body { color: red }</style>';
      document.body.append(injected);
    });
    await expect.poll(async () => (await violations()).length).toBeGreaterThan(0);
    expect((await violations())[0]).toContain('style-src');
  });

  test('member@acme.test sees no Reports and the browser fetches nothing of mfe-reports', async ({ page }) => {
    const reportRequests: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/remotes/mfe-reports/')) reportRequests.push(req.url());
    });
    await page.goto('/auth/saml/login');
    await signIn(page, 'member@acme.test');
    await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
    const nav = mainNav(page);
    await expect(nav.getByRole('link', { name: 'Requests', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Reports', exact: true })).toHaveCount(0);
    // even a direct visit does not fetch the remote: the shell answers itself
    await page.goto('/reports');
    await expect(page.getByText('You do not have access to Reports')).toBeVisible();
    await nav.getByRole('link', { name: 'Requests', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Requests' })).toBeVisible();
    expect(reportRequests).toEqual([]);
  });

  test('a wrong password keeps the user on the sign-in page with the catalogue message', async ({ page }) => {
    await page.goto('/auth/saml/login');
    await page.getByLabel('Email').fill('admin@demo.test');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Your credentials are not correct.');
    await expect(page.getByLabel('Email')).toHaveValue('admin@demo.test');
  });

  test('a deep link opened signed out returns to itself after sign-in, and sign-out ends the session', async ({
    page,
  }) => {
    await page.goto('/requests?status=submitted&search=evidence');
    await expect(page).toHaveURL(/\/auth\/saml\/login/);
    await signIn(page, 'admin@demo.test');
    await expect(page).toHaveURL(/\/requests\?.*status=submitted/);
    await expect(page).toHaveURL(/search=evidence/);
    await expect(page.getByRole('heading', { name: 'Requests', exact: true })).toBeVisible();
    await expect(page.getByPlaceholder('Search requests')).toHaveValue('evidence');

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/auth\/saml\/login/);
    const me = await page.request.get('/api/v1/users/profile/me');
    expect(me.status()).toBe(401);
  });
});

test.describe('routes', () => {
  test('legacy project links, /documents and unknown paths', async ({ page }) => {
    await page.goto('/auth/saml/login');
    await signIn(page, 'admin@demo.test');
    const acme = (await (await page.request.get('/api/v1/companies?search=Acme')).json()).results[0];
    const project = (
      await (await page.request.get(`/api/v1/companies/${acme.id}/projects?search=SOC%202%20Type%20II`)).json()
    ).results[0];
    await page.goto(`/projects/${project.id}?tasksPage=2`);
    await expect(page).toHaveURL(new RegExp(`/v2/projects/${project.id}\\?tasksPage=2$`));
    await expect(page.getByRole('heading', { name: project.title })).toBeVisible();
    await expect(page.locator('.ant-pagination-item-active')).toHaveText('2');
    await page.goto('/documents');
    await expect(page).toHaveURL(/\/v2\/projects\/documents$/);
    await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
    await page.goto('/safe-transfer');
    await expect(page.getByRole('heading', { name: 'Safe Transfer' })).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page.getByText('Page not found')).toBeVisible();
  });

  test('/account-removed is public', async ({ page }) => {
    await page.goto('/account-removed');
    await expect(page.getByText('Your account has been removed')).toBeVisible();
    await expect(page).toHaveURL(/\/account-removed$/);
  });
});

test.describe('a remote that cannot be loaded', () => {
  test('shows its fallback while the shell and the other modules work, and Retry recovers it', async ({ page }) => {
    await page.route('**/remotes/mfe-requests/**', (route) =>
      route.fulfill({ status: 503, body: 'Service Unavailable' }),
    );
    await page.goto('/auth/saml/login');
    await signIn(page, 'admin@demo.test');
    const nav = mainNav(page);
    await nav.getByRole('link', { name: 'Requests', exact: true }).click();
    await expect(page.getByText('Requests is unavailable right now')).toBeVisible();
    await expect(page.getByRole('button', { name: /Retry/ })).toBeVisible();

    // the rest of the portal keeps working
    await nav.getByRole('link', { name: 'Reports', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    await nav.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(page.getByText('admin@demo.test')).toBeVisible();
    await nav.getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();

    // the remote comes back: Retry really fetches it again
    await nav.getByRole('link', { name: 'Requests', exact: true }).click();
    await expect(page.getByText('Requests is unavailable right now')).toBeVisible();
    await page.unroute('**/remotes/mfe-requests/**');
    await page.getByRole('button', { name: /Retry/ }).click();
    await expect(page.getByRole('heading', { name: 'Requests' })).toBeVisible();
  });
});
