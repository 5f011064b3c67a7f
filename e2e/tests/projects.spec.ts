/**
 * Projects (issue 5), in a real browser against the real server: a consultant creates a project, is
 * refused activation without a Client Lead, adds one on the roster, activates it, adds tasks with a
 * subtask, a control with a point of focus, and finds them again after a reload through the addressed
 * tab and page; a client sees the company's projects but cannot create one; each rule broken on
 * purpose shows its catalogue message as a toast and changes nothing. The tests share one server and
 * run in order.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { apiAs, expect, openAs, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const TITLE = `E2E Vendor Risk Review ${Date.now().toString(36)}`;
let projectUrl = '';
let projectId = '';
let consultantApi: APIRequestContext;

/** The shell's toast (antd notification) carrying this text. */
const toast = (page: Page, text: string) => page.locator('.ant-notification-notice').filter({ hasText: text });

/**
 * A refusal the form shows beside its field is not also a toast. The shell decides on its toast a
 * task after the failure reached the page; a second is ample for one to have appeared.
 */
async function expectNoToast(page: Page) {
  await page.waitForTimeout(1000);
  await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
}

/**
 * Closes every toast. A toast that closes by itself between listing and clicking would hold a click
 * without a timeout until the test's own ran out: each click waits a second at most, and the round is
 * repeated until none is left.
 */
async function closeToasts(page: Page) {
  await expect(async () => {
    for (const close of await page.locator('.ant-notification-notice-close').all())
      await close.click({ timeout: 1000 }).catch(() => undefined);
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0, { timeout: 2000 });
  }).toPass({ timeout: 15_000 });
}

async function projectJson(): Promise<{
  status: string;
  type: string;
  practice: { id: string } | null;
  tasksTotal: number;
}> {
  const res = await consultantApi.get(`/api/v1/projects/${projectId}`);
  expect(res.status()).toBe(200);
  return res.json();
}

/** Picks an option of an antd Select by its accessible label. */
async function choose(
  page: Page,
  label: string,
  option: string | RegExp,
  scope: Page | ReturnType<Page['locator']> = page,
) {
  await scope.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(option).first().click();
}

test.beforeAll(async () => {
  consultantApi = await apiAs('consultant@demo.test');
});

test('a consultant creates a project from Home and cannot activate it without a Client Lead', async ({ page }) => {
  await openAs(page, 'consultant@demo.test', '/');
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await page.getByRole('button', { name: 'New project' }).click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  await dialog.getByLabel('Title').fill(TITLE);
  await dialog.getByRole('button', { name: /create/i }).click();
  await page.waitForURL(/\/v2\/projects\/[^/?]+$/);
  projectUrl = new URL(page.url()).pathname;
  projectId = projectUrl.split('/').pop()!;
  await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
  await expect(page.getByText('Pending', { exact: true }).first()).toBeVisible();

  // Broken rule: activation needs a Client Lead. The page does not offer it, and says why; the api
  // refuses it all the same.
  await expect(page.getByRole('button', { name: 'Activate' })).toBeDisabled();
  await expect(page.getByText('Add a Client Lead on the team roster to activate the project.')).toBeVisible();
  const activation = await consultantApi.post(`/api/v1/projects/${projectId}/status`, { data: { status: 'active' } });
  expect([activation.status(), (await activation.json()).code]).toEqual([409, 'client_lead_missing_in_project']);
  expect((await projectJson()).status).toBe('pending');

  // Broken rule met by a form that is out of date: a colleague adds a task while the edit form is open,
  // so changing the practice is refused with its message and the project keeps none.
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog');
  await expect(edit.getByLabel('Practice', { exact: true })).toBeEnabled();
  const colleague = await consultantApi.post(`/api/v1/projects/${projectId}/tasks`, {
    data: { title: 'Added by a colleague' },
  });
  expect(colleague.status()).toBe(201);
  await choose(page, 'Practice', 'SOC 2 Readiness', edit);
  await edit.getByRole('button', { name: /save/i }).click();
  await expect(toast(page, 'Practices cannot be changed when the project has tasks.')).toBeVisible();
  // a business rule's refusal, titled as one (never "Something went wrong")
  await expect(toast(page, 'Practices cannot be changed')).toContainText('Unable to complete request');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  expect((await projectJson()).practice).toBeNull();
  expect(
    (await consultantApi.delete(`/api/v1/projects/${projectId}/tasks/${(await colleague.json()).id}`)).status(),
  ).toBe(204);
  await closeToasts(page);

  // Broken rule: titles are unique (ignoring case).
  await page.goto('/');
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByRole('dialog', { name: 'New project' }).getByLabel('Title').fill(TITLE.toUpperCase());
  await page
    .getByRole('dialog', { name: 'New project' })
    .getByRole('button', { name: /create/i })
    .click();
  // on the Title field, and only there
  await expect(
    page.getByRole('dialog', { name: 'New project' }).getByText('A project with this title already exists.'),
  ).toBeVisible();
  await expectNoToast(page);
  await expect(page).toHaveURL(/\/$/);
});

test('the roster takes a Client Lead, refuses broken role rules, and then the project activates', async ({ page }) => {
  await openAs(page, 'consultant@demo.test', `${projectUrl}/team-roster`);
  await expect(page.getByRole('heading', { name: 'Team roster' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Consultant/ }).first()).toBeVisible();

  await choose(page, 'User to add', /lead@acme\.test|Acme Lead|Lena/);
  await choose(page, 'Role of the new member', 'Client Lead');
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('row', { name: /lead@acme\.test/ })).toContainText('Client Lead');

  // Broken rules the roster no longer offers: a lead (Lead Consultant, Client Lead) keeps the role until
  // it is given to someone else, so neither row has a role select and their Remove is off; the api still
  // refuses each change with its code.
  const consultantRow = page.getByRole('row', { name: /consultant@demo\.test/ });
  const leadRow = page.getByRole('row', { name: /lead@acme\.test/ });
  await expect(consultantRow).toContainText('Lead Consultant');
  await expect(consultantRow.getByRole('combobox')).toHaveCount(0);
  await expect(leadRow.getByRole('combobox')).toHaveCount(0);
  await expect(leadRow.getByRole('button', { name: /^Remove/ })).toBeDisabled();
  const onRoster: { id: string; email: string }[] = (
    await (await consultantApi.get(`/api/v1/projects/${projectId}/users`)).json()
  ).results;
  const idOf = (email: string) => onRoster.find((u) => u.email === email)!.id;
  for (const [email, role, code] of [
    // the lead consultant cannot also be the project manager
    ['consultant@demo.test', 'Project Manager', 'same_project_lead_and_manager'],
    // a lead role does not go to a user who already holds one
    ['consultant@demo.test', 'Client Lead', 'forbidden_role_assignment_for_lead'],
    // a lead cannot be removed until the role is reassigned
    ['lead@acme.test', null, 'lead_user_can_not_be_revoked'],
  ] as const) {
    const res = await consultantApi.patch(`/api/v1/projects/roles/${idOf(email)}/assignments`, {
      data: { projectId, role },
    });
    expect([email, role, res.status(), (await res.json()).code]).toEqual([email, role, 409, code]);
  }
  const roster = await (await consultantApi.get(`/api/v1/projects/${projectId}/users`)).json();
  const roles = Object.fromEntries(roster.results.map((m: { email: string; role: string }) => [m.email, m.role]));
  expect(roles).toEqual({ 'consultant@demo.test': 'Lead Consultant', 'lead@acme.test': 'Client Lead' });

  // Broken rules the roster's pickers never offer: the api still refuses them.
  const member = await (await consultantApi.get(`/api/v1/projects/${projectId}/assignable-users`)).json();
  const memberId = member.results.find((u: { email: string }) => u.email === 'member@acme.test').id;
  const staffRole = await consultantApi.patch(`/api/v1/projects/roles/${memberId}/assignments`, {
    data: { projectId, role: 'Consultant' },
  });
  expect([staffRole.status(), (await staffRole.json()).code]).toEqual([403, 'forbidden_role_assignment']);
  const memberApi = await apiAs('member@acme.test');
  const byClient = await memberApi.patch(`/api/v1/projects/roles/${memberId}/assignments`, {
    data: { projectId, role: 'Project Manager' },
  });
  expect([byClient.status(), (await byClient.json()).code]).toEqual([403, 'client_cannot_add_user_to_project']);

  await page.goto(projectUrl);
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(page.getByText('Active', { exact: true }).first()).toBeVisible();
  await expect.poll(async () => (await projectJson()).status).toBe('active');
});

test('tasks with a subtask, a control with a point of focus, found again through the address', async ({ page }) => {
  await openAs(page, 'consultant@demo.test', projectUrl);
  for (const [ref, title] of [
    ['VR-01', 'Collect the vendor inventory'],
    ['VR-02', 'Review SOC reports of critical vendors'],
  ]) {
    await page.getByRole('button', { name: 'New task' }).click();
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Task ID').fill(ref);
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('link', { name: title })).toBeVisible();
  }

  // Broken rule: Task IDs are unique within the project.
  await page.getByRole('button', { name: 'New task' }).click();
  const dup = page.getByRole('dialog', { name: 'New task' });
  await dup.getByLabel('Title').fill('A second inventory');
  await dup.getByLabel('Task ID').fill('vr-01');
  await dup.getByRole('button', { name: 'Create task' }).click();
  await expect(dup.getByText('Task IDs must be unique or null')).toBeVisible();
  await expectNoToast(page);
  await dup.getByRole('button', { name: 'Cancel' }).click();
  expect((await projectJson()).tasksTotal).toBe(2);

  // A subtask on the task page.
  await page.getByRole('link', { name: 'Collect the vendor inventory' }).click();
  await expect(page.getByRole('heading', { name: /Collect the vendor inventory/ })).toBeVisible();
  await page.getByRole('button', { name: 'Add subtask' }).click();
  const sub = page.getByRole('dialog', { name: 'Add subtask' });
  await sub.getByLabel('Title').fill('Export the vendor list from procurement');
  await sub.getByRole('button', { name: 'Add subtask' }).click();
  await expect(page.getByRole('link', { name: 'Export the vendor list from procurement' })).toBeVisible();
  await expect(page.getByText('Subtasks (0/1 done)')).toBeVisible();

  // A control with a point of focus.
  await page.goto(`${projectUrl}?view=controls`);
  await page.getByRole('button', { name: 'New control' }).click();
  const control = page.getByRole('dialog', { name: 'New control' });
  await control.getByLabel('Control ID').fill('VR.1');
  await control.getByLabel('Title').fill('Third parties are assessed before onboarding');
  await control.getByRole('button', { name: 'Create control' }).click();
  await expect(control).toBeHidden();

  // Broken rule: control IDs are unique within the project.
  await page.getByRole('button', { name: 'New control' }).click();
  const dupControl = page.getByRole('dialog', { name: 'New control' });
  await dupControl.getByLabel('Control ID').fill('vr.1');
  await dupControl.getByLabel('Title').fill('Again');
  await dupControl.getByRole('button', { name: 'Create control' }).click();
  await expect(dupControl.getByText('Control IDs must be unique.')).toBeVisible();
  await expectNoToast(page);
  await dupControl.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('link', { name: /VR\.1/ }).first().click();
  await page.getByRole('button', { name: /Add point of focus/ }).click();
  const pof = page.getByRole('dialog', { name: 'Add point of focus' });
  await pof.getByLabel('Name').fill('Due diligence covers security and privacy');
  await pof.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('Points of focus (1)')).toBeVisible();

  // The address is the state: the tab survives a reload, back and forward.
  await page.goto(`${projectUrl}?view=pointsOfFocus`);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Points of focus', selected: true })).toBeVisible();
  await expect(page.getByText('Due diligence covers security and privacy')).toBeVisible();
  await page.getByRole('tab', { name: 'Controls' }).click();
  await expect(page).toHaveURL(/view=controls/);
  await expect(page.getByText('Third parties are assessed before onboarding')).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Points of focus', selected: true })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('tab', { name: 'Controls', selected: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await expect(page.getByRole('link', { name: 'Review SOC reports of critical vendors' })).toBeVisible();
});

test('a large project opens on the addressed page of tasks after a reload', async ({ page }) => {
  const acme = (await (await consultantApi.get('/api/v1/companies?ignorePagination=true')).json()).results.find(
    (c: { name: string }) => c.name === 'Acme Corp',
  );
  const list = await (
    await consultantApi.get(`/api/v1/companies/${acme.id}/projects?search=SOC%202%20Type%20II`)
  ).json();
  const big = list.results[0];
  expect(big.tasksTotal).toBeGreaterThan(100);
  const third = await (await consultantApi.get(`/api/v1/projects/${big.id}/tasks?page=3&pageSize=25`)).json();

  await openAs(page, 'consultant@demo.test', `/v2/projects/${big.id}?tasksPage=3`);
  await expect(page.getByRole('link', { name: third.results[0].title }).first()).toBeVisible();
  await page.reload();
  await expect(page.locator('.ant-pagination-item-active')).toHaveText('3');
  await expect(page.getByRole('link', { name: third.results[0].title }).first()).toBeVisible();
  await page.locator('.ant-pagination-item').filter({ hasText: /^4$/ }).click();
  await expect(page).toHaveURL(/tasksPage=4/);
  await page.goBack();
  await expect(page).toHaveURL(/tasksPage=3/);
  await expect(page.locator('.ant-pagination-item-active')).toHaveText('3');
});

test('project rules broken on purpose are refused with their message and change nothing', async ({ page }) => {
  await openAs(page, 'consultant@demo.test', projectUrl);
  const before = await projectJson();

  // Cancel a project that has tasks: not offered, and the page says why; the api refuses it all the same.
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeDisabled();
  await expect(page.getByText('A project with tasks cannot be canceled.')).toBeVisible();
  const cancel = await consultantApi.post(`/api/v1/projects/${projectId}/status`, { data: { status: 'canceled' } });
  expect([cancel.status(), (await cancel.json()).code]).toEqual([409, 'project_with_tasks_cannot_be_canceled']);

  // Switch the type once a task is no longer OPEN or INCOMPLETE.
  const tasks = await (await consultantApi.get(`/api/v1/projects/${projectId}/tasks`)).json();
  const moved = await consultantApi.post(`/api/v1/projects/${projectId}/tasks/${tasks.results[0].id}/status`, {
    data: { status: 'IN_PROGRESS' },
  });
  expect(moved.status()).toBe(200);
  await page.reload();
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog');
  await choose(page, 'Type', before.type === 'Audit' ? 'Readiness' : 'Audit', edit);
  await edit.getByRole('button', { name: /save/i }).click();
  await expect(toast(page, "Tasks must be OPEN or INCOMPLETE to switch a project's type.")).toBeVisible();
  await closeToasts(page);
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // Change the practice of a project that has tasks: the edit form no longer offers it; the api refuses it.
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit2 = page.getByRole('dialog');
  await expect(edit2.getByLabel('Practice', { exact: true })).toBeDisabled();
  await edit2.getByRole('button', { name: 'Cancel' }).click();
  const practices: { id: string; status: string }[] = (await (await consultantApi.get('/api/v1/practices')).json())
    .results;
  const otherPractice = practices.find((p) => p.status === 'active' && p.id !== before.practice?.id)!;
  const practiceChange = await consultantApi.patch(`/api/v1/projects/${projectId}`, {
    data: { practiceId: otherPractice.id },
  });
  expect([practiceChange.status(), (await practiceChange.json()).code]).toEqual([
    409,
    'practices_can_not_be_changed_when_project_has_tasks',
  ]);

  const after = await projectJson();
  expect({ status: after.status, type: after.type, practice: after.practice?.id ?? null }).toEqual({
    status: before.status,
    type: before.type,
    practice: before.practice?.id ?? null,
  });
});

test("a client user sees the company's projects but cannot create one", async ({ page }) => {
  await openAs(page, 'member@acme.test', '/');
  const projects = page.getByRole('region', { name: 'Projects', exact: true });
  await expect(projects.getByRole('link', { name: 'Acme SOC 2 Type II 2026' })).toBeVisible();
  await expect(projects.getByRole('button', { name: /^Activate/ })).toHaveCount(0);
  await projects.getByLabel('Search projects').fill(TITLE);
  await expect(page).toHaveURL(/q=/);
  await expect(projects.getByRole('link', { name: TITLE })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New project' })).toHaveCount(0);

  const memberApi = await apiAs('member@acme.test');
  const acme = (await (await memberApi.get('/api/v1/companies')).json()).results.find(
    (c: { name: string }) => c.name === 'Acme Corp',
  );
  const res = await memberApi.post(`/api/v1/companies/${acme.id}/projects`, { data: { title: 'Made by a client' } });
  expect([res.status(), (await res.json()).code]).toEqual([403, 'user_can_not_update_project']);

  // A project of another company is not found for this client.
  const globexApi = await apiAs('client@globex.test');
  expect((await globexApi.get(`/api/v1/projects/${projectId}`)).status()).toBe(404);
});
