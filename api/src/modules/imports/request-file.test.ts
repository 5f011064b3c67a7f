import { parse } from 'csv-parse/sync';
import { Workbook } from 'exceljs';
import {
  REQUEST_FILE_COLUMNS,
  REQUEST_FILE_IMPORTED_COLUMNS,
  REQUEST_IMPORT_MAX_ERRORS,
  REQUEST_IMPORT_MAX_ROWS,
} from '@portal/shared/core/requests';
import { requestCsv as csv } from '../../test/request-files';
import { trackerXlsx, type FixtureRow } from '../../test/task-tracker-files';
import { HttpError } from '../../lib/http-error';
import {
  parseRequestFile,
  requestFileTemplate,
  writeRequestFile,
  type ExportedRequest,
  type RequestFileRow,
} from './request-file';

const IMPORTED = [...REQUEST_FILE_IMPORTED_COLUMNS];

async function readFailure(fileName: string, bytes: Buffer): Promise<HttpError> {
  const error = await parseRequestFile(fileName, bytes).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error;
}
const detailMessages = (error: HttpError) => (error.details ?? []).map((d) => d.message);

const SAMPLE: FixtureRow[] = [
  {
    Reference: 'HR-01',
    Title: 'Background checks',
    Description: 'Line one\nLine two',
    Priority: 'high',
    'Due Date': '2026-03-31',
    Assignees: 'lead@acme.test; Compliance Team\nmember@acme.test;;LEAD@acme.test',
    Project: 'Acme SOC 2',
  },
  { Title: 'No reference', Priority: 'Critical', 'Due Date': '4/5/2026' },
  { Title: 'Defaults', Priority: '', 'Due Date': '' },
];

const SAMPLE_ROWS: RequestFileRow[] = [
  {
    row: 2,
    reference: 'HR-01',
    referenceNumber: null,
    title: 'Background checks',
    description: 'Line one\nLine two',
    priority: 'high',
    dueDate: '2026-03-31',
    assignees: ['lead@acme.test', 'Compliance Team', 'member@acme.test'],
    project: 'Acme SOC 2',
  },
  {
    row: 3,
    reference: null,
    referenceNumber: null,
    title: 'No reference',
    description: null,
    priority: 'critical',
    dueDate: '2026-04-05',
    assignees: [],
    project: null,
  },
  {
    row: 4,
    reference: null,
    referenceNumber: null,
    title: 'Defaults',
    description: null,
    priority: 'medium',
    dueDate: null,
    assignees: [],
    project: null,
  },
];

describe('parseRequestFile: content', () => {
  it('reads references, titles, descriptions, priorities, due dates, assignees and projects alike from CSV and XLSX', async () => {
    expect(await parseRequestFile('requests.csv', csv(SAMPLE))).toEqual({ rows: 3, requests: SAMPLE_ROWS });
    expect(await parseRequestFile('requests.xlsx', await trackerXlsx(SAMPLE, IMPORTED))).toEqual({
      rows: 3,
      requests: SAMPLE_ROWS,
    });
  });

  it('reads a date cell of a workbook as its day', async () => {
    const xlsx = await trackerXlsx([{ Title: 'Dated', 'Due Date': new Date(Date.UTC(2026, 1, 28)) }], IMPORTED);
    expect((await parseRequestFile('r.xlsx', xlsx)).requests[0].dueDate).toBe('2026-02-28');
  });

  it('matches headings ignoring case, needs only Title, and ignores the columns only exports write', async () => {
    const content = await parseRequestFile(
      'r.csv',
      Buffer.from(
        '  title ,STATUS,Requester,Evidence Files,created,Updated,priority\nOne,Accepted,someone@demo.test,3,2026-01-01T00:00:00.000Z,2026-01-02T00:00:00.000Z,LOW\n',
      ),
    );
    expect(content.requests).toEqual([
      {
        row: 2,
        reference: null,
        referenceNumber: null,
        title: 'One',
        description: null,
        priority: 'low',
        dueDate: null,
        assignees: [],
        project: null,
      },
    ]);
  });

  it('knows the number of a reference in the api form', async () => {
    const content = await parseRequestFile(
      'r.csv',
      csv([
        { Reference: 'req-0042', Title: 'A' },
        { Reference: 'REQ-7', Title: 'B' },
        { Reference: 'REQ-1.2', Title: 'C' },
      ]),
    );
    expect(content.requests.map((r) => [r.reference, r.referenceNumber])).toEqual([
      ['req-0042', 42],
      ['REQ-7', 7],
      ['REQ-1.2', null],
    ]);
  });
});

describe('parseRequestFile: problems', () => {
  it('refuses other file types by name', async () => {
    expect(await readFailure('requests.xls', Buffer.from('x'))).toMatchObject({
      statusCode: 415,
      code: 'no_excel_file',
    });
    expect(await readFailure('requests.txt', Buffer.from('Title\nx\n'))).toMatchObject({
      statusCode: 415,
      code: 'no_csv_file',
    });
  });

  it('refuses a file without the Title column, and unknown or repeated columns, naming them', async () => {
    const missing = await readFailure('r.csv', csv([{ Reference: 'R-1' }], ['Reference', 'Priority']));
    expect(missing).toMatchObject({ statusCode: 400, code: 'malformed_request_file' });
    expect(missing.message).toMatch(
      /^Row 1: the header row has no "Title" column\. The columns are: Reference, Title, Description/,
    );

    const unknown = await readFailure('r.csv', csv([{ Title: 'x' }], ['Title', 'Owner']));
    expect(unknown.message).toMatch(/^Row 1: unknown column "Owner" \(column B\)\./);
    const repeated = await readFailure('r.csv', Buffer.from('Title,title\nOne,Two\n'));
    expect(repeated.message).toBe('Row 1: the column "Title" appears twice (columns A and B).');
  });

  it('refuses empty files and files without requests', async () => {
    expect((await readFailure('r.csv', Buffer.alloc(0))).message).toBe(
      'The file is empty: its first row must hold the column headings (at least "Title").',
    );
    expect(await readFailure('r.csv', csv([]))).toMatchObject({
      code: 'malformed_request_file',
      message: 'The file has no requests: add one row per request under the header row.',
    });
  });

  it(`refuses more than ${REQUEST_IMPORT_MAX_ROWS} requests, naming the limit`, async () => {
    const rows = Array.from({ length: REQUEST_IMPORT_MAX_ROWS + 1 }, (_, i) => ({ Title: `Request ${i}` }));
    const error = await readFailure('r.csv', csv(rows));
    expect(error).toMatchObject({ code: 'malformed_request_file' });
    expect(error.message).toBe(
      'The file has more than 5,000 requests: at most 5,000 are accepted in one file. Split it into several files.',
    );
    await expect(parseRequestFile('r.csv', csv(rows.slice(1)))).resolves.toMatchObject({
      rows: REQUEST_IMPORT_MAX_ROWS,
    });
  });

  it('names the row and the column of every bad cell, the first as message', async () => {
    const error = await readFailure(
      'r.csv',
      csv([
        { Title: 'Fine' },
        { Title: 'x'.repeat(201), 'Due Date': 'Dec 31, 2026' },
        { Title: 'Bad day', 'Due Date': '2026-02-30', Priority: 'Urgent' },
        { Reference: 'R 1', Description: 'd'.repeat(5001) },
        { Reference: 'R-1', Title: 'Control\u0007', Project: 'Two\nlines' },
        { Reference: 'r-1', Title: 'Again', 'Due Date': '2/29/2025' },
        { Reference: 'REQ-0007', Title: 'Seven' },
        { Reference: 'REQ-7', Title: 'Seven again' },
        { Reference: 'x'.repeat(31), Title: 'Long reference' },
      ]),
    );
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'malformed_request_file',
      message: 'Row 3, Title: Title must be at most 200 characters (it has 201).',
    });
    expect(detailMessages(error)).toEqual([
      'Row 3, Title: Title must be at most 200 characters (it has 201).',
      'Row 3, Due Date: Due Date must be a date, YYYY-MM-DD or M/D/YYYY (it is "Dec 31, 2026").',
      'Row 4, Priority: Priority must be one of Low, Medium, High, Critical (it is "Urgent").',
      'Row 4, Due Date: "2026-02-30" is not a day of the calendar.',
      'Row 5, Description: Description must be at most 5,000 characters (it has 5,001).',
      'Row 5, Title: Title is required',
      'Row 5, Reference: Reference must be 1 to 30 letters, digits, dots, dashes or underscores, starting with a letter or digit (it is "R 1").',
      'Row 6, Title: Title must not contain control characters (found U+0007).',
      'Row 6, Project: Project must be on one line.',
      'Row 7, Reference: "r-1" is also on row 6. References must be unique.',
      'Row 7, Due Date: "2/29/2025" is not a day of the calendar.',
      'Row 9, Reference: "REQ-7" is also on row 8. References must be unique.',
      'Row 10, Reference: Reference must be at most 30 characters (it has 31).',
    ]);
    expect(error.details!.every((d) => d.field === 'file')).toBe(true);
  });

  it('refuses more than 50 people or teams on one request, and overlong names', async () => {
    const people = Array.from({ length: 51 }, (_, i) => `p${i}@acme.test`).join(';');
    const error = await readFailure(
      'r.csv',
      csv([
        { Title: 'Many', Assignees: people },
        { Title: 'Long', Assignees: `${'a'.repeat(255)}` },
      ]),
    );
    expect(detailMessages(error)).toEqual([
      'Row 2, Assignees: a request takes at most 50 people and 50 teams (the cell names 51 e-mails and 0 teams).',
      expect.stringMatching(
        /^Row 3, Assignees: each e-mail or team name must be at most 254 characters: "a{40}…" has 255\.$/,
      ),
    ]);
  });

  it(`reports at most ${REQUEST_IMPORT_MAX_ERRORS} problems`, async () => {
    const error = await readFailure('r.csv', csv(Array.from({ length: 70 }, () => ({ Priority: 'Low' }))));
    expect(error.details).toHaveLength(REQUEST_IMPORT_MAX_ERRORS);
    expect(error.message).toBe('Row 2, Title: Title is required');
  });

  it('refuses an .xlsx over the archive limits with the request file code', async () => {
    const error = await readFailure('r.xlsx', Buffer.from('PK\u0003\u0004 not really a zip'));
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'malformed_request_file',
      message: 'The file is not a valid .xlsx workbook.',
    });
  });
});

const person = (email: string, firstName = 'Pat') => ({
  id: email,
  firstName,
  lastName: 'Tester',
  email,
  isTevora: false,
});

const EXPORTED: ExportedRequest[] = [
  {
    id: 'a',
    companyId: 'c',
    reference: 'REQ-0001',
    title: '=HYPERLINK("http://evil.test","Click")',
    description: '+1 more line\n-and a dash',
    status: 'submitted',
    priority: 'critical',
    dueDate: '2026-05-01',
    overdue: false,
    project: { id: 'p', title: '@Project' },
    requester: { ...person('consultant@demo.test'), isTevora: true },
    assignees: [person('lead@acme.test'), person('member@acme.test')],
    teams: [{ id: 't', name: 'Compliance Team' }],
    fileCount: 2,
    commentCount: 1,
    createdAt: '2026-01-02T03:04:05.000Z',
    updatedAt: '2026-01-03T03:04:05.000Z',
  },
  {
    id: 'b',
    companyId: 'c',
    reference: 'HR-01',
    title: 'Plain',
    description: null,
    status: 'open',
    priority: 'medium',
    dueDate: null,
    overdue: false,
    project: null,
    requester: null,
    assignees: [],
    teams: [],
    fileCount: 0,
    commentCount: 0,
    createdAt: '2026-01-02T03:04:05.000Z',
    updatedAt: '2026-01-02T03:04:05.000Z',
  },
];

describe('writing', () => {
  it('writes every column, formula-safe, and the CSV reads back without the apostrophes', async () => {
    const file = await writeRequestFile('csv', EXPORTED);
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const table = parse(file.toString('utf8'), { bom: true }) as string[][];
    expect(table[0]).toEqual([...REQUEST_FILE_COLUMNS]);
    expect(table[1]).toEqual([
      'REQ-0001',
      `'=HYPERLINK("http://evil.test","Click")`,
      "'+1 more line\n-and a dash",
      'Critical',
      '2026-05-01',
      'lead@acme.test; member@acme.test; Compliance Team',
      "'@Project",
      'Submitted',
      'consultant@demo.test',
      '2',
      '2026-01-02T03:04:05.000Z',
      '2026-01-03T03:04:05.000Z',
    ]);
    expect(table[2]).toEqual([
      'HR-01',
      'Plain',
      '',
      'Medium',
      '',
      '',
      '',
      'Open',
      '',
      '0',
      '2026-01-02T03:04:05.000Z',
      '2026-01-02T03:04:05.000Z',
    ]);
  });

  it.each(['csv', 'xlsx'] as const)('reads its %s export back as it was', async (format) => {
    const back = await parseRequestFile(`export.${format}`, await writeRequestFile(format, EXPORTED));
    expect(back.requests).toEqual([
      {
        row: 2,
        reference: 'REQ-0001',
        referenceNumber: 1,
        title: '=HYPERLINK("http://evil.test","Click")',
        description: '+1 more line\n-and a dash',
        priority: 'critical',
        dueDate: '2026-05-01',
        assignees: ['lead@acme.test', 'member@acme.test', 'Compliance Team'],
        project: '@Project',
      },
      {
        row: 3,
        reference: 'HR-01',
        referenceNumber: null,
        title: 'Plain',
        description: null,
        priority: 'medium',
        dueDate: null,
        assignees: [],
        project: null,
      },
    ]);
  });

  it('writes text cells into the .xlsx, never formulas', async () => {
    const workbook = new Workbook();
    await workbook.xlsx.load((await writeRequestFile('xlsx', EXPORTED)) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, ...REQUEST_FILE_COLUMNS]);
    expect(sheet.getCell('B2').value).toBe(`'=HYPERLINK("http://evil.test","Click")`);
    expect(sheet.getCell('B2').formula).toBeUndefined();
  });

  it.each(['csv', 'xlsx'] as const)(
    'offers a %s template of the imported columns with two example rows that read',
    async (format) => {
      const template = await requestFileTemplate(format);
      const content = await parseRequestFile(`template.${format}`, template);
      expect(content.requests).toEqual([
        expect.objectContaining({
          reference: null,
          title: 'Firewall rule review',
          priority: 'high',
          dueDate: '2026-03-31',
          assignees: ['it.manager@example.com', 'Security team'],
        }),
        expect.objectContaining({ reference: 'HR-01', priority: 'medium', dueDate: '2026-04-15', project: null }),
      ]);
      if (format === 'csv')
        expect((parse(template.toString('utf8'), { bom: true }) as string[][])[0]).toEqual(IMPORTED);
    },
  );
});
