/**
 * Reports (issue 9), in a real browser against the real server: a consultant opens each report of Acme
 * Corp, the figures on the page equal what the api computes for the same filters, and they follow the
 * project and period filters; the table view shows the chart's numbers; the CSV, XLSX and PDF downloads
 * hold the same numbers, the company, the filters and the generation time. A client whose reports
 * module is off gets 403 from every report call (portal.spec checks the remote is never fetched).
 * Other specs change Acme's data, so the expected numbers are read from the api in the test, never
 * written down.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { ReportKind, ReportOf, ReportOptions } from '../../shared/src/core/reports';
import { apiAs, expect, openAs, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

/** The browser's day (YYYY-MM-DD): the page sends it as `today`. */
function localDay(offset = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A small RFC 4180 reader (quotes, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** The rows under the section titled `title` in a report CSV (after its column titles, up to the empty row). */
function csvSection(rows: string[][], title: string): string[][] {
  const at = rows.findIndex((r) => r[0] === title && r.slice(1).every((c) => c === ''));
  expect(at, `section ${title}`).toBeGreaterThanOrEqual(0);
  const out: string[][] = [];
  for (let i = at + 2; i < rows.length && rows[i].some((c) => c !== ''); i++) out.push(rows[i]);
  return out;
}

async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // the standard fonts' metrics ship with pdfjs: text extraction needs them for Helvetica
  const standardFontDataUrl = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl,
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  return pages.join('\n');
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The value of the summary figure titled `title`. */
function figure(page: Page, title: string): Locator {
  return page
    .locator('.ant-statistic')
    .filter({
      has: page.locator('.ant-statistic-title', { hasText: new RegExp(`^${title.replace(/[%]/g, '\\$&')}$`) }),
    })
    .locator('.ant-statistic-content')
    .first();
}

/** A report section (a table of the report) by its title. */
const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

async function showTable(page: Page, title: string): Promise<Locator> {
  const region = section(page, title);
  await region.getByText('Table', { exact: true }).click();
  const table = region.locator('table').first();
  await expect(table).toBeVisible();
  return table;
}

/** The text of every body row of a visible antd table: [first cell, second cell, …]. */
async function tableRows(table: Locator): Promise<string[][]> {
  const rows = table.locator('tbody tr.ant-table-row');
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++)
    out.push((await rows.nth(i).locator('td').allInnerTexts()).map((t) => t.trim()));
  return out;
}

let api: APIRequestContext;
let acme: { id: string; name: string };
let page: Page;

async function report<K extends ReportKind>(kind: K, filters: Record<string, string> = {}): Promise<ReportOf<K>> {
  const query = new URLSearchParams({ today: localDay(), ...filters });
  const res = await api.get(`/api/v1/companies/${acme.id}/reports/${kind}?${query}`);
  expect(res.status(), `${kind} report`).toBe(200);
  return res.json();
}

test.beforeAll(async ({ browser }) => {
  api = await apiAs('consultant@demo.test');
  acme = (await (await api.get('/api/v1/companies?search=Acme')).json()).results[0];
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, acceptDownloads: true });
  page = await context.newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await api?.dispose();
});

test('the project status report shows the api figures and follows the project and period filters', async () => {
  await openAs(page, 'consultant@demo.test', '/reports');
  await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
  for (const tab of ['Project status', 'Requests', 'Controls', 'Team workload'])
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();

  const all = await report('status');
  expect(all.totals.tasks).toBeGreaterThan(0);
  await expect(figure(page, 'Tasks')).toHaveText(fmt(all.totals.tasks));
  await expect(figure(page, 'Overdue')).toHaveText(fmt(all.totals.overdue));

  // the table view of "Tasks by status" holds the chart's numbers
  const byStatus = await tableRows(await showTable(page, 'Tasks by status'));
  expect(byStatus.map((r) => Number(r[1].replace(/,/g, '')))).toEqual(all.byStatus.map((s) => s.count));

  // one project: the figures are that project's (and differ from all projects')
  const options: ReportOptions = await (await api.get(`/api/v1/companies/${acme.id}/reports/options`)).json();
  const perProject = all.byProject.filter((p) => p.tasks > 0 && p.tasks < all.totals.tasks);
  expect(perProject.length).toBeGreaterThan(0);
  const chosen = perProject[0];
  expect(options.projects.map((p) => p.id)).toContain(chosen.projectId);
  const project = page.getByLabel('Project', { exact: true });
  await project.click();
  await project.fill(chosen.title);
  await page.locator('.ant-select-item-option').filter({ hasText: chosen.title }).first().click();
  await expect(page).toHaveURL(new RegExp(`project=${chosen.projectId}`));
  await expect(figure(page, 'Tasks')).toHaveText(fmt(chosen.tasks));
  const one = await report('status', { projectId: chosen.projectId });
  expect(one.totals.tasks).toBe(chosen.tasks);
  await expect(figure(page, 'Overdue')).toHaveText(fmt(one.totals.overdue));

  // a period: the page sends it and shows what the api counts for it
  await page.getByRole('button', { name: 'Last 30 days' }).click();
  await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}/);
  const url = new URL(page.url());
  const period = await report('status', {
    projectId: chosen.projectId,
    from: url.searchParams.get('from')!,
    to: url.searchParams.get('to')!,
  });
  await expect(figure(page, 'Tasks')).toHaveText(fmt(period.totals.tasks));
  // a period before any work: nothing
  await page.goto(`/reports?report=status&project=${chosen.projectId}&from=2001-01-01&to=2001-12-31`);
  await expect(figure(page, 'Tasks')).toHaveText('0');
  await page.getByRole('button', { name: 'All time' }).click();
  await expect(figure(page, 'Tasks')).toHaveText(fmt(chosen.tasks));
});

test('the requests, controls and workload reports show the api figures', async () => {
  await page.goto('/reports');
  await page.getByRole('tab', { name: 'Requests' }).click();
  await expect(page).toHaveURL(/report=requests/);
  const requests = await report('requests');
  expect(requests.totals.requests).toBeGreaterThan(0);
  await expect(figure(page, 'Requests')).toHaveText(fmt(requests.totals.requests));
  await expect(figure(page, 'Active')).toHaveText(fmt(requests.totals.active));
  const ages = await tableRows(await showTable(page, 'Active requests by age'));
  expect(ages.map((r) => Number(r[1].replace(/,/g, '')))).toEqual(requests.openByAge.map((b) => b.count));

  await page.getByRole('tab', { name: 'Controls' }).click();
  const controls = await report('controls');
  expect(controls.totals.controls).toBeGreaterThan(0);
  await expect(figure(page, 'Controls')).toHaveText(fmt(controls.totals.controls));
  await expect(figure(page, 'With evidence')).toHaveText(fmt(controls.totals.withEvidence));
  await expect(page.getByText(/period does not apply/i)).toBeVisible();

  await page.getByRole('tab', { name: 'Team workload' }).click();
  const workload = await report('workload');
  await expect(figure(page, 'Open tasks')).toHaveText(fmt(workload.totals.openTasks));
  const people = await tableRows(await showTable(page, 'Workload by person'));
  expect(people.length).toBe(Math.min(workload.people.length, 50));
  expect(people[0][0]).toBe(workload.people[0].name);
});

test('the CSV, XLSX and PDF downloads hold the report numbers, the company, the filters and the time', async () => {
  const all = await report('status');
  const chosen = all.byProject.find((p) => p.tasks > 0)!;
  await page.goto(`/reports?report=status&project=${chosen.projectId}`);
  await expect(figure(page, 'Tasks')).toHaveText(fmt(chosen.tasks));
  const expected = await report('status', { projectId: chosen.projectId });

  // CSV of the project status report
  let downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  let download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^status-report-acme-corp-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = parseCsv(fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, ''));
  expect(csv).toContainEqual(['Company', acme.name]);
  expect(csv).toContainEqual(['Project', chosen.title]);
  expect(csv.find((r) => r[0] === 'Generated')?.[1]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  expect(csvSection(csv, 'Tasks by status').map((r) => Number(r[1]))).toEqual(expected.byStatus.map((s) => s.count));
  expect(Number(csvSection(csv, 'Summary')[0][0])).toBe(expected.totals.tasks);

  // XLSX of the requests report
  await page.getByRole('tab', { name: 'Requests' }).click();
  const requests = await report('requests', { projectId: chosen.projectId });
  await expect(figure(page, 'Requests')).toHaveText(fmt(requests.totals.requests));
  downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download XLSX' }).click();
  download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^requests-report-acme-corp-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const heading = workbook.getWorksheet('Report')!;
  const headingRows = heading
    .getSheetValues()
    .filter(Boolean)
    .map((r) => (r as unknown[]).slice(1).map(String));
  expect(headingRows).toContainEqual(['Company', acme.name]);
  expect(headingRows).toContainEqual(['Project', chosen.title]);
  const sheet = workbook.getWorksheet('Requests by status')!;
  const counts: number[] = [];
  sheet.eachRow((row, n) => {
    const value = row.getCell(2).value;
    if (typeof value === 'number' && n > 1) counts.push(value);
  });
  expect(counts).toEqual(requests.byStatus.map((s) => s.count));

  // PDF of the whole report
  downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^report-acme-corp-\d{4}-\d{2}-\d{2}\.pdf$/);
  const bytes = fs.readFileSync(await download.path());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
  for (const words of [
    acme.name,
    chosen.title,
    'Project status',
    'Requests by status',
    'Coverage',
    'Workload by person',
    'Generated',
  ])
    expect(text).toContain(words);
  expect(text).toMatch(new RegExp(`Generated ${new Date().getUTCFullYear()}-\\d{2}-\\d{2}`));
});

test('a client whose reports module is off gets 403 from every report call', async () => {
  const member = await apiAs('member@acme.test');
  try {
    for (const path of ['options', 'status', 'requests', 'status/export?format=csv', 'pdf']) {
      const res = await member.get(`/api/v1/companies/${acme.id}/reports/${path}`);
      expect({ path, status: res.status() }).toEqual({ path, status: 403 });
    }
  } finally {
    await member.dispose();
  }
});
