import {
  REPORT_LABELS,
  REPORT_PDF_MAX_ROWS,
  reportHeadings,
  reportTables,
  type ControlsReport,
  type Report,
  type ReportMeta,
  type RequestsReport,
  type StatusReport,
  type WorkloadReport,
} from '@portal/shared/core/reports';
import {
  expectedHeadings,
  expectedTables,
  pdfPageCount,
  pdfPageTexts,
  readReportCsv,
  readReportXlsx,
} from '../../test/report-files';
import { PARALLEL_PDFS, reportPdf, withPdfSlot } from './report-pdf';
import { reportSpreadsheet } from './report-spreadsheet';

// Reports built by hand in the contract's shapes: the files are tested apart from the queries.

const meta = (over: Partial<ReportMeta> = {}): ReportMeta => ({
  company: { id: 'c1', name: 'Acme Corp' },
  project: null,
  from: '2026-09-01',
  to: null,
  today: '2026-11-23',
  generatedAt: '2026-11-23T08:00:00.000Z',
  ...over,
});

const project = (i: number, title = `Project ${String(i).padStart(2, '0')}`) => ({
  projectId: `p${i}`,
  title,
  status: 'active' as const,
  tasks: 30 + i,
  open: 18,
  closed: 12 + i,
  overdue: 5,
  percentClosed: 40 + i / 10,
});

const status = (m = meta(), projects = 2): StatusReport => ({
  kind: 'status',
  meta: m,
  totals: { tasks: 40, open: 25, closed: 15, overdue: 6, percentClosed: 37.5 },
  byStatus: [
    { status: 'OPEN', count: 12 },
    { status: 'IN_PROGRESS', count: 8 },
    { status: 'INCOMPLETE', count: 2 },
    { status: 'IN_REVIEW', count: 3 },
    { status: 'COMPLETED', count: 13 },
    { status: 'NOT_APPLICABLE', count: 2 },
  ],
  byProject: Array.from({ length: projects }, (_, i) => project(i)),
  progress: {
    bucket: 'week',
    points: [
      { start: '2026-11-02', end: '2026-11-08', created: 20, closed: 5, open: 15 },
      { start: '2026-11-09', end: '2026-11-15', created: 12, closed: 6, open: 21 },
    ],
  },
});

const requests = (m = meta(), reviewed = true): RequestsReport => ({
  kind: 'requests',
  meta: m,
  totals: reviewed
    ? {
        requests: 1400,
        active: 9,
        overdue: 3,
        accepted: 3,
        reviewed: 5,
        returned: 2,
        returnedRate: 0.4,
        averageDaysToAccept: 4.5,
      }
    : {
        requests: 4,
        active: 4,
        overdue: 0,
        accepted: 0,
        reviewed: 0,
        returned: 0,
        returnedRate: null,
        averageDaysToAccept: null,
      },
  byStatus: [
    { status: 'open', count: 5 },
    { status: 'submitted', count: 2 },
    { status: 'returned', count: 2 },
    { status: 'accepted', count: 3 },
    { status: 'canceled', count: 2 },
  ],
  openByAge: [
    { bucket: 'week', count: 4 },
    { bucket: 'month', count: 3 },
    { bucket: 'quarter', count: 2 },
    { bucket: 'older', count: 0 },
  ],
  timeToAccept: [
    { bucket: 'day', count: 1 },
    { bucket: 'week', count: 1 },
    { bucket: 'month', count: 1 },
    { bucket: 'longer', count: 0 },
  ],
  byAssignee: reviewed
    ? [
        {
          userId: 'u1',
          teamId: null,
          name: '@SUM(A1) Lovelace',
          active: 5,
          overdue: 2,
          submitted: 1,
          accepted: 2,
          returned: 1,
        },
        {
          userId: null,
          teamId: null,
          name: 'Unassigned',
          active: 4,
          overdue: 1,
          submitted: 1,
          accepted: 1,
          returned: 1,
        },
      ]
    : [],
});

const controls = (m = meta()): ControlsReport => ({
  kind: 'controls',
  meta: m,
  totals: {
    controls: 20,
    withTasks: 18,
    withEvidence: 8,
    pointsOfFocus: 50,
    pointsOfFocusCovered: 21,
    percentCovered: 40,
  },
  byProject: [
    {
      projectId: 'p1',
      title: '+Plus project',
      controls: 20,
      withTasks: 18,
      withEvidence: 8,
      pointsOfFocus: 50,
      pointsOfFocusCovered: 21,
      percentCovered: 40,
    },
  ],
});

const person = (i: number, name = `Person ${String(i).padStart(3, '0')}`) => ({
  userId: `u${i}`,
  name,
  email: `person${i}@acme.test`,
  staff: i % 2 === 0,
  openTasks: i,
  overdueTasks: 1,
  activeRequests: 2,
  overdueRequests: 0,
  total: i + 2,
});

const workload = (m = meta(), requestsIncluded = true, people = [person(1), person(2)]): WorkloadReport => ({
  kind: 'workload',
  meta: m,
  requestsIncluded,
  people,
  totals: {
    openTasks: 25,
    overdueTasks: 6,
    unassignedTasks: 14,
    activeRequests: 9,
    overdueRequests: 3,
    unassignedRequests: 4,
  },
});

const everyKind = (m = meta()): Report[] => [status(m), requests(m), controls(m), workload(m)];

describe('reportSpreadsheet as CSV', () => {
  it.each(everyKind().map((r) => [r.kind, r] as const))(
    'writes the %s report: BOM, the heading block, then each table of reportTables',
    async (_kind, report) => {
      const bytes = await reportSpreadsheet(report, 'csv');
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(bytes.toString('utf8')).toContain('\r\n');
      const file = readReportCsv(bytes);
      expect(file.headings).toEqual(expectedHeadings(report.kind, report.meta));
      expect(file.tables).toEqual(expectedTables(reportTables(report)));
    },
  );

  it('says when the period does not apply, and writes numbers as they are', async () => {
    const file = readReportCsv(await reportSpreadsheet(controls(), 'csv'));
    expect(file.headings).toContainEqual(['Created in', '2026-09-01 to 2026-11-23 (not applied: as of 2026-11-23)']);
    expect(file.tables[0]).toEqual({
      title: 'Coverage',
      columns: ['Controls', 'With tasks', 'With evidence', 'Covered %', 'Points of focus', 'Points of focus covered'],
      rows: [['20', '18', '8', '40', '50', '21']],
    });
  });

  it('makes every text cell formula-safe and leaves numbers alone', async () => {
    const file = readReportCsv(
      await reportSpreadsheet(requests(meta({ company: { id: 'c1', name: '=HYPERLINK("http://evil.test")' } })), 'csv'),
    );
    expect(file.headings[1]).toEqual(['Company', `'=HYPERLINK("http://evil.test")`]);
    const byAssignee = file.tables.find((t) => t.title === 'By assignee')!;
    expect(byAssignee.rows[0]).toEqual(["'@SUM(A1) Lovelace", '5', '2', '1', '2', '1']);
    expect(file.tables[0].rows).toEqual([['1400', '9', '3', '3', '5', '2', '40', '4.5']]);
  });

  it('leaves the rates empty when nothing was reviewed, and writes an empty table as its title and column titles', async () => {
    const file = readReportCsv(await reportSpreadsheet(requests(meta(), false), 'csv'));
    expect(file.tables[0].rows).toEqual([['4', '4', '0', '0', '0', '0', '', '']]);
    expect(file.tables.at(-1)).toEqual({
      title: 'By assignee',
      columns: ['Assignee', 'Active', 'Overdue', 'Awaiting review', 'Accepted', 'Returned'],
      rows: [],
    });
  });

  it('leaves the request columns out of the workload when the requests module is off', async () => {
    const file = readReportCsv(await reportSpreadsheet(workload(meta(), false), 'csv'));
    expect(file.tables.map((t) => t.columns)).toEqual([
      ['Open tasks', 'Overdue tasks', 'Unassigned tasks'],
      ['Person', 'Email', 'Open tasks', 'Overdue tasks', 'Total'],
    ]);
  });
});

describe('reportSpreadsheet as XLSX', () => {
  it.each(everyKind().map((r) => [r.kind, r] as const))(
    'writes the %s report: a sheet "Report", then a sheet per table with numbers as numbers',
    async (_kind, report) => {
      const file = await readReportXlsx(await reportSpreadsheet(report, 'xlsx'));
      const tables = reportTables(report);
      expect(file.sheetNames).toEqual(['Report', ...tables.map((t) => t.title)]);
      expect(file.headings).toEqual(expectedHeadings(report.kind, report.meta));
      expect(file.tables).toEqual(expectedTables(tables, { xlsx: true }));
    },
  );

  it('writes percentages as numbers from 0 to 100, rates never reviewed as empty cells, text formula-safe', async () => {
    const file = await readReportXlsx(
      await reportSpreadsheet(status(meta({ company: { id: 'c1', name: '-Minus Co' } })), 'xlsx'),
    );
    expect(file.headings[1]).toEqual(['Company', "'-Minus Co"]);
    expect(file.tables[0]).toEqual({
      title: 'Summary',
      columns: ['Tasks', 'Open', 'Closed', 'Overdue', 'Closed %'],
      rows: [[40, 25, 15, 6, 37.5]],
    });
    const controlsFile = await readReportXlsx(await reportSpreadsheet(controls(), 'xlsx'));
    expect(controlsFile.tables[1].rows).toEqual([["'+Plus project", 20, 18, 8, 40, 50, 21]]);
    const unreviewed = await readReportXlsx(await reportSpreadsheet(requests(meta(), false), 'xlsx'));
    expect(unreviewed.tables[0].rows).toEqual([[4, 4, 0, 0, 0, 0, null, null]]);
  });
});

describe('reportPdf', () => {
  const pdfOf = (reports: Report[]) => reportPdf(reports, reports[0].meta);
  const occurrences = (pages: string[], line: string) =>
    pages
      .join('\n')
      .split('\n')
      .filter((l) => l === line).length;

  it('is an A4 PDF: the heading block, every report with its period and tables, "Page n of m" on every page', async () => {
    const m = meta({ project: { id: 'p1', title: 'SOC 2 Type II' } });
    const bytes = await pdfOf(everyKind(m));
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = pdfPageTexts(bytes);
    expect(pages.length).toBe(pdfPageCount(bytes));
    expect(bytes.toString('latin1').match(/\/MediaBox \[0 0 595.28 841.89\]/g)).toHaveLength(pages.length);
    pages.forEach((text, index) => expect(text).toContain(`Page ${index + 1} of ${pages.length}`));

    const lines = pages[0].split('\n');
    for (const [label, value] of reportHeadings('all', m)) {
      if (label === 'Report') expect(lines[0]).toBe(value);
      else expect(lines).toEqual(expect.arrayContaining([label, value]));
    }
    const all = pages.join('\n').split('\n');
    for (const report of everyKind(m)) {
      expect(all).toContain(REPORT_LABELS[report.kind]);
      for (const table of reportTables(report)) expect(all).toContain(table.title);
    }
    expect(all).toContain('Created in: 2026-09-01 to 2026-11-23');
    expect(all).toContain('Created in: 2026-09-01 to 2026-11-23 (not applied: as of 2026-11-23)');
    // Each report after the first starts a page.
    for (const kind of ['requests', 'controls', 'workload'] as const)
      expect(pages.some((p) => p.startsWith(`${REPORT_LABELS[kind]}\n`))).toBe(true);
  });

  it('charts a table of 2 to 30 rows (its labels drawn beside the bars and in the table), not one of 1 or 31', async () => {
    const charted = pdfPageTexts(await pdfOf([status(meta(), 30)]));
    expect(occurrences(charted, 'Project 00')).toBe(2);
    expect(occurrences(charted, 'Project 29')).toBe(2);
    // The chart's values: the first numeric column (Tasks), beside the bars and in the table.
    expect(occurrences(charted, '59')).toBe(2);
    const long = pdfPageTexts(await pdfOf([status(meta(), 31)]));
    expect(occurrences(long, 'Project 00')).toBe(1);
    const single = pdfPageTexts(await pdfOf([status(meta(), 1)]));
    expect(occurrences(single, 'Project 00')).toBe(1);
  });

  it('shows numbers with separators and percentages with %', async () => {
    const all = pdfPageTexts(await pdfOf([requests()]))
      .join('\n')
      .split('\n');
    expect(all).toEqual(expect.arrayContaining(['1,400', '40%', '4.5']));
  });

  it('breaks a long table across pages, repeating its column titles on each', async () => {
    const people = Array.from({ length: 150 }, (_, i) => person(i));
    const pages = pdfPageTexts(await pdfOf([workload(meta(), true, people)]));
    const tablePages = pages.filter((p) => p.includes('Person 0'));
    expect(tablePages.length).toBeGreaterThan(2);
    for (const page of tablePages) {
      const lines = page.split('\n');
      const firstPerson = lines.findIndex((l) => /^Person \d{3}$/.test(l));
      expect(lines.slice(firstPerson - 7, firstPerson)).toEqual([
        'Person',
        'Email',
        'Open tasks',
        'Overdue tasks',
        'Active requests',
        'Overdue requests',
        'Total',
      ]);
    }
    for (const p of people) expect(occurrences(pages, p.name)).toBe(1);
  });

  it(`stops a table at REPORT_PDF_MAX_ROWS rows and says how many more the XLSX has`, async () => {
    const people = Array.from({ length: REPORT_PDF_MAX_ROWS + 3 }, (_, i) =>
      person(i, `Person ${String(i).padStart(4, '0')}`),
    );
    const all = pdfPageTexts(await pdfOf([workload(meta(), true, people)]))
      .join('\n')
      .split('\n');
    expect(all).toContain(people[REPORT_PDF_MAX_ROWS - 1].name);
    expect(all).not.toContain(people[REPORT_PDF_MAX_ROWS].name);
    expect(all).toContain('… 3 more rows: see the XLSX');
    // A table within the limit says nothing of the kind.
    expect(
      pdfPageTexts(await pdfOf([workload(meta(), true, people.slice(0, REPORT_PDF_MAX_ROWS))])).join('\n'),
    ).not.toContain('more rows');
  });

  it(`is made at most ${PARALLEL_PDFS} at a time in the process: another waits for one to end`, async () => {
    const finish: (() => void)[] = [];
    const busy = Array.from({ length: PARALLEL_PDFS }, () =>
      withPdfSlot(() => new Promise<void>((resolve) => finish.push(resolve))),
    );
    let made = false;
    const next = withPdfSlot(async () => {
      made = (await pdfOf([controls()])).subarray(0, 5).toString() === '%PDF-';
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(made).toBe(false);
    finish[0]();
    await next;
    expect(made).toBe(true);
    finish.slice(1).forEach((end) => end());
    await Promise.all(busy);
  });

  it('says what an empty table or a report without requests leaves out', async () => {
    const all = pdfPageTexts(await pdfOf([requests(meta(), false), workload(meta(), false)]))
      .join('\n')
      .split('\n');
    expect(all[all.indexOf('By assignee') + 1]).toBe('No data for these filters.');
    expect(all).toContain('Requests are left out: the requests module is off for you in this company.');
    expect(all).not.toContain('Active requests');
  });

  it('replaces what Helvetica cannot draw: accents dropped, look-alikes, else "?"', async () => {
    const names = ['Łukasz Wąż', 'Zoë Ørsted – ﬁne', '王芳', 'Emoji 😀 here', 'Bell\u0007 rings', 'e\u0301tienne'];
    const pages = pdfPageTexts(
      await pdfOf([
        workload(
          meta({ company: { id: 'c1', name: 'Société Générale − Ltd' } }),
          true,
          names.map((n, i) => person(i, n)),
        ),
      ]),
    );
    const all = pages.join('\n').split('\n');
    expect(all).toEqual(
      expect.arrayContaining([
        'Lukasz Waz',
        'Zoë Ørsted – fine',
        '??',
        'Emoji ? here',
        'Bell rings',
        'étienne',
        'Société Générale - Ltd',
      ]),
    );
  });

  it('is the same file for the same report', async () => {
    const reports = everyKind();
    expect((await pdfOf(reports)).equals(await pdfOf(reports))).toBe(true);
  });
});
