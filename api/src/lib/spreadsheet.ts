/**
 * Spreadsheet files of imports and exports (task trackers, issue 7; evidence requests, issue 8): a
 * .csv or .xlsx upload read into checked rows by the rules of its kind (columns, cell limits, row
 * limits, the code of its errors), and a table written back out as either format.
 *
 * Files are parsed by libraries (csv-parse, exceljs after the archive check of xlsx-guard.ts) into a
 * table of texts; the rules below apply to that table alike for both formats. Nothing is ever
 * evaluated: a formula cell of a workbook is read as the text "=<formula>", and cells that would
 * start a formula are written with a leading apostrophe (dropped again on reading).
 *
 * Reading takes CPU for as long as the file is large: it runs in a parse worker (spreadsheet-pool.ts),
 * never on the event loop of the requests. readSheet is what a worker runs.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse as parseCsv, CsvError } from 'csv-parse';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { Workbook, ValueType, type Cell, type CellValue } from 'exceljs';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import { formulaSafeCell, fromFormulaSafeCell, taskTrackerFileProblem } from '@portal/shared/core/practices';
import { HttpError } from './http-error';
import { NOT_AN_XLSX, checkXlsxArchive } from './xlsx-guard';

export type SpreadsheetFormat = 'csv' | 'xlsx';

/** Content types of the formats. */
export const SPREADSHEET_TYPES: Record<SpreadsheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The longest text of a cell, and whether it must fit on one line. */
export interface CellRule {
  max: number;
  oneLine: boolean;
}

/** What a kind of file is: its columns, its rules, the code of its errors and how its messages name its rows. */
export interface SheetKind<C extends string> {
  /** The headings, in the order messages list them; matched ignoring case and spaces around. */
  columns: readonly C[];
  required: readonly C[];
  /** Rules of the columns read; a column without one is accepted and its cells ignored (columns only exports write). */
  cells: Partial<Record<C, CellRule>>;
  /** Data rows in one file (blank rows not counted). */
  maxRows: number;
  /** Rows of a file, blank ones included (they are skipped, yet take reading). */
  maxLines: number;
  /** Row problems reported at once (the first one is the message). */
  maxErrors: number;
  /** The 400 code of a file that cannot be read. */
  code: string;
  /** A data row in messages: `{ one: 'task', many: 'tasks', rows: 'rows of tasks' }`. */
  noun: { one: string; many: string; rows: string };
}

/** A data row: its number as a spreadsheet shows it (the header is row 1) and its cells by column, each checked on its own. */
export interface SheetRow<C extends string> {
  row: number;
  /** Cleaned texts; '' when empty (and for columns without rules). */
  values: Record<C, string>;
  /** Columns with a problem: the rules across rows leave them alone. */
  bad: Set<C>;
}

const count = (n: number) => n.toLocaleString('en-US');
export const quote = (text: string, max = 40) => `"${text.length > max ? `${text.slice(0, max)}…` : text}"`;
/** Control characters other than tab and new line (carriage returns are new lines by then). */
// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

/** Column letters as a spreadsheet shows them: 0 -> A, 26 -> AA. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/**
 * Row problems of a file, reported together: `Row 12, Due Date: …`, in row order (then as found), the
 * first as the message and up to the kind's maxErrors as `details` ({ field: 'file', message }). A
 * problem may carry a code of its own (repeated Task IDs): when every problem has that code, it is the
 * error's code.
 */
export class RowProblems {
  private readonly problems: { row: number; message: string; code?: string }[] = [];

  constructor(private readonly kind: Pick<SheetKind<string>, 'code' | 'maxErrors'>) {}

  /** `Row <row>, <column>: <message>`; `column` is a heading or `column B`. */
  add(row: number, column: string, message: string, code?: string): void {
    this.problems.push({ row, message: `Row ${row}, ${column}: ${message}`, code });
  }

  get size(): number {
    return this.problems.length;
  }

  /** Throws the 400 of the problems found, if any. */
  throwIfAny(): void {
    if (this.problems.length === 0) return;
    const sorted = this.problems
      .map((p, order) => ({ ...p, order }))
      .sort((a, b) => a.row - b.row || a.order - b.order);
    const own = sorted[0].code;
    const code = own && sorted.every((p) => p.code === own) ? own : this.kind.code;
    const details = sorted.slice(0, this.kind.maxErrors).map((p) => ({ field: 'file', message: p.message }));
    throw new HttpError(400, code, sorted[0].message, details);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

/** A row of the file as the spreadsheet shows it: its number and its cells' texts (column A first). */
interface TableRow {
  row: number;
  cells: string[];
}

/** The messages and errors of one kind of file. */
class Reading<C extends string> {
  readonly headings: Map<string, C>;
  readonly columnList: string;

  constructor(readonly kind: SheetKind<C>) {
    this.headings = new Map(kind.columns.map((c) => [c.toLowerCase(), c]));
    this.columnList = kind.columns.join(', ');
  }

  /** The 400 of a file that cannot be read as a whole (no row to name). */
  malformed = (message: string) => new HttpError(400, this.kind.code, message);

  emptyFile = () =>
    this.malformed(
      `The file is empty: its first row must hold the column headings (at least ${this.kind.required.map((c) => `"${c}"`).join(', ')}).`,
    );

  tooManyRows = () => {
    const { maxRows, noun } = this.kind;
    return this.malformed(
      `The file has more than ${count(maxRows)} ${noun.rows}: at most ${count(maxRows)} are accepted in one file. Split it into several files.`,
    );
  };

  tooManyLines = () => {
    const { maxRows, maxLines, noun } = this.kind;
    return this.malformed(
      `The file has more than ${count(maxLines)} rows, blank ones included: at most ${count(maxRows)} ${noun.rows} and ${count(maxLines)} rows in all are accepted in one file. Remove the blank rows or split it into several files.`,
    );
  };

  /** An .xlsx whose sheets hold too many rows in all (exceljs reads every sheet). */
  tooManySheetRows = () => {
    const { maxRows, maxLines, noun } = this.kind;
    return this.malformed(
      `The workbook has more than ${count(maxLines)} rows, blank ones and those of other sheets included: at most ${count(maxRows)} ${noun.rows} and ${count(maxLines)} rows in all are accepted in one file. Remove the blank rows and other sheets, or split it into several files.`,
    );
  };
}

/**
 * Reads a file of `kind`, in this thread (routes read files in a parse worker: spreadsheet-pool.ts):
 * 415 `no_csv_file` / `no_excel_file` by name; 400 with the kind's code for an unreadable file,
 * missing, unknown or repeated columns, an .xlsx over the archive limits, too many rows (refused as
 * soon as the limit is passed, before the rest of the file is read), and for row problems (each cell
 * checked against its rule: control characters, one line, length; required columns present). Then
 * `build` applies the rules across rows, adding to the same problems; when there are any, they are
 * thrown together.
 *
 * A single problem with the file as a whole (unreadable, empty, too many rows, one header problem) is
 * the message alone; several problems of the header row come as details too.
 */
export async function readSheet<C extends string, T>(
  kind: SheetKind<C>,
  fileName: string,
  bytes: Buffer,
  build: (rows: SheetRow<C>[], problems: RowProblems) => T,
): Promise<{ rows: number; content: T }> {
  const nameProblem = taskTrackerFileProblem(fileName);
  if (nameProblem) throw new HttpError(415, nameProblem, ERROR_MESSAGES[nameProblem]);
  const reading = new Reading(kind);
  if (bytes.length === 0) throw reading.emptyFile();
  const table = fileName.trim().toLowerCase().endsWith('.csv')
    ? await readCsvTable(bytes, reading)
    : await readXlsxTable(bytes, reading);
  return readTable(table, reading, build);
}

class LimitPassed extends Error {}
class NotUtf8 extends Error {}

/**
 * The rows of a file as a reader finds them, within the kind's limits: every row counts towards
 * maxLines (blank ones take reading too) and is dropped when blank; filled ones are kept up to one
 * past maxRows (the header and one row too many are enough to refuse). As soon as a limit is passed,
 * `passed` names it and `add` throws, so the reader stops there.
 */
class TableRows {
  readonly rows: TableRow[] = [];
  passed: 'rows' | 'lines' | null = null;
  private read = 0;
  private filled = 0;

  constructor(private readonly kind: Pick<SheetKind<string>, 'maxRows' | 'maxLines'>) {}

  add(row: TableRow): void {
    this.read += 1;
    if (this.read > this.kind.maxLines) this.pass('lines');
    if (isBlankRow(row)) return;
    this.filled += 1;
    if (this.filled > this.kind.maxRows + 1) this.pass('rows');
    this.rows.push(row);
  }

  private pass(limit: 'rows' | 'lines'): never {
    this.passed = limit;
    throw new LimitPassed();
  }

  /** The 400 of the limit passed, if one was (whatever error stopping the reader raised). */
  refusal(reading: Reading<string>): HttpError | null {
    if (this.passed === 'rows') return reading.tooManyRows();
    if (this.passed === 'lines') return reading.tooManyLines();
    return null;
  }
}

/** Bytes of a CSV decoded and parsed at a time. */
const CSV_CHUNK = 64 * 1024;

/** The file as UTF-8 text, a chunk at a time (a character split between chunks is decoded whole); NotUtf8 at the first invalid byte. */
function* utf8Chunks(bytes: Buffer): Generator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let at = 0; at <= bytes.length; at += CSV_CHUNK) {
    const last = at + CSV_CHUNK > bytes.length;
    let text: string;
    try {
      text = last
        ? decoder.decode(bytes.subarray(at))
        : decoder.decode(bytes.subarray(at, at + CSV_CHUNK), { stream: true });
    } catch {
      throw new NotUtf8();
    }
    if (text) yield text;
  }
}

/**
 * The rows of a CSV, parsed as a stream of chunks (csv-parse's streaming API): reading stops at the
 * row that passes a limit, so a file of millions of tiny or blank lines never becomes millions of
 * arrays, nor one 20 MB string.
 */
async function readCsvTable(bytes: Buffer, reading: Reading<string>): Promise<TableRow[]> {
  const table = new TableRows(reading.kind);
  let records = 0;
  // Quotes inside unquoted cells are kept as text, as spreadsheets do. Each record is looked at as it
  // is read and none is passed on: the filled ones are kept by `table`, blank ones dropped.
  const parser = parseCsv({
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    on_record: (cells: string[]) => {
      // Every record is a spreadsheet row, empty lines included: record 1 is row 1.
      records += 1;
      table.add({ row: records, cells });
      return null;
    },
  });
  try {
    await pipeline(Readable.from(utf8Chunks(bytes)), parser, async (passed: AsyncIterable<unknown>) => {
      for await (const _record of passed) {
        // on_record passes none on
      }
    });
  } catch (error) {
    const refusal = table.refusal(reading);
    if (refusal) throw refusal;
    if (error instanceof NotUtf8)
      throw reading.malformed(
        'The CSV file is not UTF-8 text: save it as "CSV UTF-8 (Comma delimited)" and upload it again.',
      );
    throw reading.malformed(csvProblem(error));
  }
  return table.rows;
}

function csvProblem(error: unknown): string {
  if (!(error instanceof CsvError)) return 'The CSV file cannot be read.';
  // csv-parse counts the records read before the one it stopped in, and the text lines it read.
  const row = typeof error.records === 'number' ? error.records + 1 : null;
  const line = typeof error.lines === 'number' ? error.lines : null;
  const where = [row !== null ? `Row ${row}` : null, line !== null ? `line ${line}` : null].filter(Boolean).join(', ');
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    const ended = line !== null ? `; the file ends inside it, at line ${line}` : '';
    return `The CSV file cannot be read: a quoted cell${row !== null ? ` on row ${row}` : ''} is never closed (a cell that starts with " must end with "${ended}).`;
  }
  return `The CSV file cannot be read: ${where ? `${where}: ` : ''}${error.message}`;
}

/**
 * The rows of a workbook's first sheet. exceljs's streaming reader is not used: it walks the archive
 * by its local headers (unzipper), a second reading of the zip beside the central directory that
 * xlsx-guard.ts checks (and JSZip reads), which a crafted archive can make differ; it also finds
 * sheets by part name rather than workbook order. So the guard, while inflating every part, counts the
 * worksheets' rows and refuses past maxLines before exceljs loads anything (at most 30 MB unpacked);
 * the walk below stops at the limits too.
 */
async function readXlsxTable(bytes: Buffer, reading: Reading<string>): Promise<TableRow[]> {
  await checkXlsxArchive(bytes, reading.malformed, { max: reading.kind.maxLines, refuse: reading.tooManySheetRows });
  const workbook = new Workbook();
  try {
    // exceljs types its parameter as its own Buffer (an ArrayBuffer); at run time it takes Node's Buffer.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw reading.malformed(NOT_AN_XLSX);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet)
    throw reading.malformed(`The workbook has no worksheet: the ${reading.kind.noun.many} go on its first sheet.`);
  const table = new TableRows(reading.kind);
  try {
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell, columnNumber) => {
        cells[columnNumber - 1] = cellText(cell);
      });
      table.add({ row: rowNumber, cells: Array.from(cells, (c) => c ?? '') });
    });
  } catch (error) {
    throw table.refusal(reading) ?? error;
  }
  return table.rows;
}

/** The text of a workbook cell, as a user reads it; formulas as their text, never their result. */
export function cellText(cell: Cell): string {
  // The cells covered by a merged range show the range's value, which belongs to its first cell only.
  if (cell.type === ValueType.Merge) return '';
  if (cell.type === ValueType.Formula) return cell.formula ? `=${cell.formula}` : '';
  return valueText(cell.value);
}

function valueText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(Number(value.toPrecision(15))) : '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if ('richText' in value) return value.richText.map((run) => run.text ?? '').join('');
  if ('hyperlink' in value) return valueText(value.text as CellValue);
  if ('error' in value) return String(value.error);
  if ('formula' in value && value.formula) return `=${value.formula}`;
  return '';
}

/** exceljs gives the date as shown, in UTC: a day alone (YYYY-MM-DD), or with its time. */
function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
}

/** The cell as stored: trimmed, new lines as \n, and an apostrophe that protects a formula trigger dropped. */
export function cleanCell(raw: string | undefined): string {
  if (!raw) return '';
  return fromFormulaSafeCell(raw.replace(/\r\n?/g, '\n').trim()).trim();
}

function isBlankRow(r: TableRow): boolean {
  return r.cells.every((c) => cleanCell(c) === '');
}

function readTable<C extends string, T>(
  table: TableRow[],
  reading: Reading<C>,
  build: (rows: SheetRow<C>[], problems: RowProblems) => T,
): { rows: number; content: T } {
  const headerIndex = table.findIndex((r) => !isBlankRow(r));
  if (headerIndex < 0) throw reading.emptyFile();
  const header = table[headerIndex];
  const columns = readHeader(header, reading);

  const dataRows = table.slice(headerIndex + 1).filter((r) => !isBlankRow(r));
  const { noun } = reading.kind;
  if (dataRows.length === 0)
    throw reading.malformed(`The file has no ${noun.many}: add one row per ${noun.one} under the header row.`);
  if (dataRows.length > reading.kind.maxRows) throw reading.tooManyRows();

  const problems = new RowProblems(reading.kind);
  const rows = dataRows.map((r) => checkRow(r, columns, header.row, reading.kind, problems));
  const content = build(rows, problems);
  problems.throwIfAny();
  return { rows: dataRows.length, content };
}

/** The column of each cell of the header row (null: a column without heading). Throws on missing, unknown or repeated headings. */
function readHeader<C extends string>(header: TableRow, reading: Reading<C>): (C | null)[] {
  const problems: string[] = [];
  const seen = new Map<C, number>();
  const unknown: string[] = [];
  const columns = header.cells.map((raw, index) => {
    const heading = (raw ?? '').trim();
    if (!heading) return null;
    const column = reading.headings.get(heading.toLowerCase());
    if (!column) {
      unknown.push(`${quote(heading)} (column ${columnLetter(index)})`);
      return null;
    }
    const first = seen.get(column);
    if (first !== undefined) {
      problems.push(
        `Row ${header.row}: the column "${column}" appears twice (columns ${columnLetter(first)} and ${columnLetter(index)}).`,
      );
      return null;
    }
    seen.set(column, index);
    return column;
  });
  for (const required of reading.kind.required) {
    if (!seen.has(required))
      problems.unshift(
        `Row ${header.row}: the header row has no "${required}" column. The columns are: ${reading.columnList}.`,
      );
  }
  if (unknown.length) {
    problems.push(
      `Row ${header.row}: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. The columns are: ${reading.columnList}.`,
    );
  }
  if (problems.length === 1) throw reading.malformed(problems[0]);
  if (problems.length)
    throw new HttpError(
      400,
      reading.kind.code,
      problems[0],
      problems.map((message) => ({ field: 'file', message })),
    );
  return columns;
}

/** The cells of a data row, each checked against its column's rule; required columns must be filled. */
function checkRow<C extends string>(
  source: TableRow,
  columns: (C | null)[],
  headerRow: number,
  kind: SheetKind<C>,
  problems: RowProblems,
): SheetRow<C> {
  const { row } = source;
  const values = Object.fromEntries(kind.columns.map((c) => [c, ''])) as Record<C, string>;
  const bad = new Set<C>();
  const problem = (column: C, message: string) => {
    bad.add(column);
    problems.add(row, column, message);
  };

  source.cells.forEach((raw, index) => {
    const value = cleanCell(raw);
    if (!value) return;
    const column = columns[index] ?? null;
    if (!column) {
      problems.add(
        row,
        `column ${columnLetter(index)}`,
        `the cell is in a column without a heading in row ${headerRow}.`,
      );
      return;
    }
    const rule = kind.cells[column];
    if (!rule) return;
    values[column] = value;
    const control = CONTROL_CHARACTER.exec(value);
    if (control) {
      const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      problem(
        column,
        `${column} must not contain control characters (found U+${code}${code === '0000' ? ', a NUL character' : ''}).`,
      );
    } else if (rule.oneLine && /[\n\t]/.test(value)) {
      problem(column, `${column} must be on one line.`);
    } else if (value.length > rule.max) {
      problem(column, `${column} must be at most ${count(rule.max)} characters (it has ${count(value.length)}).`);
    }
  });
  for (const required of kind.required) {
    if (!values[required] && !bad.has(required)) problem(required, `${required} is required`);
  }
  return { row, values, bad };
}

// ---------------------------------------------------------------------------------------------
// Writing

/** A column of a written file: its heading, its width in an .xlsx, and whether its text wraps there. */
export interface SheetColumn {
  heading: string;
  width: number;
  wrap?: boolean;
}

/**
 * Writes a table as a .csv (UTF-8 with BOM, Windows line ends) or an .xlsx (one sheet of text cells,
 * header row bold, frozen and filtered). Cells that would start a formula get a leading apostrophe in
 * both formats, so the file stays safe when a spreadsheet saves it again as CSV; reading drops the
 * apostrophe, so an export reads back the same.
 */
export async function writeSheet(
  format: SpreadsheetFormat,
  sheetName: string,
  columns: readonly SheetColumn[],
  rows: readonly (readonly string[])[],
): Promise<Buffer> {
  const cells = rows.map((r) => columns.map((_, i) => formulaSafeCell(r[i] ?? '')));
  const headings = columns.map((c) => c.heading);
  if (format === 'csv') {
    return Buffer.from(stringifyCsv([headings, ...cells], { bom: true, record_delimiter: 'windows' }), 'utf8');
  }
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c.heading,
    key: c.heading,
    width: c.width,
    style: { alignment: { vertical: 'top', wrapText: Boolean(c.wrap) } },
  }));
  sheet.getRow(1).font = { bold: true };
  // Strings only (never { formula }): an empty cell stays empty.
  for (const row of cells) sheet.addRow(row.map((text) => text || null));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
