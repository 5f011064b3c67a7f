/**
 * Spreadsheet files of imports and exports (task trackers, issue 7; evidence requests, issue 8): a
 * .csv or .xlsx upload read into checked rows by the rules of its kind (columns, cell limits, row
 * limits, the code of its errors), and a table written back out as either format.
 *
 * Files are parsed by libraries (csv-parse, exceljs after the archive check of xlsx-guard.ts) into a
 * table of texts (spreadsheet-tables.ts); the rules below apply to that table alike for both formats. Nothing is ever
 * evaluated: a formula cell of a workbook is read as the text "=<formula>", and cells that would
 * start a formula are written with a leading apostrophe (dropped again on reading).
 *
 * Reading takes CPU for as long as the file is large: it runs in a parse worker (spreadsheet-pool.ts),
 * never on the event loop of the requests. readSheet is what a worker runs.
 */
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { Workbook } from 'exceljs';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import { formulaSafeCell, taskTrackerFileProblem } from '@portal/shared/core/practices';
import { HttpError } from './http-error';
import {
  Reading,
  cleanCell,
  isBlankRow,
  readCsvTable,
  readXlsxTable,
  type SheetKind,
  type TableRow,
} from './spreadsheet-tables';

export type { CellRule, SheetKind } from './spreadsheet-tables';

export type SpreadsheetFormat = 'csv' | 'xlsx';

/** Content types of the formats. */
export const SPREADSHEET_TYPES: Record<SpreadsheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

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
