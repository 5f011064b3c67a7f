/**
 * Accessibility (issue 10), in a real browser against the real server: axe (WCAG 2.0/2.1 A and AA)
 * on every main page and dialog of the portal, signed out and signed in as a staff admin and as a
 * client user. Any violation of impact "serious" or "critical" fails the run, listed with the page,
 * the rule, its help and the first elements it hit; a table of every page's figures by impact is
 * printed either way. The checks read only: the one confirmation that would change data is cancelled.
 * The tests share one signed-in page per role and run in order.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from '@playwright/test';
import { apiAs, expect, gotoSettled, signIn, test } from './fixtures';

// axe on a large page takes seconds on a busy machine: one minute is short for a test of several pages
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
type Impact = 'critical' | 'serious' | 'moderate' | 'minor';

interface Found {
  page: string;
  rule: string;
  impact: Impact;
  help: string;
  targets: string[];
}

/**
 * Violations that come from inside antd and cannot be fixed from the portal's code, each by rule and
 * the exact element axe names. Keep this list short: anything the portal renders itself gets fixed.
 */
const ANTD_INTERNAL: { rule: string; target: string; why: string }[] = [
  {
    // rc-table (antd's Table) measures column widths with a hidden row (aria-hidden="true") holding a
    // clone of every column title; a sortable title is focusable (tabindex=0), so with `scroll.x` the
    // hidden copy holds focusable elements. The real header row stays accessible.
    rule: 'aria-hidden-focus',
    target: '.ant-table-measure-row',
    why: 'rc-table measure row clones focusable sortable column titles',
  },
];

const summary = new Map<string, Record<Impact, number>>();
const blocking: Found[] = [];
/** Whole pages (dialogs aside) whose visible h1 count is not one: each page names itself once. */
const headingOne: string[] = [];

/**
 * Runs axe on the page (or only inside `include`, for a dialog) and records what it finds under `name`.
 * The portal's content must be on the page first: the caller waits for it.
 */
async function check(page: Page, name: string, include?: string) {
  // antd's motion (fades, zooms) leaves half-transparent elements behind for a moment: let it end
  await page.waitForTimeout(150);
  if (!include) {
    const h1 = await page.locator('h1:visible').count();
    if (h1 !== 1) headingOne.push(`${name}: ${h1} h1`);
  }
  let builder = new AxeBuilder({ page }).withTags(TAGS);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  if (process.env.A11Y_DUMP) {
    for (const v of violations)
      console.log(
        `DUMP ${name} | ${v.id} | ${v.impact} | ${v.nodes.length} | ${v.nodes.map((n) => n.target.join(' ') + ' :: ' + n.html.slice(0, 160) + ' :: ' + (n.failureSummary ?? '').replace(/\n/g, ' ').slice(0, 200)).join(' || ')}`,
      );
  }
  const counts: Record<Impact, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of violations) {
    const impact = (v.impact ?? 'minor') as Impact;
    const nodes = v.nodes.filter((n) => !ANTD_INTERNAL.some((x) => x.rule === v.id && n.target.join(' ') === x.target));
    if (nodes.length === 0) continue;
    counts[impact] += nodes.length;
    if (impact === 'critical' || impact === 'serious') {
      blocking.push({
        page: name,
        rule: v.id,
        impact,
        help: v.help,
        targets: nodes.slice(0, 3).map((n) => n.target.join(' ')),
      });
    }
  }
  summary.set(name, counts);
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  return context.newPage();
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name }).first();
/** A loading indicator still turning: the portal's Spin (first-page kit) or antd's (inside tables). */
const SPINNING = '.portal-spin-spinning, .ant-spin-spinning';

/** Opens `url` in the signed-in page and waits for `ready` before the check. */
async function visit(page: Page, url: string, ready: (page: Page) => Locator) {
  await gotoSettled(page, url);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
  await expect(ready(page)).toBeVisible();
  // the page's lists have settled (no spinner left)
  await expect(page.locator(SPINNING)).toHaveCount(0);
}

let admin: Page;
let projectUrl = '';
let projectTitle = '';
let client: Page;

test.afterAll(async () => {
  await admin?.context().close();
  await client?.context().close();
  const rows = [...summary.entries()].map(([page, c]) => ({
    page,
    ...c,
    total: c.critical + c.serious + c.moderate + c.minor,
  }));
  console.log(`\naxe (${TAGS.join(', ')}): violations (elements) by page and impact`);
  console.table(rows);
  // console.table is not shown by every reporter: the same figures as plain lines
  for (const r of rows)
    console.log(
      `a11y ${r.page.padEnd(36)} critical ${r.critical} serious ${r.serious} moderate ${r.moderate} minor ${r.minor}`,
    );
});

test('the sign-in page, both steps', async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto('/auth/saml/login');
  await expect(page.getByLabel('Email')).toBeVisible();
  await check(page, 'sign-in: email');
  await page.getByLabel('Email').fill('admin@demo.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await check(page, 'sign-in: password');
  // a wrong password: the error message on the page
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await check(page, 'sign-in: error');
  await page.context().close();
});

test('home, projects, a project and its tabs, the "New project" dialog', async ({ browser }) => {
  admin = await newPage(browser);
  await admin.goto('/auth/saml/login');
  await signIn(admin, 'admin@demo.test');

  await visit(admin, '/', (p) => heading(p, 'Home'));
  await check(admin, 'home');

  await admin.getByRole('button', { name: 'New project' }).click();
  const dialog = admin.getByRole('dialog', { name: 'New project' });
  await expect(dialog).toBeVisible();
  await check(admin, 'dialog: new project', '.ant-modal-wrap');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await admin.getByRole('button', { name: 'User menu' }).click();
  await expect(admin.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
  await check(admin, 'user menu');
  await admin.keyboard.press('Escape');

  await visit(admin, '/v2/projects', (p) => heading(p, 'Projects'));
  await check(admin, 'projects list');

  const api = await apiAs('admin@demo.test');
  const acme = (await (await api.get('/api/v1/companies?search=Acme')).json()).results[0];
  const project = (await (await api.get(`/api/v1/companies/${acme.id}/projects?search=SOC%202%20Type%20II`)).json())
    .results[0];
  await api.dispose();
  const url = `/v2/projects/${project.id}`;
  projectUrl = url;
  projectTitle = project.title;
  for (const [view, tab] of [
    ['tasks', 'Tasks'],
    ['controls', 'Controls'],
    ['pointsOfFocus', 'Points of focus'],
    ['files', 'Files'],
  ]) {
    await visit(admin, `${url}?view=${view}`, (p) => p.getByRole('tab', { name: tab, selected: true }));
    await expect(heading(admin, project.title)).toBeVisible();
    await check(admin, `project: ${view}`);
  }
});

test("a task, the team roster, the project's confirmation, documents and safe transfer", async () => {
  const url = projectUrl;
  await visit(admin, `${url}?view=tasks`, (p) => p.getByRole('tab', { name: 'Tasks', selected: true }));
  const task = admin.getByRole('main').getByRole('table').getByRole('link').first();
  const taskTitle = (await task.textContent())!.trim();
  await task.click();
  await expect(admin).toHaveURL(/\/tasks\//);
  await expect(heading(admin, taskTitle)).toBeVisible();
  await expect(admin.getByText(/Subtasks \(/)).toBeVisible();
  await expect(admin.locator(`${SPINNING}, .ant-skeleton`)).toHaveCount(0);
  await check(admin, 'task page');

  await visit(admin, `${url}/team-roster`, (p) => heading(p, 'Team roster'));
  await check(admin, 'project team roster');

  await visit(admin, url, (p) => heading(p, projectTitle));
  // the project's confirmation: Cancel (off while the project has tasks) or Complete, whichever is offered
  for (const name of ['Cancel', 'Complete']) {
    const move = admin.getByRole('button', { name, exact: true });
    if (!(await move.isVisible()) || !(await move.isEnabled())) continue;
    await move.click();
    const confirm = admin.getByRole('dialog');
    await expect(confirm.getByRole('button', { name: 'Keep it as it is' })).toBeVisible();
    await check(admin, 'confirm: project move', '.ant-modal-wrap');
    await confirm.getByRole('button', { name: 'Keep it as it is' }).click();
    await expect(confirm).toBeHidden();
    break;
  }

  await visit(admin, '/v2/projects/documents', (p) => heading(p, 'Documents'));
  await check(admin, 'documents');
  await visit(admin, '/safe-transfer', (p) => heading(p, 'Safe Transfer'));
  await check(admin, 'safe transfer');
});

test('requests: the list, a request, the "New request" dialog', async () => {
  await visit(admin, '/requests', (p) => heading(p, 'Requests'));
  await check(admin, 'requests list');

  await admin.getByRole('button', { name: 'New request' }).click();
  const dialog = admin.getByRole('dialog', { name: 'New request' });
  await expect(dialog.getByLabel('Title')).toBeVisible();
  await check(admin, 'dialog: new request', '.ant-modal-wrap');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await admin.getByRole('main').getByRole('table').getByRole('link').first().click();
  await expect(admin).toHaveURL(/\/requests\/[^/?]+$/);
  await expect(admin.getByTestId('request-status')).toBeVisible();
  await expect(admin.locator(SPINNING)).toHaveCount(0);
  await check(admin, 'request detail');
});

test('settings: every tab a staff admin has', async () => {
  const settings: [string, string, (p: Page) => Locator][] = [
    ['settings: personal', '/settings/personal', (p) => p.getByLabel('First name')],
    [
      'settings: company information',
      '/settings/company?tab=information',
      (p) => p.getByRole('tab', { name: 'Information', selected: true }),
    ],
    ['settings: company users', '/settings/company?tab=users', (p) => p.getByRole('button', { name: 'Add user' })],
    ['settings: module access', '/settings/company?tab=modules', (p) => p.getByLabel('Reports', { exact: true })],
    ['settings: password policy', '/settings/company?tab=password-policy', (p) => p.getByLabel('Minimum length')],
    ['settings: single sign-on', '/settings/company?tab=sso', (p) => p.getByLabel('Single sign-on URL')],
    ['settings: teams', '/settings/teams', (p) => heading(p, 'Teams')],
    ['settings: clients', '/settings/clients', (p) => p.getByRole('button', { name: 'Add company' })],
    ['settings: staff', '/settings/tevora', (p) => heading(p, 'Tevora')],
    ['settings: practices', '/settings/practices', (p) => heading(p, /Practices/)],
    [
      'settings: system messages',
      '/settings/system?tab=messages',
      (p) => p.getByRole('button', { name: /New message/ }),
    ],
    [
      'settings: feature flags',
      '/settings/system?tab=flags',
      (p) => p.getByRole('tab', { name: 'Feature flags', selected: true }),
    ],
    ['settings: audit log', '/settings/system?tab=audit', (p) => p.getByRole('button', { name: 'Apply filters' })],
  ];
  for (const [name, url, ready] of settings) {
    await visit(admin, url, ready);
    await check(admin, name);
  }
});

test('settings: dialogs and confirmations', async () => {
  // dialogs: add user, add company, create team, new portal message (all cancelled)
  for (const [name, url, open] of [
    ['dialog: add user', '/settings/company?tab=users', 'Add user'],
    ['dialog: add company', '/settings/clients', 'Add company'],
    ['dialog: portal message', '/settings/system?tab=messages', /New message/],
  ] as const) {
    await visit(admin, url, (p) => p.getByRole('button', { name: open }));
    await admin.getByRole('button', { name: open }).first().click();
    const dialog = admin.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await check(admin, name, '.ant-modal-wrap');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  }

  // confirmation: turning a module off (cancelled)
  await visit(admin, '/settings/company?tab=modules', (p) => p.getByLabel('Reports', { exact: true }));
  await admin.getByLabel('Reports', { exact: true }).click();
  const turnOff = admin.getByRole('button', { name: 'Turn off' });
  await expect(turnOff).toBeVisible();
  await check(admin, 'confirm: turn module off');
  await admin.locator('.ant-popconfirm').getByRole('button', { name: 'Cancel' }).click();
  await expect(turnOff).toBeHidden();

  // confirmation: making a staff user administrator (cancelled)
  await visit(admin, '/settings/tevora', (p) => heading(p, 'Tevora'));
  const row = admin
    .getByRole('row')
    .filter({ has: admin.getByRole('switch', { checked: false }) })
    .first();
  await row.getByRole('switch').click();
  const confirm = admin.getByRole('dialog');
  await expect(confirm.getByRole('button', { name: 'Make administrator' })).toBeVisible();
  await check(admin, 'confirm: make administrator', '.ant-modal-wrap');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
});

test('reports', async () => {
  await visit(admin, '/reports', (p) => heading(p, 'Reports'));
  await check(admin, 'reports');
  const tabs = admin.getByRole('tab');
  const count = await tabs.count();
  for (let i = 1; i < count; i++) {
    const tab = tabs.nth(i);
    const label = (await tab.textContent())?.trim() ?? String(i);
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(admin.locator(SPINNING)).toHaveCount(0);
    await check(admin, `reports: ${label}`);
  }
});

test('a client user: home, settings, a page refused', async ({ browser }) => {
  client = await newPage(browser);
  await client.goto('/auth/saml/login');
  await signIn(client, 'member@acme.test');
  await visit(client, '/', (p) => heading(p, 'Home'));
  await check(client, 'client: home');
  await visit(client, '/reports', (p) => p.getByText('You do not have access to Reports'));
  await check(client, 'client: reports refused');
  await visit(client, '/settings/clients', (p) => p.getByText('You do not have permission to view this page'));
  await check(client, 'client: settings refused');
  await visit(client, '/no/such/page', (p) => p.getByText('Page not found'));
  await check(client, 'not found');
});

test('no serious or critical violation anywhere', () => {
  const lines = blocking.map(
    (f) => `- [${f.page}] ${f.rule} (${f.impact}): ${f.help}\n    ${f.targets.join('\n    ')}`,
  );
  if (lines.length) console.log(`\nserious/critical violations:\n${lines.join('\n')}`);
  expect(blocking, `serious or critical axe violations:\n${lines.join('\n')}`).toEqual([]);
});

test('every page has one h1', () => {
  expect(headingOne).toEqual([]);
});
