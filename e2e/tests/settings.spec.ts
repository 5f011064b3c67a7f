/**
 * Settings and administration (issue 4), in a real browser against the real server: each tab walked
 * by a user who holds its permission (a change, then a reload shows it) and by one who does not (the
 * tab is not in the menu, a direct link is refused, the api answers 403); bad input on every form gets
 * a field-level error and changes nothing; module access follows in the shell without a reload; the
 * audit log lists every change made here. The tests share one server and run in order.
 */
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiAs, expect, gotoSettled, mainNav, signIn, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const settingsNav = (page: Page) => page.getByRole('navigation', { name: 'Settings' });

/**
 * Leaves the portal, then drops the session: with the app closed first, no request of the old page can
 * meet the missing session and send the browser to sign-in while the next page is being opened (which
 * aborted that navigation).
 */
async function leaveSignedOut(page: Page) {
  await page.goto('about:blank');
  await page.context().clearCookies();
}

async function open(page: Page, email: string, url: string) {
  await gotoSettled(page, url);
  const menu = page.getByRole('button', { name: 'User menu' });
  const signInForm = page.getByRole('button', { name: 'Continue' });
  await expect(menu.or(signInForm)).toBeVisible();
  if (await signInForm.isVisible()) await signIn(page, email);
  await expect(menu).toBeVisible();
}

type Listed = { results: { id: string; name?: string; email?: string }[] };

async function idOf(api: APIRequestContext, url: string, pick: (body: Listed) => string | undefined): Promise<string> {
  const res = await api.get(url);
  expect(res.status(), url).toBe(200);
  const id = pick(await res.json());
  expect(id, `id from ${url}`).toBeTruthy();
  return id!;
}

async function acmeId(api: APIRequestContext) {
  return idOf(api, '/api/v1/companies?ignorePagination=true', (b) => b.results.find((c) => c.name === 'Acme Corp')?.id);
}

/** A user without the permission: the tab is not in the menu and a direct link is refused. */
async function expectTabRefused(page: Page, tab: string, label: string | RegExp) {
  await page.goto(`/settings/${tab}`);
  await expect(settingsNav(page).getByRole('link', { name: 'Personal' })).toBeVisible();
  await expect(settingsNav(page).getByRole('link', { name: label })).toHaveCount(0);
  await expect(page.getByText('You do not have permission to view this page')).toBeVisible();
}

function tempFile(name: string, bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-upload-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

// A real 1x1 PNG, an exe with a .png name, and a 20 MB "image".
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(2048, 1)]);
const HUGE = Buffer.concat([PNG, Buffer.alloc(20 * 1024 * 1024, 0)]);

/** The id of a demo user, through the admin's api (staff see every company's users). */
async function userId(api: APIRequestContext, companyId: string, email: string): Promise<string> {
  return idOf(
    api,
    `/api/v1/companies/${companyId}/users?ignorePagination=true`,
    (b) => b.results.find((u) => u.email === email)?.id,
  );
}

async function markPage(page: Page) {
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
}
async function expectNotReloaded(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
}

test.describe('settings', () => {
  test('Personal: a user edits the profile; bad input gets a field error and changes nothing', async ({ page }) => {
    await open(page, 'member@acme.test', '/settings');
    await expect(page.getByLabel('Title')).toHaveValue('IT Analyst');
    const api = await apiAs('member@acme.test');

    // empty first name: a field error, nothing sent
    await page.getByLabel('First name').fill('');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Is required')).toBeVisible();

    // avatar: an exe renamed .png, then 20 MB, refused on the page
    const avatarInput = page.locator('input[type=file]').first();
    await avatarInput.setInputFiles(tempFile('photo.png', EXE));
    await expect(page.getByText(/Must be a PNG, JPEG, GIF or WebP image/)).toBeVisible();
    await avatarInput.setInputFiles(tempFile('big.png', HUGE));
    await expect(page.getByText(/Must be at most 2 MB/)).toBeVisible();

    // ... and by the api, whatever a page does
    const fake = await api.put('/api/v1/users/profile/me', {
      multipart: {
        firstName: 'Marcus',
        lastName: 'Bell',
        avatar: { name: 'photo.png', mimeType: 'image/png', buffer: EXE },
      },
    });
    expect(fake.status()).toBe(400);
    expect((await fake.json()).details).toEqual([expect.objectContaining({ field: 'avatar' })]);
    const huge = await api.put('/api/v1/users/profile/me', {
      multipart: {
        firstName: 'Marcus',
        lastName: 'Bell',
        avatar: { name: 'big.png', mimeType: 'image/png', buffer: HUGE },
      },
    });
    expect(huge.status()).toBe(400);
    expect((await huge.json()).details).toEqual([expect.objectContaining({ field: 'avatar' })]);
    const empty = await api.put('/api/v1/users/profile/me', { data: { firstName: ' ', lastName: 'Bell' } });
    expect(empty.status()).toBe(400);
    expect((await empty.json()).details).toEqual([expect.objectContaining({ field: 'firstName' })]);
    expect(await (await api.get('/api/v1/users/profile/me')).json()).toMatchObject({
      firstName: 'Marcus',
      title: 'IT Analyst',
      avatar: null,
    });

    await page.reload();
    await page.getByLabel('Title').fill('Senior IT Analyst');
    await page.locator('input[type=file]').first().setInputFiles(tempFile('me.png', PNG));
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile saved')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Title')).toHaveValue('Senior IT Analyst');
    const me = await (await api.get('/api/v1/users/profile/me')).json();
    expect(me.avatar).toMatch(/^\/api\/v1\/users\/.+\/avatar\?v=/);
    const avatar = await api.get(me.avatar);
    expect(avatar.headers()['content-type']).toBe('image/png');
    expect(avatar.headers()['x-content-type-options']).toBe('nosniff');
  });

  test('Company: the company admin changes the password policy and logo; a member is refused', async ({ page }) => {
    const lead = await apiAs('lead@acme.test');
    const acme = await acmeId(lead);
    await open(page, 'lead@acme.test', '/settings/company?tab=password-policy');
    await expect(settingsNav(page).getByRole('link', { name: 'Company' })).toBeVisible();
    const minimum = page.getByLabel('Minimum length');
    await expect(minimum).toHaveValue('14');
    for (const [bad, rule] of [
      ['-1', 'Must be at least 8'],
      ['3.5', 'Must be a whole number from 8 to 128'],
    ]) {
      await minimum.fill(bad);
      await page.getByRole('button', { name: 'Save password policy' }).click();
      await expect(page.getByText(rule, { exact: true }).first()).toBeVisible();
    }
    for (const bad of [-1, 3.5]) {
      const res = await lead.post(`/api/v1/companies/${acme}/password-policy`, {
        data: { minimumLength: bad, rotationInDays: 0 },
      });
      expect(res.status()).toBe(400);
      expect((await res.json()).details).toEqual([expect.objectContaining({ field: 'minimumLength' })]);
    }
    expect(await (await lead.get(`/api/v1/companies/${acme}/password-policy`)).json()).toEqual({
      minimumLength: 14,
      rotationInDays: 0,
    });
    await minimum.fill('16');
    await page.getByRole('button', { name: 'Save password policy' }).click();
    await expect(page.getByText('Password policy saved')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Minimum length')).toHaveValue('16');

    // logo: a renamed exe is refused, a real image kept
    await page.getByRole('tab', { name: 'Information' }).click();
    const logoInput = page.locator('input[type=file]').first();
    await logoInput.setInputFiles(tempFile('logo.png', EXE));
    await expect(page.getByText(/Must be a PNG, JPEG, GIF or WebP image/)).toBeVisible();
    const fake = await lead.patch(`/api/v1/companies/${acme}`, {
      multipart: { logo: { name: 'logo.png', mimeType: 'image/png', buffer: EXE } },
    });
    expect(fake.status()).toBe(400);
    expect((await fake.json()).details).toEqual([expect.objectContaining({ field: 'logo' })]);
    const emptyName = await lead.patch(`/api/v1/companies/${acme}`, { data: { name: '' } });
    expect(emptyName.status()).toBe(400);
    expect((await emptyName.json()).details).toEqual([expect.objectContaining({ field: 'name' })]);
    await page.reload();
    await page.locator('input[type=file]').first().setInputFiles(tempFile('logo.png', PNG));
    await page.getByRole('button', { name: 'Save company information' }).click();
    await expect(page.getByText('Company information saved')).toBeVisible();
    await page.reload();
    const company = await (await lead.get(`/api/v1/companies/${acme}`)).json();
    expect(company).toMatchObject({ name: 'Acme Corp', logo: expect.stringMatching(/\/logo\?v=/) });

    // a member without the permission
    const member = await apiAs('member@acme.test');
    await leaveSignedOut(page);
    await open(page, 'member@acme.test', '/settings/company');
    await expectTabRefused(page, 'company', 'Company');
    expect((await member.patch(`/api/v1/companies/${acme}`, { data: { name: 'Hacked' } })).status()).toBe(403);
    expect(
      (
        await member.post(`/api/v1/companies/${acme}/password-policy`, {
          data: { minimumLength: 8, rotationInDays: 0 },
        })
      ).status(),
    ).toBe(403);
    // the policy back as the seed had it
    expect(
      (
        await lead.post(`/api/v1/companies/${acme}/password-policy`, { data: { minimumLength: 14, rotationInDays: 0 } })
      ).status(),
    ).toBe(200);
  });

  test('Company users: the company admin invites a user and edits them; a duplicate email is refused; a member is refused', async ({
    page,
  }) => {
    const lead = await apiAs('lead@acme.test');
    const acme = await acmeId(lead);
    await open(page, 'lead@acme.test', '/settings/company?tab=users');
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill('member@acme.test');
    await dialog.getByLabel('First name').fill('Marcus');
    await dialog.getByLabel('Last name').fill('Again');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await expect(dialog.getByText('Email address already in use.')).toBeVisible();
    await dialog.getByLabel('Email').fill('grace.hopper@acme.test');
    await dialog.getByLabel('First name').fill('Grace');
    await dialog.getByLabel('Last name').fill('Hopper');
    await dialog.getByLabel('Title').fill('Compliance Analyst');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    const row = page.getByRole('row', { name: /Grace Hopper/ });
    await expect(row).toBeVisible();
    await expect(row.getByText('Invited')).toBeVisible();
    const users = await (await lead.get(`/api/v1/companies/${acme}/users?ignorePagination=true`)).json();
    expect(users.results.filter((u: { email: string }) => u.email === 'member@acme.test')).toHaveLength(1);

    // the user's page: breadcrumbs Home, Settings, Company; an edit that survives a reload
    await row.getByRole('link', { name: 'Grace Hopper' }).click();
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(breadcrumb).toContainText('Company');
    await expect(breadcrumb.getByRole('link', { name: 'Company' })).toHaveAttribute('href', '/settings/company');
    await page.getByLabel('Title').fill('Senior Compliance Analyst');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect(page.getByText('The details were saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Title')).toHaveValue('Senior Compliance Analyst');
    const graceUrl = new URL(page.url()).pathname;
    const graceId = graceUrl.split('/').pop()!;

    const member = await apiAs('member@acme.test');
    await leaveSignedOut(page);
    await open(page, 'member@acme.test', graceUrl);
    await expect(page.getByText('You do not have permission to view this page')).toBeVisible();
    expect(
      (
        await member.post(`/api/v1/companies/${acme}/users`, {
          data: { email: 'x@acme.test', firstName: 'X', lastName: 'Y', role: 'member' },
        })
      ).status(),
    ).toBe(403);
    expect((await member.patch(`/api/v1/users/${graceId}`, { data: { title: 'Hacked' } })).status()).toBe(403);
  });

  test('Clients: a staff admin adds a company; a duplicate name is refused; a client is refused', async ({ page }) => {
    await open(page, 'admin@demo.test', '/settings/clients');
    await page.getByRole('button', { name: 'Add company' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Company name').fill('acme corp');
    await dialog
      .getByRole('button', { name: /Add company|Create|Add/ })
      .last()
      .click();
    // on the name field, in the portal's words, and no toast besides
    await expect(dialog.getByText('A company with this name already exists.')).toBeVisible();
    await page.waitForTimeout(1000);
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
    await dialog.getByLabel('Company name').fill('Stark Industries');
    await dialog
      .getByRole('button', { name: /Add company|Create|Add/ })
      .last()
      .click();
    await expect(dialog).toBeHidden();
    await page.getByRole('searchbox').or(page.getByLabel('Search companies')).first().fill('stark');
    await expect(page).toHaveURL(/search=stark/);
    await page.reload();
    await expect(page.getByRole('cell', { name: 'Stark Industries' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Acme Corp' })).toHaveCount(0);

    const lead = await apiAs('lead@acme.test');
    await leaveSignedOut(page);
    await open(page, 'lead@acme.test', '/settings/clients');
    await expectTabRefused(page, 'clients', 'Clients');
    expect((await lead.post('/api/v1/companies', { data: { name: 'Lead Co' } })).status()).toBe(403);
  });

  test('Teams: the company admin creates a team; bad names are refused; a member is refused', async ({ page }) => {
    const lead = await apiAs('lead@acme.test');
    const acme = await acmeId(lead);
    await open(page, 'lead@acme.test', '/settings/teams');
    await page.getByRole('button', { name: 'Create team' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Team name').fill('compliance team');
    await dialog.getByRole('button', { name: 'Create' }).click();
    // on the name field, in the portal's words, and no toast besides
    await expect(dialog.getByText('A team with this name already exists in this company.')).toBeVisible();
    await page.waitForTimeout(1000);
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
    await dialog.getByLabel('Team name').fill('   ');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText('Is required')).toBeVisible();
    await dialog.getByLabel('Team name').fill('Audit Readiness');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(
      page
        .getByRole('navigation', { name: 'Teams list' })
        .or(page.getByLabel('Teams list'))
        .getByText('Audit Readiness'),
    ).toBeVisible();
    const teams = (await (await lead.get(`/api/v1/companies/${acme}/teams`)).json()).results.map(
      (t: { name: string }) => t.name,
    );
    expect(teams.filter((n: string) => n.toLowerCase() === 'compliance team')).toHaveLength(1);

    const member = await apiAs('member@acme.test');
    await leaveSignedOut(page);
    await open(page, 'member@acme.test', '/settings/teams');
    await expectTabRefused(page, 'teams', 'Teams');
    expect((await member.post(`/api/v1/companies/${acme}/teams`, { data: { name: 'Member team' } })).status()).toBe(
      403,
    );
  });

  test('Staff: a staff admin makes a staff user admin and sets their practices; a client is refused', async ({
    page,
  }) => {
    await open(page, 'admin@demo.test', '/settings/tevora');
    await expect(page.getByRole('heading', { name: 'Tevora' })).toBeVisible();
    const nina = page.getByRole('row', { name: /Nina Patel/ });
    await nina.getByRole('switch', { name: /Administrator: Nina Patel/ }).click();
    await page.getByRole('button', { name: 'Make administrator' }).click();
    await expect(page.getByRole('button', { name: 'Make administrator' })).toBeHidden();
    await expect(nina.getByRole('switch', { name: /Administrator: Nina Patel/ })).toBeChecked();
    await page.reload();
    await expect(page.getByRole('row', { name: /Nina Patel/ }).getByText('Admin', { exact: true })).toBeVisible();

    await page.getByRole('link', { name: 'Nina Patel' }).click();
    await expect(
      page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Tevora' }),
    ).toHaveAttribute('href', '/settings/tevora');
    // Nina works in PCI DSS Assessment (seed) and joins SOC 2 Readiness, by keyboard
    const chosen = (name: string) => page.locator('.ant-select-selection-item', { hasText: name });
    await expect(chosen('PCI DSS Assessment')).toBeVisible();
    await expect(chosen('SOC 2 Readiness')).toHaveCount(0);
    await page.getByRole('combobox', { name: /Practices of Nina Patel/ }).click();
    await page.keyboard.type('SOC 2');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save practices' }).click();
    await expect(page.getByText('The practices were saved.')).toBeVisible();
    await page.reload();
    await expect(chosen('PCI DSS Assessment')).toBeVisible();
    await expect(chosen('SOC 2 Readiness')).toBeVisible();

    const lead = await apiAs('lead@acme.test');
    await leaveSignedOut(page);
    await open(page, 'lead@acme.test', '/settings/tevora');
    await expectTabRefused(page, 'tevora', 'Tevora');
    expect((await lead.get('/api/v1/users/staff')).status()).toBe(403);
  });

  test('System Admin: a staff admin writes a portal message with a sanitized preview; other staff are refused', async ({
    page,
  }) => {
    await open(page, 'admin@demo.test', '/settings/system');
    await page.getByRole('button', { name: /New message/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('HTML').fill('<b>Quarterly evidence review</b> <img src=x onerror="window.__xss=1">');
    const preview = dialog
      .getByLabel('Preview')
      .or(dialog.locator('[aria-labelledby="message-preview-label"]'))
      .first();
    await expect(preview.locator('b')).toHaveText('Quarterly evidence review');
    await expect(preview.locator('img')).toHaveCount(1);
    await expect(preview.locator('[onerror]')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Save message' }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(page.getByText('Quarterly evidence review').first()).toBeVisible();

    const consultant = await apiAs('consultant@demo.test');
    await leaveSignedOut(page);
    await open(page, 'consultant@demo.test', '/settings/system');
    await expectTabRefused(page, 'system', 'System Admin');
    expect((await consultant.get('/api/v1/audit-log')).status()).toBe(403);
    expect(
      (
        await consultant.post('/api/v1/system-settings', { data: { key: 'help', status: 'active', value: 'x' } })
      ).status(),
    ).toBe(403);
  });

  test('bad input on the other forms gets a field error and changes nothing', async ({ page }) => {
    const lead = await apiAs('lead@acme.test');
    const acme = await acmeId(lead);

    // single sign-on: a certificate that does not parse
    await open(page, 'lead@acme.test', '/settings/company?tab=sso');
    await page.getByLabel('Identity provider entity ID').fill('https://idp.acme.test/metadata');
    await page.getByLabel('Single sign-on URL').fill('https://idp.acme.test/sso');
    await page
      .getByLabel('Signing certificate')
      .fill(`-----BEGIN CERTIFICATE-----\n${'A'.repeat(120)}\n-----END CERTIFICATE-----`);
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    // the api's refusal beside the field, without the api's field name in front
    await expect(page.getByText('Is not a readable X.509 certificate (PEM or base64 DER)').first()).toBeVisible();
    expect((await (await lead.get(`/api/v1/companies/${acme}/identity-provider`)).json()).identityProvider).toBeNull();

    // add user: empty names and a malformed email
    await page.goto('/settings/company?tab=users');
    const before = (await (await lead.get(`/api/v1/companies/${acme}/users?ignorePagination=true`)).json()).total;
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await expect(dialog.getByText('Is not a valid address')).toBeVisible();
    // first and last name, each under its own label
    await expect(dialog.getByText('Is required', { exact: true })).toHaveCount(2);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await (await lead.get(`/api/v1/companies/${acme}/users?ignorePagination=true`)).json()).total).toBe(before);

    // a company user's details: an empty first name
    const member = await userId(lead, acme, 'member@acme.test');
    await page.goto(`/settings/company/user/${member}`);
    await page.getByLabel('First name').fill('');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect(page.getByText('Is required').first()).toBeVisible();
    expect((await (await lead.get(`/api/v1/users/${member}`)).json()).firstName).toBe('Marcus');

    // own password: wrong current password, and a new one under the company's policy (14)
    await page.goto('/settings/personal');
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('Short-1');
    await page.getByLabel('Confirm new password').fill('Short-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText(/at least 14 characters/).first()).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('A-much-longer-passphrase-1');
    await page.getByLabel('Confirm new password').fill('A-much-longer-passphrase-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('The current password is not correct.').first()).toBeVisible();
    // the old password still signs in
    expect((await (await apiAs('lead@acme.test')).get('/api/v1/users/profile/me')).status()).toBe(200);
  });

  test('Module access changed in settings shows in the shell without a reload', async ({ page }) => {
    await open(page, 'admin@demo.test', '/settings/company?tab=modules');
    await markPage(page);
    const reports = mainNav(page).getByRole('link', { name: 'Reports', exact: true });
    await expect(reports).toBeVisible();
    await page.getByLabel('Reports', { exact: true }).click();
    await page.getByRole('button', { name: 'Turn off' }).click();
    await expect(reports).toHaveCount(0);
    await page.getByLabel('Reports', { exact: true }).click();
    await expect(reports).toBeVisible();
    await expectNotReloaded(page);
  });

  test('the audit log lists every change made above', async ({ page }) => {
    await open(page, 'admin@demo.test', '/settings/system?tab=audit');
    const expected: [action: string, actor: string][] = [
      ['profile.update', 'member@acme.test'],
      ['company.passwordPolicy.update', 'lead@acme.test'],
      ['company.update', 'lead@acme.test'],
      ['user.invite', 'lead@acme.test'],
      ['user.update', 'lead@acme.test'],
      ['company.create', 'admin@demo.test'],
      ['team.create', 'lead@acme.test'],
      ['staff.admin.update', 'admin@demo.test'],
      ['staff.practices.update', 'admin@demo.test'],
      ['systemSetting.create', 'admin@demo.test'],
      ['company.modules.update', 'admin@demo.test'],
    ];
    for (const [action, actor] of expected) {
      // the filter form resets to the address after each apply: a fill that lands before that reset is lost, so fill again
      await expect(async () => {
        await page.getByLabel('Action').fill(action);
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await expect(page).toHaveURL(new RegExp(`action=${action.replace(/\./g, '\\.')}`), { timeout: 2000 });
      }).toPass({ timeout: 15_000 });
      await expect(page.getByRole('row').filter({ hasText: action }).filter({ hasText: actor }).first()).toBeVisible();
    }
  });
});
