import zlib from 'node:zlib';
import { Workbook, ValueType } from 'exceljs';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import {
  TASK_TRACKER_COLUMNS,
  TASK_TRACKER_MAX_BYTES,
  TASK_TRACKER_MAX_ERRORS,
  TASK_TRACKER_MAX_LINES,
  TASK_TRACKER_MAX_ROWS,
} from '@portal/shared/core/practices';
import {
  manyRows,
  measured,
  trackerCsv,
  trackerXlsx,
  zipArchive,
  type FixtureRow,
} from '../../test/task-tracker-files';
import { HttpError } from '../../lib/http-error';
import { taskTrackerFileTemplate, trackerRows, writeTaskTrackerFile } from './task-tracker-export';
import { parseTaskTrackerFile, type TrackerFileContent } from './task-tracker-file';

/** The error reading throws (it must throw). */
async function readFailure(
  fileName: string,
  bytes: Buffer,
  options?: { externalParents?: boolean },
): Promise<HttpError> {
  const error = await parseTaskTrackerFile(fileName, bytes, options).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error;
}

const csvFailure = (rows: FixtureRow[], options?: { externalParents?: boolean }) =>
  readFailure('tracker.csv', trackerCsv(rows), options);
const detailMessages = (error: HttpError) => (error.details ?? []).map((d) => d.message);
const readCsv = (rows: FixtureRow[], options?: { externalParents?: boolean }) =>
  parseTaskTrackerFile('tracker.csv', trackerCsv(rows), options);

/** A template with a subtask listed before its parent, a control named on several rows and points of focus. */
const SAMPLE: FixtureRow[] = [
  { 'Task ID': 'T-1.1', 'Parent Task ID': 'T-1', 'Task Title': 'Collect evidence', 'Control ID': 'AC-1' },
  {
    'Task ID': 'T-1',
    'Task Title': 'Review the policy',
    'Task Description': 'Line one\nLine two',
    'Control ID': 'AC-1',
    'Control Title': 'Access control',
    'Points of Focus': 'Approved; Reviewed yearly',
  },
  {
    'Task Title': 'A task without ID',
    'Control ID': 'ac-1',
    'Control Description': 'Least privilege',
    'Points of Focus': 'approved\nCommunicated',
  },
  { 'Task ID': 'T-2', 'Task Title': 'Another', 'Control ID': 'CC-2' },
];

const SAMPLE_CONTENT: TrackerFileContent = {
  rows: 4,
  tasks: [
    {
      row: 2,
      referenceId: 'T-1.1',
      parentReferenceId: 'T-1',
      title: 'Collect evidence',
      description: null,
      controlName: 'AC-1',
    },
    {
      row: 3,
      referenceId: 'T-1',
      parentReferenceId: null,
      title: 'Review the policy',
      description: 'Line one\nLine two',
      controlName: 'AC-1',
    },
    {
      row: 4,
      referenceId: null,
      parentReferenceId: null,
      title: 'A task without ID',
      description: null,
      controlName: 'AC-1',
    },
    { row: 5, referenceId: 'T-2', parentReferenceId: null, title: 'Another', description: null, controlName: 'CC-2' },
  ],
  controls: [
    {
      row: 2,
      name: 'AC-1',
      title: 'Access control',
      description: 'Least privilege',
      pointsOfFocus: ['Approved', 'Reviewed yearly', 'Communicated'],
    },
    { row: 5, name: 'CC-2', title: 'CC-2', description: null, pointsOfFocus: [] },
  ],
};

describe('parseTaskTrackerFile: file names', () => {
  it.each(['tracker.txt', 'tracker', 'tracker.csv.exe', 'tracker.json'])(
    'refuses %s with 415 no_csv_file and the catalogue message, before reading it',
    async (name) => {
      const error = await readFailure(name, trackerCsv(SAMPLE));
      expect(error).toMatchObject({
        statusCode: 415,
        code: 'no_csv_file',
        message: 'Only CSV files are accepted. This may just require adding a .csv to the filename.',
      });
    },
  );

  it.each(['tracker.xls', 'Tracker.XLSM', 'tracker.xlsb', 'tracker.ods'])(
    'refuses %s with 415 no_excel_file',
    async (name) => {
      const error = await readFailure(name, Buffer.from('whatever'));
      expect(error).toMatchObject({ statusCode: 415, code: 'no_excel_file', message: ERROR_MESSAGES.no_excel_file });
    },
  );

  it('accepts names in any case, with spaces around', async () => {
    await expect(parseTaskTrackerFile(' Tracker.CSV ', trackerCsv(SAMPLE))).resolves.toEqual(SAMPLE_CONTENT);
    await expect(parseTaskTrackerFile('Tracker.XLSX', await trackerXlsx(SAMPLE))).resolves.toEqual(SAMPLE_CONTENT);
  });

  it('reads an .xlsx by its archive, not as text (and a .csv not as a workbook)', async () => {
    expect(await readFailure('tracker.xlsx', trackerCsv(SAMPLE))).toMatchObject({
      statusCode: 400,
      code: 'malformed_task_tracker',
      message: 'The file is not a valid .xlsx workbook.',
    });
    expect((await readFailure('tracker.csv', await trackerXlsx(SAMPLE))).code).toBe('malformed_task_tracker');
  });
});

describe('parseTaskTrackerFile: content', () => {
  it('reads tasks, subtasks (parent before or after), controls merged over rows and points of focus, alike from CSV and XLSX', async () => {
    expect(await readCsv(SAMPLE)).toEqual(SAMPLE_CONTENT);
    expect(await parseTaskTrackerFile('tracker.xlsx', await trackerXlsx(SAMPLE))).toEqual(SAMPLE_CONTENT);
  });

  it('matches headings ignoring case and spaces around, in any order, with only Task Title required', async () => {
    const columns = ['  task TITLE ', 'TASK ID', 'parent task id'];
    const rows = [
      { '  task TITLE ': 'Parent', 'TASK ID': 'P' },
      { '  task TITLE ': 'Child', 'TASK ID': 'C', 'parent task id': 'p' },
    ];
    const expected = {
      rows: 2,
      tasks: [
        { row: 2, referenceId: 'P', parentReferenceId: null, title: 'Parent', description: null, controlName: null },
        // The parent as the file spells its Task ID.
        { row: 3, referenceId: 'C', parentReferenceId: 'P', title: 'Child', description: null, controlName: null },
      ],
      controls: [],
    };
    expect(await parseTaskTrackerFile('t.csv', trackerCsv(rows, columns))).toEqual(expected);
    expect(await parseTaskTrackerFile('t.xlsx', await trackerXlsx(rows, columns))).toEqual(expected);
  });

  it('trims cells, skips blank rows and numbers rows as a spreadsheet shows them', async () => {
    const csv = Buffer.from(
      '\uFEFFTask ID,Task Title\r\n\r\n  T-1  ,  First  \r\n , \r\n,"Multi\r\nline"\r\n,,\r\n,Last\r\n,\r\n',
    );
    expect(await parseTaskTrackerFile('t.csv', csv)).toEqual({
      rows: 3,
      tasks: [
        { row: 3, referenceId: 'T-1', parentReferenceId: null, title: 'First', description: null, controlName: null },
        {
          row: 5,
          referenceId: null,
          parentReferenceId: null,
          title: 'Multi\nline',
          description: null,
          controlName: null,
        },
        { row: 7, referenceId: null, parentReferenceId: null, title: 'Last', description: null, controlName: null },
      ],
      controls: [],
    });
    // Row 3 of the workbook is blank: the problem is on row 4.
    const xlsx = await trackerXlsx([{ 'Task Title': 'One' }, {}, { 'Task ID': 'T-9' }]);
    expect((await readFailure('t.xlsx', xlsx)).message).toBe('Row 4, Task Title: Task Title is required');
  });

  it('turns workbook values into text: numbers, booleans, dates, rich text, hyperlinks, errors; merged cells once', async () => {
    const xlsx = await trackerXlsx([
      { 'Task ID': 42, 'Task Title': { richText: [{ text: 'Rich ' }, { text: 'text', font: { bold: true } }] } },
      { 'Task ID': 0.1 + 0.2, 'Task Title': { text: 'Linked', hyperlink: 'https://example.test' } },
      { 'Task Title': true, 'Task Description': new Date(Date.UTC(2025, 0, 31)) },
      {
        'Task Title': 'Timed',
        'Task Description': new Date(Date.UTC(2025, 0, 31, 13, 5, 9)),
        'Control ID': { error: '#N/A' },
      },
    ]);
    const content = await parseTaskTrackerFile('t.xlsx', xlsx);
    expect(content.tasks.map((t) => [t.referenceId, t.title, t.description, t.controlName])).toEqual([
      ['42', 'Rich text', null, null],
      ['0.3', 'Linked', null, null],
      [null, 'TRUE', '2025-01-31', null],
      [null, 'Timed', '2025-01-31 13:05:09', '#N/A'],
    ]);

    const workbook = new Workbook();
    const sheet = workbook.addWorksheet('Tasks');
    sheet.addRow(['Task Title', 'Task Description']);
    sheet.addRow(['Merged', null]);
    sheet.mergeCells('A2:B2');
    expect(
      (await parseTaskTrackerFile('t.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()))).tasks[0],
    ).toMatchObject({ title: 'Merged', description: null });
  });

  it('reads the first worksheet only', async () => {
    const workbook = new Workbook();
    workbook.addWorksheet('Tasks').addRows([['Task Title'], ['From the first sheet']]);
    workbook.addWorksheet('Notes').addRows([['Anything'], ['ignored']]);
    const content = await parseTaskTrackerFile('t.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(content.tasks.map((t) => t.title)).toEqual(['From the first sheet']);
  });

  it('reads 10,000 rows of CSV and of XLSX', async () => {
    const rows = manyRows(10_000);
    const fromCsv = await readCsv(rows);
    expect(fromCsv.rows).toBe(10_000);
    expect(fromCsv.tasks).toHaveLength(10_000);
    expect(fromCsv.tasks[9_999]).toEqual({
      row: 10_001,
      referenceId: 'T-10000',
      parentReferenceId: null,
      title: 'Task 10000',
      description: 'What task 10000 asks for.',
      controlName: null,
    });
    const fromXlsx = await parseTaskTrackerFile('big.xlsx', await trackerXlsx(rows));
    expect(fromXlsx).toEqual(fromCsv);
  });
});

describe('parseTaskTrackerFile: formulas are text, never evaluated', () => {
  const FORMULA_ROWS: FixtureRow[] = [
    {
      'Task ID': '=1+1',
      'Task Title': '=SUM(A1)',
      'Task Description': '+1',
      'Control ID': '-2',
      'Control Title': '@x',
      'Points of Focus': '=HYPERLINK("http://evil.test");+3',
    },
    {
      'Task ID': '@T',
      'Parent Task ID': '=1+1',
      'Task Title': "'=already protected",
      'Task Description': "'plain apostrophe",
    },
  ];

  it('reads formula-looking CSV cells as text, dropping the apostrophe that protects one', async () => {
    const content = await readCsv(FORMULA_ROWS);
    expect(content.tasks).toEqual([
      { row: 2, referenceId: '=1+1', parentReferenceId: null, title: '=SUM(A1)', description: '+1', controlName: '-2' },
      {
        row: 3,
        referenceId: '@T',
        parentReferenceId: '=1+1',
        title: '=already protected',
        description: "'plain apostrophe",
        controlName: null,
      },
    ]);
    expect(content.controls).toEqual([
      { row: 2, name: '-2', title: '@x', description: null, pointsOfFocus: ['=HYPERLINK("http://evil.test")', '+3'] },
    ]);
  });

  it('reads workbook formula cells as "=<formula>", not their result', async () => {
    const workbook = new Workbook();
    const sheet = workbook.addWorksheet('Tasks');
    sheet.addRow(['Task ID', 'Task Title']);
    sheet.addRow(['T-1', { formula: 'SUM(A1:A3)', result: 6 }]);
    sheet.addRow(['T-2', { formula: 'HYPERLINK("http://evil.test","click")', result: 'click' }]);
    sheet.addRow(['T-3', '=SUM(A1)']);
    sheet.addRow(['T-4']);
    sheet.addRow(['T-5']);
    // A shared formula: B6 holds only a reference to B5's, which reads as its own formula.
    sheet.fillFormula('B5:B6', 'LEN(A5)', [3, 3]);
    const content = await parseTaskTrackerFile('t.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(content.tasks.map((t) => t.title)).toEqual([
      '=SUM(A1:A3)',
      '=HYPERLINK("http://evil.test","click")',
      '=SUM(A1)',
      '=LEN(A5)',
      '=LEN(A6)',
    ]);
  });

  it.each(['csv', 'xlsx'] as const)(
    'exports them with an apostrophe (%s), as text cells, and reads the export back identical',
    async (format) => {
      const content = await readCsv(FORMULA_ROWS);
      const file = await writeTaskTrackerFile(trackerRows(content.tasks, content.controls), format);
      if (format === 'csv') {
        const text = file.toString('utf8');
        expect(text).toContain(`'=SUM(A1),'+1,'-2,'@x`);
        expect(text).not.toMatch(/(^|,)=SUM/m);
      } else {
        const workbook = new Workbook();
        await workbook.xlsx.load(file as unknown as ArrayBuffer);
        const cell = workbook.worksheets[0].getCell('C2');
        expect(cell.type).toBe(ValueType.String);
        expect(cell.value).toBe("'=SUM(A1)");
        workbook.worksheets[0].eachRow((row) => row.eachCell((c) => expect(c.type).not.toBe(ValueType.Formula)));
      }
      expect(await parseTaskTrackerFile(`export.${format}`, file)).toEqual(content);
    },
  );
});

describe('parseTaskTrackerFile: whole-file problems', () => {
  it.each([
    ['no bytes', Buffer.alloc(0)],
    ['blank lines only', Buffer.from('\r\n ,  \r\n,,\r\n')],
  ])('refuses an empty file (%s)', async (_label, bytes) => {
    expect(await readFailure('t.csv', bytes)).toMatchObject({
      statusCode: 400,
      code: 'malformed_task_tracker',
      message: expect.stringMatching(/^The file is empty/),
    });
  });

  it('refuses a header without rows', async () => {
    expect((await readFailure('t.csv', trackerCsv([{}, {}]))).message).toBe(
      'The file has no tasks: add one row per task under the header row.',
    );
    expect((await readFailure('t.xlsx', await trackerXlsx([]))).message).toBe(
      'The file has no tasks: add one row per task under the header row.',
    );
  });

  it('refuses a file without the Task Title column, naming it', async () => {
    const error = await readFailure('t.csv', trackerCsv([{ 'Task ID': 'T-1' }], ['Task ID', 'Control ID']));
    expect(error).toMatchObject({ code: 'malformed_task_tracker' });
    expect(error.message).toMatch(
      /^Row 1: the header row has no "Task Title" column\. The columns are: Task ID, Parent Task ID, Task Title/,
    );
  });

  it('refuses unknown and repeated columns, naming them', async () => {
    const unknown = await readFailure(
      't.csv',
      trackerCsv([{ 'Task Title': 'x' }], ['Task Title', 'Owner', 'Due date']),
    );
    expect(unknown.message).toMatch(
      /^Row 1: unknown columns "Owner" \(column B\), "Due date" \(column C\)\. The columns are: Task ID/,
    );

    const repeated = await readFailure('t.csv', Buffer.from('Task ID,Task Title,task id,Owner\nT-1,One,T-2,me\n'));
    expect(repeated.message).toBe('Row 1: the column "Task ID" appears twice (columns A and C).');
    expect(detailMessages(repeated)).toEqual([
      repeated.message,
      expect.stringContaining('unknown column "Owner" (column D)'),
    ]);
  });

  it('refuses more than TASK_TRACKER_MAX_ROWS rows, naming the limit', async () => {
    const error = await csvFailure(manyRows(TASK_TRACKER_MAX_ROWS + 1));
    expect(error).toMatchObject({ code: 'malformed_task_tracker' });
    expect(error.message).toContain('at most 20,000 are accepted');
    await expect(readCsv(manyRows(TASK_TRACKER_MAX_ROWS))).resolves.toMatchObject({ rows: TASK_TRACKER_MAX_ROWS });
  });

  it('refuses a CSV that is not UTF-8', async () => {
    const latin1 = Buffer.from('Task Title\nCaf\u00e9\n', 'latin1');
    expect((await readFailure('t.csv', latin1)).message).toMatch(/not UTF-8 text: save it as "CSV UTF-8/);
  });

  it('refuses a CSV with a quote never closed, naming the row and the line', async () => {
    const error = await readFailure(
      't.csv',
      Buffer.from('Task ID,Task Title\nT-1,Fine\nT-2,"Never closed\nT-3,More\n'),
    );
    expect(error).toMatchObject({ statusCode: 400, code: 'malformed_task_tracker' });
    expect(error.message).toBe(
      'The CSV file cannot be read: a quoted cell on row 3 is never closed (a cell that starts with " must end with "; the file ends inside it, at line 4).',
    );
  });

  it('reads quotes inside unquoted cells as text', async () => {
    const content = await parseTaskTrackerFile('t.csv', Buffer.from('Task Title\nThe "main" policy\n'));
    expect(content.tasks[0].title).toBe('The "main" policy');
  });

  describe('files of millions of tiny or blank rows (within the upload limit)', () => {
    const MB = 1024 * 1024;
    const fill = (header: string, line: string) =>
      Buffer.concat([Buffer.from(header), Buffer.alloc(TASK_TRACKER_MAX_BYTES - header.length, line)]);

    it.each([
      [
        'blank lines under the header',
        fill('Task Title\n', '\n'),
        `more than ${TASK_TRACKER_MAX_LINES.toLocaleString('en-US')} rows, blank ones included`,
      ],
      [
        'blank lines alone',
        fill('', '\r\n'),
        `more than ${TASK_TRACKER_MAX_LINES.toLocaleString('en-US')} rows, blank ones included`,
      ],
      ['one-letter rows', fill('Task Title\n', 'x\n'), 'more than 20,000 rows of tasks: at most 20,000 are accepted'],
    ])('refuses 20 MB of %s quickly and with bounded memory, naming the limit', async (_label, bytes, message) => {
      expect(bytes.length).toBe(20 * MB);
      let error: unknown;
      const cost = await measured(() => parseTaskTrackerFile('t.csv', bytes).catch((e: unknown) => void (error = e)));
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ statusCode: 400, code: 'malformed_task_tracker' });
      expect((error as HttpError).message).toContain(message);
      // The text of the file (20 MB, decoded) and the rows up to the limit: never a record per line.
      expect(cost.heap).toBeLessThan(150 * MB);
      expect(cost.rss).toBeLessThan(250 * MB);
      expect(cost.ms).toBeLessThan(5000);
    });

    it('reads blank lines between rows as long as the file stays within the limit', async () => {
      const text = `Task Title\n${'\n'.repeat(TASK_TRACKER_MAX_LINES - 3)}Last\n`;
      const content = await parseTaskTrackerFile('t.csv', Buffer.from(text));
      expect(content.tasks).toEqual([
        {
          row: TASK_TRACKER_MAX_LINES - 1,
          referenceId: null,
          parentReferenceId: null,
          title: 'Last',
          description: null,
          controlName: null,
        },
      ]);
    });
  });
});

describe('parseTaskTrackerFile: row problems', () => {
  it('requires a Task Title, naming row and column', async () => {
    const error = await csvFailure([
      { 'Task Title': 'One' },
      { 'Task ID': 'T-2' },
      { 'Task Title': 'Three' },
      { 'Task ID': 'T-4', 'Task Title': '   ' },
    ]);
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'malformed_task_tracker',
      message: 'Row 3, Task Title: Task Title is required',
    });
    expect(error.details).toEqual([
      { field: 'file', message: 'Row 3, Task Title: Task Title is required' },
      { field: 'file', message: 'Row 5, Task Title: Task Title is required' },
    ]);
  });

  it('refuses cells over their length limits, naming row, column and limit', async () => {
    const error = await csvFailure([
      { 'Task ID': 'x'.repeat(51), 'Task Title': 'y'.repeat(201) },
      { 'Task Title': 'ok', 'Task Description': 'd'.repeat(5001), 'Control ID': 'c'.repeat(51) },
      {
        'Task Title': 'ok',
        'Control ID': 'C',
        'Control Title': 't'.repeat(201),
        'Points of Focus': `fine;${'p'.repeat(201)}`,
      },
    ]);
    expect(detailMessages(error)).toEqual([
      'Row 2, Task ID: Task ID must be at most 50 characters (it has 51).',
      'Row 2, Task Title: Task Title must be at most 200 characters (it has 201).',
      'Row 3, Task Description: Task Description must be at most 5,000 characters (it has 5,001).',
      'Row 3, Control ID: Control ID must be at most 50 characters (it has 51).',
      'Row 4, Control Title: Control Title must be at most 200 characters (it has 201).',
      expect.stringMatching(
        /^Row 4, Points of Focus: each point of focus must be at most 200 characters: "p{40}…" has 201\.$/,
      ),
    ]);
    // At the limits, all is well.
    await expect(
      readCsv([{ 'Task ID': 'x'.repeat(50), 'Task Title': 'y'.repeat(200), 'Task Description': 'd'.repeat(5000) }]),
    ).resolves.toMatchObject({ rows: 1 });
  });

  it('refuses NUL and other control characters, keeps tabs and new lines where text may hold them', async () => {
    const error = await csvFailure([
      { 'Task Title': 'Nul\u0000here' },
      { 'Task Title': 'Bell\u0007', 'Task Description': 'Escape \u001b[31m' },
      { 'Task ID': 'Two\nlines', 'Task Title': 'ok' },
    ]);
    expect(detailMessages(error)).toEqual([
      'Row 2, Task Title: Task Title must not contain control characters (found U+0000, a NUL character).',
      'Row 3, Task Title: Task Title must not contain control characters (found U+0007).',
      'Row 3, Task Description: Task Description must not contain control characters (found U+001B).',
      'Row 4, Task ID: Task ID must be on one line.',
    ]);
    const content = await readCsv([{ 'Task Title': 'Tab\there', 'Task Description': 'Line\r\nbreaks\rkept' }]);
    expect(content.tasks[0]).toMatchObject({ title: 'Tab\there', description: 'Line\nbreaks\nkept' });
  });

  it('refuses a value in a column without heading, naming its letter', async () => {
    const error = await readFailure('t.csv', Buffer.from('Task Title,,Task ID\nOne,stray,T-1\nTwo,,T-2,extra\n'));
    expect(detailMessages(error)).toEqual([
      'Row 2, column B: the cell is in a column without a heading in row 1.',
      'Row 3, column D: the cell is in a column without a heading in row 1.',
    ]);
  });

  it('reports at most TASK_TRACKER_MAX_ERRORS problems, in row order, the first as message', async () => {
    const error = await csvFailure(Array.from({ length: 60 }, (_, i) => ({ 'Task ID': `T-${i}` })));
    expect(error.details).toHaveLength(TASK_TRACKER_MAX_ERRORS);
    expect(error.message).toBe('Row 2, Task Title: Task Title is required');
    expect(error.details![TASK_TRACKER_MAX_ERRORS - 1].message).toBe(
      `Row ${TASK_TRACKER_MAX_ERRORS + 1}, Task Title: Task Title is required`,
    );
  });
});

describe('parseTaskTrackerFile: Task IDs', () => {
  it('refuses Task IDs repeated ignoring case, naming both rows, with its own code', async () => {
    const error = await csvFailure([
      { 'Task ID': 'T-1', 'Task Title': 'One' },
      { 'Task Title': 'No ID' },
      { 'Task Title': 'No ID either' },
      { 'Task ID': 't-1', 'Task Title': 'Again' },
      { 'Task ID': 'T-1', 'Task Title': 'And again' },
    ]);
    expect(error).toMatchObject({ statusCode: 400, code: 'task_reference_id_already_exist_on_project' });
    expect(error.message).toBe('Row 5, Task ID: "t-1" is also on row 2. Task IDs must be unique or null.');
    expect(detailMessages(error)).toEqual([
      error.message,
      'Row 6, Task ID: "T-1" is also on row 2. Task IDs must be unique or null.',
    ]);
  });

  it('answers malformed_task_tracker when other problems come with repeated IDs, listing all', async () => {
    const error = await csvFailure([{ 'Task ID': 'T-1', 'Task Title': 'One' }, { 'Task ID': 'T-1' }]);
    expect(error.code).toBe('malformed_task_tracker');
    expect(detailMessages(error)).toEqual([
      'Row 3, Task Title: Task Title is required',
      'Row 3, Task ID: "T-1" is also on row 2. Task IDs must be unique or null.',
    ]);
  });
});

describe('parseTaskTrackerFile: parents', () => {
  it('refuses a parent the file lacks, unless the caller resolves it (externalParents)', async () => {
    const rows = [
      { 'Task ID': 'T-1', 'Task Title': 'One' },
      { 'Task ID': 'T-2', 'Parent Task ID': 'P-9', 'Task Title': 'Orphan' },
    ];
    expect((await csvFailure(rows)).message).toBe('Row 3, Parent Task ID: no row of the file has the Task ID "P-9".');
    const content = await readCsv(rows, { externalParents: true });
    expect(content.tasks[1]).toMatchObject({ referenceId: 'T-2', parentReferenceId: 'P-9' });
  });

  it('refuses a task that is its own parent, also with externalParents', async () => {
    const rows = [{ 'Task ID': 'T-1', 'Parent Task ID': 't-1', 'Task Title': 'Loop' }];
    expect((await csvFailure(rows)).message).toBe('Row 2, Parent Task ID: a task cannot be its own parent.');
    expect((await csvFailure(rows, { externalParents: true })).message).toBe(
      'Row 2, Parent Task ID: a task cannot be its own parent.',
    );
  });

  it('allows one level of subtasks only', async () => {
    const error = await csvFailure([
      { 'Task ID': 'C', 'Parent Task ID': 'B', 'Task Title': 'Grandchild' },
      { 'Task ID': 'A', 'Task Title': 'Top' },
      { 'Task ID': 'B', 'Parent Task ID': 'A', 'Task Title': 'Child' },
    ]);
    expect(error.message).toBe(
      'Row 2, Parent Task ID: "B" (row 4) is itself a subtask: subtasks cannot have subtasks.',
    );
    expect(error.details).toHaveLength(1);
  });
});

describe('parseTaskTrackerFile: controls and points of focus', () => {
  it('merges a control over its rows: the title defaults to its ID, points of focus unique ignoring case', async () => {
    const content = await readCsv([
      { 'Task Title': 'A', 'Control ID': 'CC1.1' },
      { 'Task Title': 'B', 'Control ID': 'cc1.1', 'Points of Focus': ' First ;\n; second \n' },
      {
        'Task Title': 'C',
        'Control ID': 'CC1.1',
        'Control Description': 'Described here',
        'Points of Focus': 'FIRST;Third',
      },
      { 'Task Title': 'D', 'Control ID': 'CC1.2', 'Control Title': 'Titled', 'Control Description': 'Two' },
      { 'Task Title': 'E' },
    ]);
    expect(content.tasks.map((t) => t.controlName)).toEqual(['CC1.1', 'CC1.1', 'CC1.1', 'CC1.2', null]);
    expect(content.controls).toEqual([
      {
        row: 2,
        name: 'CC1.1',
        title: 'CC1.1',
        description: 'Described here',
        pointsOfFocus: ['First', 'second', 'Third'],
      },
      { row: 5, name: 'CC1.2', title: 'Titled', description: 'Two', pointsOfFocus: [] },
    ]);
  });

  it('refuses rows that give one control different titles or descriptions, naming both rows', async () => {
    const error = await csvFailure([
      { 'Task Title': 'A', 'Control ID': 'AC-1', 'Control Title': 'Access', 'Control Description': 'One' },
      { 'Task Title': 'B', 'Control ID': 'AC-1', 'Control Title': 'Access' },
      { 'Task Title': 'C', 'Control ID': 'ac-1', 'Control Title': 'Access control', 'Control Description': 'Two' },
    ]);
    expect(detailMessages(error)).toEqual([
      'Row 4, Control Title: "Access control" differs from the title "Access" that row 2 gives control "AC-1".',
      'Row 4, Control Description: it differs from the description that row 2 gives control "AC-1".',
    ]);
  });

  it('refuses control details and points of focus on a row without Control ID', async () => {
    const error = await csvFailure([
      {
        'Task Title': 'A',
        'Control Title': 'Orphan title',
        'Control Description': 'Orphan',
        'Points of Focus': 'Lost',
      },
    ]);
    expect(detailMessages(error)).toEqual([
      'Row 2, Control Title: Control Title needs a Control ID on the row.',
      'Row 2, Control Description: Control Description needs a Control ID on the row.',
      'Row 2, Points of Focus: Points of Focus need a Control ID on the row.',
    ]);
  });
});

describe('writing', () => {
  it('orders subtasks after their parent and describes each control on its first row only', () => {
    const rows = trackerRows(SAMPLE_CONTENT.tasks, SAMPLE_CONTENT.controls);
    expect(
      rows.map((r) => [r['Task ID'], r['Parent Task ID'], r['Control ID'], r['Control Title'], r['Points of Focus']]),
    ).toEqual([
      ['T-1', '', 'AC-1', 'Access control', 'Approved\nReviewed yearly\nCommunicated'],
      ['T-1.1', 'T-1', 'AC-1', '', ''],
      ['', '', 'AC-1', '', ''],
      ['T-2', '', 'CC-2', 'CC-2', ''],
    ]);
    expect(rows[0]).toMatchObject({
      'Task Title': 'Review the policy',
      'Task Description': 'Line one\nLine two',
      'Control Description': 'Least privilege',
    });
  });

  it('keeps a subtask whose parent is missing in its place', () => {
    const rows = trackerRows(
      [{ referenceId: 'S', parentReferenceId: 'GONE', title: 'Sub', description: null, controlName: null }],
      [],
    );
    expect(rows).toEqual([
      {
        'Task ID': 'S',
        'Parent Task ID': 'GONE',
        'Task Title': 'Sub',
        'Task Description': '',
        'Control ID': '',
        'Control Title': '',
        'Control Description': '',
        'Points of Focus': '',
      },
    ]);
  });

  it('writes a CSV with a BOM, the columns as header and Windows line ends', async () => {
    const file = await writeTaskTrackerFile(trackerRows(SAMPLE_CONTENT.tasks, SAMPLE_CONTENT.controls), 'csv');
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(file.toString('utf8').slice(1).split('\r\n')[0]).toBe(TASK_TRACKER_COLUMNS.join(','));
  });

  it('writes an XLSX with a bold, frozen header, widths and text cells', async () => {
    const file = await writeTaskTrackerFile(trackerRows(SAMPLE_CONTENT.tasks, SAMPLE_CONTENT.controls), 'xlsx');
    const workbook = new Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, ...TASK_TRACKER_COLUMNS]);
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getColumn(3).width).toBeGreaterThanOrEqual(30);
    expect(sheet.getCell('A2')).toMatchObject({ type: ValueType.String, value: 'T-1' });
  });

  it.each(['csv', 'xlsx'] as const)('reads its %s export back as it was', async (format) => {
    const file = await writeTaskTrackerFile(trackerRows(SAMPLE_CONTENT.tasks, SAMPLE_CONTENT.controls), format);
    const back = await parseTaskTrackerFile(`export.${format}`, file);
    expect(back.controls).toEqual(SAMPLE_CONTENT.controls);
    // Subtasks now follow their parent.
    expect(back.tasks.map((t) => t.referenceId)).toEqual(['T-1', 'T-1.1', null, 'T-2']);
    expect(back.tasks.map(({ row: _row, ...t }) => t)).toEqual(
      expect.arrayContaining(SAMPLE_CONTENT.tasks.map(({ row: _row, ...t }) => t)),
    );
  });

  it.each(['csv', 'xlsx'] as const)(
    'offers a %s template that reads as a task with a control and points of focus, and its subtask',
    async (format) => {
      const content = await parseTaskTrackerFile(`template.${format}`, await taskTrackerFileTemplate(format));
      expect(content.tasks).toEqual([
        expect.objectContaining({ referenceId: 'T-1', parentReferenceId: null, controlName: 'AC-1' }),
        expect.objectContaining({ referenceId: 'T-1.1', parentReferenceId: 'T-1', controlName: 'AC-1' }),
      ]);
      expect(content.controls).toEqual([
        expect.objectContaining({
          name: 'AC-1',
          title: 'Access control policy',
          pointsOfFocus: ['The policy is approved by management', 'The policy is reviewed every year'],
        }),
      ]);
    },
  );
});

describe('parseTaskTrackerFile: workbooks of many rows', () => {
  const MB = 1024 * 1024;

  it('refuses 1,000,000 one-cell rows (an 8 MB archive) before exceljs reads them, with bounded memory', async () => {
    const rows = Array.from(
      { length: 1_000_000 },
      (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>x</t></is></c></row>`,
    );
    const sheet = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Task Title</t></is></c></row>${rows.join('')}</sheetData></worksheet>`,
    );
    const part = (name: string, data: Buffer) => ({
      name,
      data: zlib.deflateRawSync(data),
      deflated: true,
      uncompressedSize: data.length,
    });
    const xlsx = zipArchive([part('xl/worksheets/sheet1.xml', sheet)]);
    expect(xlsx.length).toBeLessThan(TASK_TRACKER_MAX_BYTES);
    let error: unknown;
    const cost = await measured(() => parseTaskTrackerFile('t.xlsx', xlsx).catch((e: unknown) => void (error = e)));
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'malformed_task_tracker',
      message: 'The .xlsx workbook unpacks to more than 30 MB: it cannot be read.',
    });
    expect(cost.rss).toBeLessThan(64 * MB);
    expect(cost.ms).toBeLessThan(2000);
  });

  it('reads 20,000 rows of an .xlsx, well within the archive limit', async () => {
    const xlsx = await trackerXlsx(manyRows(TASK_TRACKER_MAX_ROWS));
    await expect(parseTaskTrackerFile('t.xlsx', xlsx)).resolves.toMatchObject({ rows: TASK_TRACKER_MAX_ROWS });
  });

  it('refuses an .xlsx of more than TASK_TRACKER_MAX_ROWS rows of tasks, naming the limit', async () => {
    const error = await readFailure('t.xlsx', await trackerXlsx(manyRows(TASK_TRACKER_MAX_ROWS + 1)));
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'malformed_task_tracker',
      message:
        'The file has more than 20,000 rows of tasks: at most 20,000 are accepted in one file. Split it into several files.',
    });
  });

  it('refuses a workbook of more than TASK_TRACKER_MAX_LINES rows in its sheets, blank ones included, before exceljs reads it', async () => {
    // A row of two empty cells on each line, as a spreadsheet saves rows that were formatted once.
    const row = (n: number) =>
      `<row r="${n}"><c r="A${n}" t="inlineStr"><is><t></t></is></c><c r="B${n}" t="inlineStr"><is><t></t></is></c></row>`;
    const rows = Array.from({ length: TASK_TRACKER_MAX_LINES }, (_, i) => row(i + 2));
    const sheet = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Task Title</t></is></c></row>${rows.join('')}</sheetData></worksheet>`,
    );
    const part = (name: string, data: Buffer) => ({
      name,
      data: zlib.deflateRawSync(data),
      deflated: true,
      uncompressedSize: data.length,
    });
    const xlsx = zipArchive([part('xl/worksheets/sheet1.xml', sheet)]);
    let error: unknown;
    const cost = await measured(() => parseTaskTrackerFile('t.xlsx', xlsx).catch((e: unknown) => void (error = e)));
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'malformed_task_tracker',
      message:
        'The workbook has more than 100,000 rows, blank ones and those of other sheets included: at most 20,000 rows of tasks and 100,000 rows in all are accepted in one file. Remove the blank rows and other sheets, or split it into several files.',
    });
    expect(cost.ms).toBeLessThan(2000);
  });
});
