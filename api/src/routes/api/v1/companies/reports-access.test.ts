/**
 * Who sees which projects in the reports (issue 9; contract shared/src/core/reports): the options'
 * project list and the files of an auditor hold their projects only; a caller without any report gets
 * no project list.
 */
import { randomUUID } from 'node:crypto';
import type { ReportOptions } from '@portal/shared/core/reports';
import { setUserModuleAccess } from '../../../../db/module-access';
import { createTestApp, type TestApp } from '../../../../test/app';
import { pdfPageTexts, readReportCsv } from '../../../../test/report-files';
import { insertControl, insertTask, newActiveProject, newCompany } from '../../../../test/project-fixtures';
import { person, type Person } from '../../../../test/evidence-fixtures';

let t: TestApp;
let company: string;
let staff: string;
/** Titled so that they list alpha, Bravo, Charlie whatever their case; the auditor holds a role on alpha and Charlie. */
let projects: Record<'alpha' | 'bravo' | 'charlie', { id: string; title: string }>;
let auditor: Person;

const base = (id = company) => `/api/v1/companies/${id}/reports`;

async function options(cookie: string): Promise<ReportOptions> {
  const res = await t.api({ method: 'GET', url: `${base()}/options`, cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
  return res.json() as ReportOptions;
}

async function download(url: string, cookie: string): Promise<Buffer> {
  const res = await t.api({ method: 'GET', url, cookie });
  expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
  return res.rawPayload;
}

beforeAll(async () => {
  t = await createTestApp();
  staff = await t.cookieFor('consultant@demo.test');
  company = await newCompany(t, `Reports access ${Date.now()}`);
  auditor = await person(t, { isTevora: true, isAuditor: true });
  const project = async (title: string, roles: Parameters<typeof newActiveProject>[3]) => {
    const id = await newActiveProject(t, company, title, roles);
    // Short enough for one line of a PDF table cell.
    const short = `${title} ${randomUUID().slice(0, 6)}`;
    await t.database.db.updateTable('projects').set({ title: short }).where('id', '=', id).execute();
    // Work in each, so a project that leaked would have rows in every report.
    await insertTask(t, id, { dueDate: '2020-01-01' });
    await insertControl(t, id, `${title.toUpperCase()}-1`);
    return { id, title: short };
  };
  projects = {
    charlie: await project('Charlie', [[auditor.id, 'Consultant']]),
    bravo: await project('Bravo', []),
    alpha: await project('alpha', [[auditor.id, 'Consultant']]),
  };
});
afterAll(() => t.close());

describe('GET …/reports/options', () => {
  it('lists every project of the company to staff, and an auditor only theirs, in title order', async () => {
    const { alpha, bravo, charlie } = projects;
    const asList = (...ps: { id: string; title: string }[]) => ps.map((p) => ({ ...p, status: 'active' }));
    expect((await options(staff)).projects).toEqual(asList(alpha, bravo, charlie));
    expect((await options(auditor.cookie)).projects).toEqual(asList(alpha, charlie));
  });

  it('treats a client flagged as an auditor as the rest of the api does: their projects only', async () => {
    const client = await person(t, { companyIds: [company], isAuditor: true });
    await t.database.db
      .insertInto('project_members')
      .values({ project_id: projects.bravo.id, user_id: client.id, role: 'Project Manager' })
      .execute();
    expect((await options(client.cookie)).projects.map((p) => p.id)).toEqual([projects.bravo.id]);
    const res = await t.api({
      method: 'GET',
      url: `${base()}/status?projectId=${projects.alpha.id}`,
      cookie: client.cookie,
    });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'project_not_found' });
  });

  it('answers no projects to a caller who has no report', async () => {
    const client = await person(t, { companyIds: [company] });
    expect((await options(client.cookie)).projects).toHaveLength(3);
    await setUserModuleAccess(t.database.db, company, client.id, 'projects', false);
    await setUserModuleAccess(t.database.db, company, client.id, 'requests', false);
    expect(await options(client.cookie)).toEqual({ kinds: [], projects: [] });
  });
});

describe("an auditor's files", () => {
  it("name their projects and never another's: the CSV of each report and the PDF", async () => {
    const { alpha, bravo, charlie } = projects;
    const texts: [string, string][] = [];
    for (const kind of ['status', 'controls', 'workload', 'requests']) {
      const csv = readReportCsv(await download(`${base()}/${kind}/export?format=csv`, auditor.cookie));
      texts.push([`${kind} CSV`, JSON.stringify(csv)]);
    }
    texts.push(['PDF', pdfPageTexts(await download(`${base()}/pdf`, auditor.cookie)).join('\n')]);
    for (const [file, text] of texts)
      expect({ file, leaked: text.includes(bravo.title) }).toEqual({ file, leaked: false });
    // The per-project tables do list the auditor's own.
    const [status, controls, , , pdf] = texts.map(([, text]) => text);
    for (const text of [status, controls, pdf])
      expect([text.includes(alpha.title), text.includes(charlie.title)]).toEqual([true, true]);
    // Staff's files do name the third project: the test would see a leak.
    expect(pdfPageTexts(await download(`${base()}/pdf`, staff)).join('\n')).toContain(bravo.title);
  });
});
