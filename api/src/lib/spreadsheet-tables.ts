/**
 * The rows of a spreadsheet file as texts (spreadsheet.ts applies a kind's rules to them): a .csv
 * parsed by csv-parse, an .xlsx by exceljs after the archive check of xlsx-guard.ts, both within the
 * kind's row limits, and the messages of a file that cannot be read as a whole.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse as parseCsv, CsvError } from 'csv-parse';
import { Workbook, ValueType, type Cell, type CellValue } from 'exceljs';
import { fromFormulaSafeCell } from '@portal/shared/core/practices';
import { HttpError } from './http-error';
import { NOT_AN_XLSX, checkXlsxArchive } from './xlsx-guard';

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

const count = (n: number) => n.toLocaleString('en-US');

/** A row of the file as the spreadsheet shows it: its number and its cells' texts (column A first). */
export interface TableRow {
  row: number;
  cells: string[];
}

/** The messages and errors of one kind of file. */
export class Reading<C extends string> {
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
export async function readCsvTable(bytes: Buffer, reading: Reading<string>): Promise<TableRow[]> {
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
export async function readXlsxTable(bytes: Buffer, reading: Reading<string>): Promise<TableRow[]> {
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

export function isBlankRow(r: TableRow): boolean {
  return r.cells.every((c) => cleanCell(c) === '');
}
