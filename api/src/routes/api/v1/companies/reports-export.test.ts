import { randomUUID } from 'node:crypto';
import {
  REPORT_KINDS,
  REPORT_LABELS,
  reportFileName,
  reportTables,
  type Report,
  type ReportKind,
} from '@portal/shared/core/reports';
import type { RequestStatus } from '@portal/shared/core/requests';
import type { TaskStatus } from '@portal/shared/core/projects';
import { insertCompany } from '../../../../db/companies';
import { setUserModuleAccess } from '../../../../db/module-access';
import { nowIso } from '../../../../db/values';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId as companyIdOf } from '../../../../test/identity';
import {
  expectedHeadings,
  expectedTables,
  pdfPageCount,
  pdfPageTexts,
  readReportCsv,
  readReportXlsx,
} from '../../../../test/report-files';
import { attachmentDisposition } from '../../../../modules/files/attachments';
import {
  day,
  insertControl,
  insertFile,
  insertTask,
  newActiveProject,
  newCompany,
  newUser,
} from '../../../../test/project-fixtures';
import { insertTestRequest, person, type Person } from '../../../../test/evidence-fixtures';

let t: TestApp;
let staff: string;
/** A company of this file's own, named with characters its file names drop. */
let company: { id: string; name: string };
/** Two projects of the company; alpha's title starts like a formula. */
let alpha: string;
let beta: string;
let alphaTitle: string;
/** Client members of the company: assignees of tasks and requests. */
let members: Person[];

const base = (id = company.id) => `/api/v1/companies/${id}/reports`;
const at = (offset: number) => `${day(offset)}T10:00:00.000Z`;

/** The filters every file is checked with: all projects and all time, then one project over a period. */
const FILTERS = () => [`today=${day(0)}`, `projectId=${alpha}&from=${day(-15)}&to=${day(0)}&today=${day(0)}`];

async function get(url: string, cookie = staff) {
  return t.api({ method: 'GET', url, cookie });
}

async function jsonReport(kind: ReportKind, query: string, cookie = staff): Promise<Report> {
  const res = await get(`${base()}/${kind}?${query}`, cookie);
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200, body: { kind } });
  return res.json() as Report;
}

async function download(url: string, cookie = staff): Promise<{ bytes: Buffer; type: string; disposition: string }> {
  const res = await get(url, cookie);
  expect({ url, status: res.statusCode, body: res.statusCode === 200 ? null : res.json() }).toMatchObject({
    url,
    status: 200,
  });
  return {
    bytes: res.rawPayload,
    type: String(res.headers['content-type']),
    disposition: String(res.headers['content-disposition']),
  };
}

async function refusal(url: string, cookie = staff): Promise<{ status: number; code: string; field?: string }> {
  const res = await get(url, cookie);
  const body = res.json();
  return { status: res.statusCode, code: body.code, ...(body.details ? { field: body.details[0]?.field } : {}) };
}

async function task(
  projectId: string,
  created: number,
  status: TaskStatus,
  dueDate: string | null,
  assigneeIds: string[] = [],
): Promise<string> {
  const id = await insertTask(t, projectId, { createdAt: at(created), status, dueDate, assigneeIds });
  if (status === 'COMPLETED')
    await t.database.db
      .updateTable('tasks')
      .set({ completed_at: at(created + 1), closed_at: at(created + 1) })
      .where('id', '=', id)
      .execute();
  return id;
}

async function request(
  projectId: string,
  created: number,
  status: RequestStatus,
  assigneeIds: string[],
  options: { due?: string; returns?: number } = {},
) {
  const { id } = await insertTestRequest(t, {
    companyId: company.id,
    projectId,
    status,
    assigneeIds,
    dueDate: options.due ?? null,
  });
  await t.database.db
    .updateTable('requests')
    .set({
      created_at: at(created),
      accepted_at: status === 'accepted' ? at(created + 2) : null,
      return_count: options.returns ?? 0,
    })
    .where('id', '=', id)
    .execute();
}

/** A control of the project with these linked tasks and points of focus; evidence when a linked task has a file. */
async function control(projectId: string, name: string, taskIds: string[], points: number, withFile: boolean) {
  const id = await insertControl(t, projectId, name);
  const db = t.database.db;
  for (const taskId of taskIds)
    await db.insertInto('control_tasks').values({ control_id: id, task_id: taskId }).execute();
  for (let i = 1; i <= points; i += 1) {
    const now = nowIso();
    await db
      .insertInto('points_of_focus')
      .values({
        id: randomUUID(),
        control_id: id,
        project_id: projectId,
        name: `${name} POF ${i}`,
        description: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  if (withFile) {
    const fileId = await insertFile(t, projectId);
    await db
      .insertInto('task_files')
      .values({ task_id: taskIds[0], file_id: fileId, created_by: null, created_at: nowIso() })
      .execute();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  staff = await t.cookieFor('consultant@demo.test');
  const name = `Fichiers & Chiffres ${randomUUID().slice(0, 8)}`;
  company = { id: await newCompany(t, name), name };
  members = [
    await person(t, { companyIds: [company.id], firstName: 'Ada' }),
    await person(t, { companyIds: [company.id], firstName: 'Grace' }),
  ];
  const [ada, grace] = members.map((m) => m.id);
  alpha = await newActiveProject(t, company.id, '=Alpha');
  beta = await newActiveProject(t, company.id, 'Beta');
  alphaTitle = (
    await t.database.db.selectFrom('projects').select('title').where('id', '=', alpha).executeTakeFirstOrThrow()
  ).title;

  const a1 = await task(alpha, -40, 'OPEN', day(-5), [ada]);
  const a2 = await task(alpha, -10, 'IN_PROGRESS', day(3), [ada, grace]);
  const a3 = await task(alpha, -8, 'COMPLETED', day(-20), [grace]);
  await task(alpha, -3, 'IN_REVIEW', day(-1));
  await task(alpha, -1, 'NOT_APPLICABLE', null);
  const b1 = await task(beta, -60, 'OPEN', day(-30), [grace]);
  await task(beta, -5, 'COMPLETED', null, [ada]);
  await control(alpha, 'CC1.1', [a1, a3], 3, true);
  await control(alpha, 'CC1.2', [a2], 2, false);
  await control(beta, 'CC2.1', [b1], 1, false);
  await control(beta, 'CC2.2', [], 2, false);

  await request(alpha, -50, 'open', [ada], { due: day(-2) });
  await request(alpha, -12, 'submitted', [grace], { returns: 1 });
  await request(alpha, -9, 'accepted', [ada, grace], { returns: 2 });
  await request(alpha, -4, 'returned', [], { due: day(-1), returns: 1 });
  await request(beta, -20, 'accepted', [grace]);
  await request(beta, -2, 'canceled', [ada]);
});
afterAll(() => t.close());

describe('report exports (CSV and XLSX)', () => {
  it.each(REPORT_KINDS.map((kind) => [kind]))(
    'writes the %s report as both files, with the numbers of its JSON report',
    async (kind) => {
      for (const query of FILTERS()) {
        const report = await jsonReport(kind, query);
        const tables = reportTables(report);
        // Not an empty report: the first table's first row holds figures of this company's rows.
        expect(tables[0].rows[0].some((cell) => typeof cell === 'number' && cell > 0)).toBe(true);
        // All but the generation time, which is each call's own.
        const headings = expectedHeadings(kind, report.meta).slice(0, -1);

        const csv = await download(`${base()}/${kind}/export?format=csv&${query}`);
        expect(csv.type).toBe('text/csv; charset=utf-8');
        expect(csv.disposition).toBe(attachmentDisposition(reportFileName(kind, report.meta, 'csv')));
        const csvFile = readReportCsv(csv.bytes);
        expect(csvFile.headings.slice(0, -1)).toEqual(headings);
        expect(csvFile.tables).toEqual(expectedTables(tables));

        const xlsx = await download(`${base()}/${kind}/export?format=xlsx&${query}`);
        expect(xlsx.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
        expect(xlsx.disposition).toBe(attachmentDisposition(reportFileName(kind, report.meta, 'xlsx')));
        const xlsxFile = await readReportXlsx(xlsx.bytes);
        expect(xlsxFile.headings.slice(0, -1)).toEqual(headings);
        expect(xlsxFile.tables).toEqual(expectedTables(tables, { xlsx: true }));
      }
    },
  );

  it("names the file after the kind, the company and the caller's day", async () => {
    const { disposition } = await download(`${base()}/status/export?format=csv&today=${day(-1)}`);
    const slug = company.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    expect(disposition).toBe(attachmentDisposition(`status-report-${slug}-${day(-1)}.csv`));
  });

  it("writes the project's title formula-safe", async () => {
    const csv = readReportCsv((await download(`${base()}/status/export?format=csv&projectId=${alpha}`)).bytes);
    expect(csv.headings).toContainEqual(['Project', `'${alphaTitle}`]);
    expect(csv.tables.find((table) => table.title === 'Projects')!.rows.map((row) => row[0])).toEqual([
      `'${alphaTitle}`,
    ]);
  });

  it('refuses a format other than csv or xlsx, naming the field', async () => {
    for (const format of ['', 'format=pdf', 'format=CSV', 'format=xlsx&format=csv']) {
      expect(await refusal(`${base()}/status/export?${format}`)).toEqual({
        status: 400,
        code: 'validation_failed',
        field: 'format',
      });
    }
  });

  it('refuses bad filters, naming the field', async () => {
    expect(await refusal(`${base()}/status/export?format=csv&from=${day(0)}&to=${day(-1)}`)).toEqual({
      status: 400,
      code: 'validation_failed',
      field: 'to',
    });
    expect(await refusal(`${base()}/pdf?today=${day(-5)}`)).toEqual({
      status: 400,
      code: 'validation_failed',
      field: 'today',
    });
  });

  it("answers 404 for an unknown report and for another company's project", async () => {
    const acmeProject = await newActiveProject(t, await companyIdOf(t, 'Acme Corp'), 'Acme export');
    expect(await refusal(`${base()}/budget/export?format=csv`)).toMatchObject({ status: 404, code: 'not_found' });
    expect(await refusal(`${base()}/status/export?format=xlsx&projectId=${acmeProject}`)).toMatchObject({
      status: 404,
      code: 'project_not_found',
    });
    expect(await refusal(`${base()}/pdf?projectId=${acmeProject}`)).toMatchObject({
      status: 404,
      code: 'project_not_found',
    });
  });
});

describe('report PDF', () => {
  it("is the whole report: a PDF naming the company, the filters and every report, with the JSON reports' figures", async () => {
    const query = FILTERS()[1];
    const { bytes, type, disposition } = await download(`${base()}/pdf?${query}`);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(type).toBe('application/pdf');
    const status = await jsonReport('status', query);
    expect(disposition).toBe(attachmentDisposition(reportFileName('all', status.meta, 'pdf')));

    const pages = pdfPageTexts(bytes);
    expect(pages.length).toBe(pdfPageCount(bytes));
    pages.forEach((page, index) => expect(page).toContain(`Page ${index + 1} of ${pages.length}`));
    const lines = pages.join('\n').split('\n');
    expect(lines[0]).toBe('Compliance report');
    expect(lines).toEqual(
      expect.arrayContaining([
        company.name,
        alphaTitle,
        `${day(-15)} to ${day(0)}`,
        ...REPORT_KINDS.map((kind) => REPORT_LABELS[kind]),
      ]),
    );
    // The status summary: its column titles, then the JSON report's figures.
    const summary = lines.indexOf('Summary');
    const { tasks, open, closed, overdue, percentClosed } = (status as Extract<Report, { kind: 'status' }>).totals;
    expect(lines.slice(summary + 1, summary + 11)).toEqual([
      'Tasks',
      'Open',
      'Closed',
      'Overdue',
      'Closed %',
      String(tasks),
      String(open),
      String(closed),
      String(overdue),
      `${percentClosed}%`,
    ]);
  });

  it('leaves out the reports of a module the caller does not have', async () => {
    const [, grace] = members;
    await setUserModuleAccess(t.database.db, company.id, grace.id, 'requests', false);
    try {
      const lines = pdfPageTexts((await download(`${base()}/pdf?today=${day(0)}`, grace.cookie)).bytes)
        .join('\n')
        .split('\n');
      expect(lines).toEqual(
        expect.arrayContaining([REPORT_LABELS.status, REPORT_LABELS.controls, REPORT_LABELS.workload]),
      );
      expect(lines).not.toContain(REPORT_LABELS.requests);
      expect(lines).toContain('Requests are left out: the requests module is off for you in this company.');
      expect(await refusal(`${base()}/requests/export?format=csv`, grace.cookie)).toMatchObject({
        status: 403,
        code: 'module_access_denied',
      });
    } finally {
      await setUserModuleAccess(t.database.db, company.id, grace.id, 'requests', null);
    }
  });
});

describe('access to the files', () => {
  it('refuses both files when the reports module is off for the caller or the company', async () => {
    const client = await newUser(t, { companyIds: [company.id] });
    await setUserModuleAccess(t.database.db, company.id, client.id, 'reports', false);
    const clientCookie = await t.cookieFor(client.email);
    const withoutReports = await insertCompany(t.database.db, {
      name: `No reports ${randomUUID().slice(0, 8)}`,
      modulesAccess: { risks: true, projects: true, requests: true, reports: false, assets: true },
    });
    const refused = { status: 403, code: 'module_access_denied' };
    for (const kind of REPORT_KINDS)
      expect(await refusal(`${base()}/${kind}/export?format=csv`, clientCookie)).toMatchObject(refused);
    expect(await refusal(`${base()}/pdf`, clientCookie)).toMatchObject(refused);
    expect(await refusal(`${base(withoutReports)}/status/export?format=xlsx`)).toMatchObject(refused);
    expect(await refusal(`${base(withoutReports)}/pdf`)).toMatchObject(refused);
  });
});
