/**
 * Practices and task tracker templates (issue 7), in a real browser against the real server: a
 * consultant creates a practice, imports a 500-row CSV into a new template, publishes it and applies
 * it to a new project; an .xlsx with a repeated Task ID is refused with its message and nothing is
 * imported; a file named tracker.txt gets the CSV message. The tests share one server and run in order.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiAs, expect, openAs, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const PRACTICE = `E2E Practice ${RUN}`;
const TEMPLATE = `E2E Tracker ${RUN}`;
const COLUMNS = [
  'Task ID',
  'Parent Task ID',
  'Task Title',
  'Task Description',
  'Control ID',
  'Control Title',
  'Control Description',
  'Points of Focus',
];

let consultantApi: APIRequestContext;
let practiceId = '';

const toast = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text });

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** 500 tasks: every fifth a subtask of the task before it, every tenth linked to a control with points of focus. */
function trackerCsv(rows = 500): Buffer {
  const lines = [COLUMNS.join(',')];
  let parent = '';
  for (let i = 1; i <= rows; i++) {
    const id = `E2E-${String(i).padStart(3, '0')}`;
    const isSub = i % 5 === 0;
    if (!isSub) parent = id;
    const control = i % 10 === 1 ? `CTRL-${Math.ceil(i / 10)}` : '';
    lines.push(
      [
        id,
        isSub ? parent : '',
        `Collect evidence ${i}`,
        `Step ${i}, with a comma`,
        control,
        control ? `Control ${control}` : '',
        '',
        control ? 'Design; Operation' : '',
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return Buffer.from(lines.join('\r\n') + '\r\n', 'utf8');
}

async function duplicateIdsXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Tasks');
  sheet.addRow(COLUMNS);
  sheet.addRow(['DUP-1', '', 'First task']);
  sheet.addRow(['DUP-2', '', 'Second task']);
  sheet.addRow(['dup-1', '', 'Third task, same ID ignoring case']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function templatesOfPractice(): Promise<{ name: string; status: string; taskCount: number; id: string }[]> {
  const res = await consultantApi.get(`/api/v1/practices/${practiceId}/task-trackers`);
  expect(res.status()).toBe(200);
  return (await res.json()).results;
}

async function openImportDialog(page: Page) {
  await page.getByRole('button', { name: 'Import template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import template' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.beforeAll(async () => {
  consultantApi = await apiAs('consultant@demo.test');
});

test('a consultant creates a practice and imports a 500-row CSV into a template, then publishes it', async ({
  page,
}) => {
  await openAs(page, 'consultant@demo.test', '/settings/practices');
  await expect(page.getByRole('heading', { name: 'Practices & Templates' })).toBeVisible();
  await page.getByRole('button', { name: 'New practice' }).click();
  const create = page.getByRole('dialog', { name: 'New practice' });
  await create.getByLabel('Name').fill(PRACTICE);
  await create.getByLabel('Description').fill('Practice made by the browser tests');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();

  await page.getByRole('link', { name: PRACTICE }).click();
  await page.waitForURL(/\/settings\/practices\/[^/?]+$/);
  practiceId = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByRole('heading', { name: PRACTICE })).toBeVisible();

  const dialog = await openImportDialog(page);
  await dialog.getByLabel('Name').fill(TEMPLATE);
  await dialog
    .getByLabel('Task tracker file')
    .setInputFiles({ name: 'tracker-500.csv', mimeType: 'text/csv', buffer: trackerCsv() });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(toast(page, `Imported ${TEMPLATE}: 500 tasks`)).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: TEMPLATE });
  await expect(row).toContainText('Draft');

  const [created] = (await templatesOfPractice()).filter((t) => t.name === TEMPLATE);
  expect(created).toMatchObject({ status: 'draft', taskCount: 500 });

  await page.getByRole('button', { name: `Publish ${TEMPLATE}` }).click();
  await expect(row).toContainText('Published');
  expect((await templatesOfPractice()).find((t) => t.name === TEMPLATE)?.status).toBe('published');
});

test('the published template is applied to a new project and its 500 tasks appear there', async ({ page }) => {
  const companies = (await (await consultantApi.get('/api/v1/companies?ignorePagination=true')).json()).results as {
    id: string;
    name: string;
  }[];
  const acme = companies.find((c) => c.name === 'Acme Corp')!;
  const res = await consultantApi.post(`/api/v1/companies/${acme.id}/projects`, {
    data: { title: `E2E Template Project ${RUN}` },
  });
  expect(res.status()).toBe(201);
  const project = await res.json();

  await openAs(page, 'consultant@demo.test', `/v2/projects/${project.id}`);
  await page.getByRole('button', { name: 'Apply template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Apply template' });
  await dialog.getByLabel('Template', { exact: true }).click();
  await page.locator('.ant-select-dropdown:visible').getByText(`${TEMPLATE} — ${PRACTICE}`).click();
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(toast(page, `Applied ${TEMPLATE}: 500 tasks created`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: 'Collect evidence 1', exact: true })).toBeVisible();

  const detail = await (await consultantApi.get(`/api/v1/projects/${project.id}`)).json();
  expect(detail.practice?.id).toBe(practiceId);
  const tasks = await (await consultantApi.get(`/api/v1/projects/${project.id}/tasks?pageSize=1`)).json();
  // 400 top-level tasks, each fifth row a subtask
  expect(tasks.total).toBe(400);
  const controls = await (await consultantApi.get(`/api/v1/projects/${project.id}/controls?pageSize=1`)).json();
  expect(controls.total).toBe(50);
});

test('an .xlsx with a repeated Task ID is refused with its message and nothing is imported', async ({ page }) => {
  const before = (await templatesOfPractice()).length;
  await openAs(page, 'consultant@demo.test', `/settings/practices/${practiceId}`);
  const dialog = await openImportDialog(page);
  await dialog.getByLabel('Name').fill(`${TEMPLATE} duplicates`);
  await dialog.getByLabel('Task tracker file').setInputFiles({
    name: 'duplicates.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await duplicateIdsXlsx(),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  const alert = dialog.getByRole('alert');
  await expect(alert).toContainText('Task IDs must be unique or null');
  await expect(alert).toContainText('Row 4');
  await expect(dialog).toBeVisible();
  expect(await templatesOfPractice()).toHaveLength(before);
  await expect(page.getByRole('row').filter({ hasText: `${TEMPLATE} duplicates` })).toHaveCount(0);
});

test('a file named tracker.txt gets the CSV message, in the page and from the server', async ({ page }) => {
  await openAs(page, 'consultant@demo.test', `/settings/practices/${practiceId}`);
  const dialog = await openImportDialog(page);
  await dialog.getByLabel('Name').fill(`${TEMPLATE} text`);
  await dialog
    .getByLabel('Task tracker file')
    .setInputFiles({ name: 'tracker.txt', mimeType: 'text/plain', buffer: trackerCsv(3) });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(
    dialog.getByText('Only CSV files are accepted. This may just require adding a .csv to the filename.'),
  ).toBeVisible();

  // the server applies the same rule to a caller that skips the page
  const res = await consultantApi.post(`/api/v1/practices/${practiceId}/task-trackers/import`, {
    multipart: {
      name: `${TEMPLATE} text`,
      file: { name: 'tracker.txt', mimeType: 'text/plain', buffer: trackerCsv(3) },
    },
  });
  expect(res.status()).toBe(415);
  expect(await res.json()).toMatchObject({ code: 'no_csv_file' });
  expect((await templatesOfPractice()).some((t) => t.name === `${TEMPLATE} text`)).toBe(false);
});
