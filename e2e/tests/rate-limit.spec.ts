import { startPortal, type RunningPortal } from '../portal-server';
import { expect, signIn, test } from './fixtures';

// A portal of its own with a small api budget, so the test can use it up without touching the others.
let portal: RunningPortal;
test.beforeAll(async () => {
  portal = await startPortal({ RATE_LIMIT_MAX: '40', RATE_LIMIT_WINDOW_SECONDS: '60' });
});
test.afterAll(async () => {
  await portal?.stop();
});

test('three 429 replies within 5 s produce exactly one Too Many Requests toast', async ({ page }) => {
  await page.goto(`${portal.baseURL}/auth/saml/login`);
  await signIn(page, 'admin@demo.test');
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();

  // use up what is left of this session's budget, as a busy tab would
  for (let i = 0; i < 60; i++) {
    const res = await page.request.get(`${portal.baseURL}/api/v1/users/profile/me`, {
      headers: { 'X-Portal-Client': 'web' },
    });
    if (res.status() === 429) break;
  }

  const limited: number[] = [];
  page.on('response', (res) => {
    if (res.status() === 429 && res.url().includes('/api/v1/')) limited.push(Date.now());
  });
  // the page's own calls now get 429: reloading makes several, and "Try again" more
  await page.reload();
  const retry = page.getByRole('button', { name: 'Try again' });
  await expect(retry).toBeVisible();
  await retry.click();
  await retry.click();
  await expect.poll(() => limited.length).toBeGreaterThanOrEqual(3);
  expect(limited[2] - limited[0]).toBeLessThan(5000);

  const toast = page.getByText('Too Many Requests', { exact: true });
  await expect(toast).toHaveCount(1);
  await expect(page.getByText('Please wait a moment until you can send requests again.')).toHaveCount(1);
  // and no second one arrives a moment later
  await page.waitForTimeout(1000);
  await expect(toast).toHaveCount(1);
});
