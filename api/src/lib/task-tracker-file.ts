/**
 * Task tracker files (issue 7): reading a .csv or .xlsx upload into checked rows, and writing templates
 * back out. The contract (columns, limits, errors) is shared/src/core/practices.ts.
 *
 * Files are parsed by libraries (csv-parse, exceljs after the archive check of xlsx-guard.ts) into a
 * table of texts; the rules below apply to that table alike for both formats. Nothing is ever
 * evaluated: a formula cell of a workbook is read as the text "=<formula>".
 */
import { parse as parseCsv, CsvError } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { Workbook, ValueType, type Cell, type CellValue } from 'exceljs';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import {
  POINTS_OF_FOCUS_SEPARATOR,
  TASK_TRACKER_COLUMNS,
  TASK_TRACKER_LIMITS,
  TASK_TRACKER_MAX_ERRORS,
  TASK_TRACKER_MAX_LINES,
  TASK_TRACKER_MAX_ROWS,
  TASK_TRACKER_REQUIRED_COLUMNS,
  formulaSafeCell,
  fromFormulaSafeCell,
  taskTrackerFileProblem,
  type TaskTrackerColumn,
  type TaskTrackerFormat,
} from '@portal/shared/core/practices';
import { HttpError } from './http-error';
import { NOT_AN_XLSX, checkXlsxArchive, malformedTaskTracker } from './xlsx-guard';

/** One task of a file, in file order. */
export interface TrackerFileTask {
  /** The spreadsheet row (the header is row 1). */
  row: number;
  referenceId: string | null;
  /** The Task ID of its parent (a top-level task of the file, or with `externalParents` possibly of the project), or null. */
  parentReferenceId: string | null;
  title: string;
  description: string | null;
  /** The control (its Control ID) the task is linked to, or null. */
  controlName: string | null;
}

/** A control of a file: defined by the rows that name it (title, description and points of focus merged). */
export interface TrackerFileControl {
  /** The first row that names it. */
  row: number;
  name: string;
  title: string;
  description: string | null;
  /** Unique by name ignoring case, in file order. */
  pointsOfFocus: string[];
}

export interface TrackerFileContent {
  /** Data rows read (blank rows skipped, the header not counted). */
  rows: number;
  tasks: TrackerFileTask[];
  controls: TrackerFileControl[];
}

export interface ReadTaskTrackerOptions {
  /**
   * Project imports: a Parent Task ID that is not a Task ID of the file is left for the caller to
   * resolve against the project (templates: such a row is an error naming the row and column).
   */
  externalParents?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Reading

/** A row of the file as the spreadsheet shows it: its number and its cells' texts (column A first). */
interface TableRow {
  row: number;
  cells: string[];
}

/** A row problem: `Row 12, Task Title: Task Title is required`. */
interface Problem {
  row: number;
  message: string;
  /** Duplicate Task IDs have a code of their own. */
  duplicate?: boolean;
}

/** Cell rules of each column: the longest text, and whether it must fit on one line. */
const CELL_RULES: Record<TaskTrackerColumn, { max: number; oneLine: boolean }> = {
  'Task ID': { max: TASK_TRACKER_LIMITS.referenceId, oneLine: true },
  'Parent Task ID': { max: TASK_TRACKER_LIMITS.referenceId, oneLine: true },
  'Task Title': { max: TASK_TRACKER_LIMITS.title, oneLine: false },
  'Task Description': { max: TASK_TRACKER_LIMITS.description, oneLine: false },
  'Control ID': { max: TASK_TRACKER_LIMITS.controlId, oneLine: true },
  'Control Title': { max: TASK_TRACKER_LIMITS.controlTitle, oneLine: false },
  'Control Description': { max: TASK_TRACKER_LIMITS.description, oneLine: false },
  // Each point of focus is checked on its own (TASK_TRACKER_LIMITS.pointOfFocus); the cell holds several.
  'Points of Focus': { max: Infinity, oneLine: false },
};

/** Control characters other than tab and new line (carriage returns are new lines by then). */
// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
const COLUMN_LIST = TASK_TRACKER_COLUMNS.join(', ');
const HEADER_KEYS = new Map<string, TaskTrackerColumn>(TASK_TRACKER_COLUMNS.map((c) => [c.toLowerCase(), c]));
const count = (n: number) => n.toLocaleString('en-US');
const quote = (text: string, max = 40) => `"${text.length > max ? `${text.slice(0, max)}…` : text}"`;
const lower = (text: string) => text.toLowerCase();

/** Column letters as a spreadsheet shows them: 0 -> A, 26 -> AA. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/**
 * Reads a task tracker file. Throws an HttpError as the contract says: 415 `no_csv_file` /
 * `no_excel_file` by name, 400 `malformed_task_tracker` (unreadable file, missing or unknown columns,
 * row problems naming row and column, an .xlsx over the archive limits), 400
 * `task_reference_id_already_exist_on_project` for Task IDs repeated in the file.
 *
 * Row problems come as the message (the first) and `details` ({ field: 'file', message }, at most
 * TASK_TRACKER_MAX_ERRORS, in row order), as do several problems of the header row; a single problem
 * with the file as a whole (unreadable, empty, too many rows, one header problem) is the message alone.
 */
export async function readTaskTrackerFile(fileName: string, bytes: Buffer, options: ReadTaskTrackerOptions = {}): Promise<TrackerFileContent> {
  const nameProblem = taskTrackerFileProblem(fileName);
  if (nameProblem) throw new HttpError(415, nameProblem, ERROR_MESSAGES[nameProblem]);
  if (bytes.length === 0) throw malformedTaskTracker(EMPTY_FILE);
  return withParseSlot(async () => {
    const table = fileName.trim().toLowerCase().endsWith('.csv') ? readCsvTable(bytes) : await readXlsxTable(bytes);
    return readTable(table, options);
  });
}

/** Files parsed at once in this process, across every import route: parsing takes memory and CPU. */
export const TASK_TRACKER_PARALLEL_PARSES = 2;
let parsing = 0;
const waitingParses: (() => void)[] = [];

/** Runs `work` once fewer than TASK_TRACKER_PARALLEL_PARSES others run; the others wait their turn, first come first served. */
export async function withParseSlot<T>(work: () => Promise<T>): Promise<T> {
  if (parsing < TASK_TRACKER_PARALLEL_PARSES) parsing += 1;
  else await new Promise<void>((resolve) => waitingParses.push(resolve));
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, or is freed.
    const next = waitingParses.shift();
    if (next) next();
    else parsing -= 1;
  }
}

const EMPTY_FILE = 'The file is empty: its first row must hold the column headings (at least "Task Title").';

function readCsvTable(bytes: Buffer): TableRow[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw malformedTaskTracker('The CSV file is not UTF-8 text: save it as "CSV UTF-8 (Comma delimited)" and upload it again.');
  }
  const rows: TableRow[] = [];
  let records = 0;
  let filled = 0;
  try {
    // Quotes inside unquoted cells are kept as text, as spreadsheets do. Each record is looked at as it
    // is read and none is returned: blank ones are dropped, and reading stops past the limits, so a
    // file of millions of tiny or blank lines never becomes millions of arrays.
    parseCsv(text, {
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      on_record: (cells: string[]) => {
        // Every record is a spreadsheet row, empty lines included: record 1 is row 1.
        records += 1;
        if (records > TASK_TRACKER_MAX_LINES) throw new TooManyLines();
        const row = { row: records, cells };
        if (isBlankRow(row)) return null;
        filled += 1;
        // The header and one row past the limit are enough to refuse.
        if (filled > TASK_TRACKER_MAX_ROWS + 1) throw new TooManyRows();
        rows.push(row);
        return null;
      },
    });
  } catch (error) {
    if (error instanceof TooManyRows) throw tooManyRows();
    if (error instanceof TooManyLines) throw tooManyLines();
    throw malformedTaskTracker(csvProblem(error));
  }
  return rows;
}

class TooManyRows extends Error {}
class TooManyLines extends Error {}

const tooManyRows = () =>
  malformedTaskTracker(`The file has more than ${count(TASK_TRACKER_MAX_ROWS)} rows of tasks: at most ${count(TASK_TRACKER_MAX_ROWS)} are accepted in one file. Split it into several files.`);
const tooManyLines = () =>
  malformedTaskTracker(
    `The file has more than ${count(TASK_TRACKER_MAX_LINES)} rows, blank ones included: at most ${count(TASK_TRACKER_MAX_ROWS)} rows of tasks and ${count(TASK_TRACKER_MAX_LINES)} rows in all are accepted in one file. Remove the blank rows or split it into several files.`,
  );

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

async function readXlsxTable(bytes: Buffer): Promise<TableRow[]> {
  await checkXlsxArchive(bytes);
  const workbook = new Workbook();
  try {
    // exceljs types its parameter as its own Buffer (an ArrayBuffer); at run time it takes Node's Buffer.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw malformedTaskTracker(NOT_AN_XLSX);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw malformedTaskTracker('The workbook has no worksheet: the tasks go on its first sheet.');
  const rows: TableRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, columnNumber) => {
      cells[columnNumber - 1] = cellText(cell);
    });
    rows.push({ row: rowNumber, cells: Array.from(cells, (c) => c ?? '') });
  });
  return rows;
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

/** exceljs gives the date as shown, in UTC: a day alone, or with its time. */
function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
}

/** The cell as stored: trimmed, new lines as \n, and an apostrophe that protects a formula trigger dropped. */
function cleanCell(raw: string | undefined): string {
  if (!raw) return '';
  return fromFormulaSafeCell(raw.replace(/\r\n?/g, '\n').trim()).trim();
}

type RowValues = Record<TaskTrackerColumn, string>;

interface CheckedRow {
  row: number;
  values: RowValues;
  points: string[];
  /** Columns with a problem: the rules across rows leave them alone. */
  bad: Set<TaskTrackerColumn>;
}

function isBlankRow(r: TableRow): boolean {
  return r.cells.every((c) => cleanCell(c) === '');
}

function readTable(table: TableRow[], options: ReadTaskTrackerOptions): TrackerFileContent {
  const headerIndex = table.findIndex((r) => !isBlankRow(r));
  if (headerIndex < 0) throw malformedTaskTracker(EMPTY_FILE);
  const header = table[headerIndex];
  const columns = readHeader(header);

  const dataRows = table.slice(headerIndex + 1).filter((r) => !isBlankRow(r));
  if (dataRows.length === 0) throw malformedTaskTracker('The file has no tasks: add one row per task under the header row.');
  if (dataRows.length > TASK_TRACKER_MAX_ROWS) throw tooManyRows();

  const problems: Problem[] = [];
  const rows = dataRows.map((r) => checkRow(r, columns, header.row, problems));
  const content = combineRows(rows, options, problems);
  if (problems.length) throw rowProblems(problems);
  return { rows: dataRows.length, ...content };
}

/** The column of each cell of the header row (null: a column without heading). Throws on missing, unknown or repeated headings. */
function readHeader(header: TableRow): (TaskTrackerColumn | null)[] {
  const problems: string[] = [];
  const seen = new Map<TaskTrackerColumn, number>();
  const unknown: string[] = [];
  const columns = header.cells.map((raw, index) => {
    const heading = (raw ?? '').trim();
    if (!heading) return null;
    const column = HEADER_KEYS.get(lower(heading));
    if (!column) {
      unknown.push(`${quote(heading)} (column ${columnLetter(index)})`);
      return null;
    }
    const first = seen.get(column);
    if (first !== undefined) {
      problems.push(`Row ${header.row}: the column "${column}" appears twice (columns ${columnLetter(first)} and ${columnLetter(index)}).`);
      return null;
    }
    seen.set(column, index);
    return column;
  });
  for (const required of TASK_TRACKER_REQUIRED_COLUMNS) {
    if (!seen.has(required)) problems.unshift(`Row ${header.row}: the header row has no "${required}" column. The columns are: ${COLUMN_LIST}.`);
  }
  if (unknown.length) {
    problems.push(`Row ${header.row}: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. The columns are: ${COLUMN_LIST}.`);
  }
  if (problems.length === 1) throw malformedTaskTracker(problems[0]);
  if (problems.length) throw new HttpError(400, 'malformed_task_tracker', problems[0], problems.map((message) => ({ field: 'file', message })));
  return columns;
}

/** The cells of a data row, each checked on its own. */
function checkRow(source: TableRow, columns: (TaskTrackerColumn | null)[], headerRow: number, problems: Problem[]): CheckedRow {
  const { row } = source;
  const values = Object.fromEntries(TASK_TRACKER_COLUMNS.map((c) => [c, ''])) as RowValues;
  const bad = new Set<TaskTrackerColumn>();
  const problem = (column: TaskTrackerColumn, message: string) => {
    bad.add(column);
    problems.push({ row, message: `Row ${row}, ${column}: ${message}` });
  };

  source.cells.forEach((raw, index) => {
    const value = cleanCell(raw);
    if (!value) return;
    const column = columns[index] ?? null;
    if (!column) {
      problems.push({ row, message: `Row ${row}, column ${columnLetter(index)}: the cell is in a column without a heading in row ${headerRow}.` });
      return;
    }
    values[column] = value;
    const control = CONTROL_CHARACTER.exec(value);
    const rule = CELL_RULES[column];
    if (control) {
      const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      problem(column, `${column} must not contain control characters (found U+${code}${code === '0000' ? ', a NUL character' : ''}).`);
    } else if (rule.oneLine && /[\n\t]/.test(value)) {
      problem(column, `${column} must be on one line.`);
    } else if (value.length > rule.max) {
      problem(column, `${column} must be at most ${count(rule.max)} characters (it has ${count(value.length)}).`);
    }
  });
  if (!values['Task Title'] && !bad.has('Task Title')) problem('Task Title', 'Task Title is required');

  const points: string[] = [];
  if (values['Points of Focus'] && !bad.has('Points of Focus')) {
    for (const point of values['Points of Focus'].split(POINTS_OF_FOCUS_SEPARATOR).map((p) => p.trim())) {
      if (!point) continue;
      if (point.length > TASK_TRACKER_LIMITS.pointOfFocus) {
        problem('Points of Focus', `each point of focus must be at most ${count(TASK_TRACKER_LIMITS.pointOfFocus)} characters: ${quote(point)} has ${count(point.length)}.`);
      } else {
        points.push(point);
      }
    }
  }
  return { row, values, points, bad };
}

/** The rules across rows: unique Task IDs, parents, controls merged from the rows that name them. */
function combineRows(rows: CheckedRow[], options: ReadTaskTrackerOptions, problems: Problem[]): Omit<TrackerFileContent, 'rows'> {
  const problem = (row: number, column: TaskTrackerColumn, message: string, duplicate = false) =>
    problems.push({ row, message: `Row ${row}, ${column}: ${message}`, duplicate });

  // Task IDs: unique in the file ignoring case (the database's rule), or empty.
  const byReference = new Map<string, CheckedRow>();
  for (const r of rows) {
    const id = r.values['Task ID'];
    if (!id || r.bad.has('Task ID')) continue;
    const first = byReference.get(lower(id));
    if (first) problem(r.row, 'Task ID', `"${id}" is also on row ${first.row}. Task IDs must be unique or null.`, true);
    else byReference.set(lower(id), r);
  }

  const tasks: TrackerFileTask[] = rows.map((r) => {
    const v = r.values;
    let parentReferenceId: string | null = null;
    const parentId = v['Parent Task ID'];
    if (parentId && !r.bad.has('Parent Task ID')) {
      const parent = byReference.get(lower(parentId));
      if (parent === r || (v['Task ID'] && lower(v['Task ID']) === lower(parentId))) {
        problem(r.row, 'Parent Task ID', 'a task cannot be its own parent.');
      } else if (parent?.values['Parent Task ID']) {
        problem(r.row, 'Parent Task ID', `"${parentId}" (row ${parent.row}) is itself a subtask: subtasks cannot have subtasks.`);
      } else if (parent) {
        parentReferenceId = parent.values['Task ID'];
      } else if (options.externalParents) {
        parentReferenceId = parentId;
      } else {
        problem(r.row, 'Parent Task ID', `no row of the file has the Task ID "${parentId}".`);
      }
    }
    return {
      row: r.row,
      referenceId: v['Task ID'] || null,
      parentReferenceId,
      title: v['Task Title'],
      description: v['Task Description'] || null,
      controlName: null,
    };
  });

  // Controls: one per row at most, named by Control ID (ignoring case); the rows that name one must agree.
  interface ControlDraft extends TrackerFileControl {
    titleRow: number | null;
    descriptionRow: number | null;
    pointKeys: Set<string>;
  }
  const controls = new Map<string, ControlDraft>();
  rows.forEach((r, index) => {
    const v = r.values;
    const name = r.bad.has('Control ID') ? '' : v['Control ID'];
    if (!name) {
      if (v['Control ID']) return;
      for (const column of ['Control Title', 'Control Description', 'Points of Focus'] as const) {
        if (v[column] && !r.bad.has(column)) problem(r.row, column, `${column} ${column === 'Points of Focus' ? 'need' : 'needs'} a Control ID on the row.`);
      }
      return;
    }
    let control = controls.get(lower(name));
    if (!control) {
      control = { row: r.row, name, title: '', description: null, pointsOfFocus: [], titleRow: null, descriptionRow: null, pointKeys: new Set() };
      controls.set(lower(name), control);
    }
    tasks[index].controlName = control.name;
    const title = r.bad.has('Control Title') ? '' : v['Control Title'];
    if (title && control.titleRow === null) {
      control.title = title;
      control.titleRow = r.row;
    } else if (title && title !== control.title) {
      problem(r.row, 'Control Title', `${quote(title)} differs from the title ${quote(control.title)} that row ${control.titleRow} gives control "${control.name}".`);
    }
    const description = r.bad.has('Control Description') ? '' : v['Control Description'];
    if (description && control.descriptionRow === null) {
      control.description = description;
      control.descriptionRow = r.row;
    } else if (description && description !== control.description) {
      problem(r.row, 'Control Description', `it differs from the description that row ${control.descriptionRow} gives control "${control.name}".`);
    }
    for (const point of r.points) {
      if (control.pointKeys.has(lower(point))) continue;
      control.pointKeys.add(lower(point));
      control.pointsOfFocus.push(point);
    }
  });

  return {
    tasks,
    controls: [...controls.values()].map(({ row, name, title, description, pointsOfFocus }) => ({ row, name, title: title || name, description, pointsOfFocus })),
  };
}

/** The 400 of row problems: the first as message, up to TASK_TRACKER_MAX_ERRORS as details, in row order. */
function rowProblems(problems: Problem[]): HttpError {
  const sorted = problems.map((p, order) => ({ ...p, order })).sort((a, b) => a.row - b.row || a.order - b.order);
  const code = sorted.every((p) => p.duplicate) ? 'task_reference_id_already_exist_on_project' : 'malformed_task_tracker';
  const details = sorted.slice(0, TASK_TRACKER_MAX_ERRORS).map((p) => ({ field: 'file', message: p.message }));
  return new HttpError(400, code, sorted[0].message, details);
}

// ---------------------------------------------------------------------------------------------
// Writing

/** One row of an export: every column, as text. */
export type TaskTrackerRow = Record<TaskTrackerColumn, string>;

const COLUMN_WIDTHS: Record<TaskTrackerColumn, number> = {
  'Task ID': 14,
  'Parent Task ID': 16,
  'Task Title': 40,
  'Task Description': 60,
  'Control ID': 14,
  'Control Title': 32,
  'Control Description': 50,
  'Points of Focus': 40,
};
const WRAPPED: readonly TaskTrackerColumn[] = ['Task Title', 'Task Description', 'Control Title', 'Control Description', 'Points of Focus'];

/**
 * Writes rows as a .csv (UTF-8 with BOM, formula-safe cells) or an .xlsx (text cells, header row bold and frozen).
 * Cells that would start a formula get a leading apostrophe in both formats, so the file stays safe
 * when a spreadsheet saves it again as CSV; reading drops the apostrophe, so an export reads back the same.
 */
export async function writeTaskTrackerFile(rows: TaskTrackerRow[], format: TaskTrackerFormat): Promise<Buffer> {
  const cells = rows.map((r) => TASK_TRACKER_COLUMNS.map((c) => formulaSafeCell(r[c] ?? '')));
  if (format === 'csv') {
    return Buffer.from(stringifyCsv([[...TASK_TRACKER_COLUMNS], ...cells], { bom: true, record_delimiter: 'windows' }), 'utf8');
  }
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet('Tasks', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = TASK_TRACKER_COLUMNS.map((c) => ({
    header: c,
    key: c,
    width: COLUMN_WIDTHS[c],
    style: { alignment: { vertical: 'top', wrapText: WRAPPED.includes(c) } },
  }));
  sheet.getRow(1).font = { bold: true };
  // Strings only (never { formula }): an empty cell stays empty.
  for (const row of cells) sheet.addRow(row.map((text) => text || null));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: TASK_TRACKER_COLUMNS.length } };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The rows of a template: each task in order (subtasks after their parent), a control's title, description and points of focus on the first row that names it. */
export function trackerRows(
  tasks: { referenceId: string | null; parentReferenceId: string | null; title: string; description: string | null; controlName: string | null }[],
  controls: { name: string; title: string; description: string | null; pointsOfFocus: string[] }[],
): TaskTrackerRow[] {
  type Task = (typeof tasks)[number];
  const byReference = new Map<string, Task>();
  for (const t of tasks) if (t.referenceId && !byReference.has(lower(t.referenceId))) byReference.set(lower(t.referenceId), t);
  const namedParent = (t: Task) => {
    const parent = t.parentReferenceId ? byReference.get(lower(t.parentReferenceId)) : undefined;
    return parent !== t ? parent : undefined;
  };
  // A subtask goes under its parent; one whose parent is missing or itself a subtask keeps its place.
  const parentOf = (t: Task) => {
    const parent = namedParent(t);
    return parent && !namedParent(parent) ? parent : undefined;
  };
  const children = new Map<Task, Task[]>();
  for (const t of tasks) {
    const parent = parentOf(t);
    if (!parent) continue;
    const siblings = children.get(parent);
    if (siblings) siblings.push(t);
    else children.set(parent, [t]);
  }
  const ordered = tasks.flatMap((t) => (parentOf(t) ? [] : [t, ...(children.get(t) ?? [])]));

  const controlsByName = new Map(controls.map((c) => [lower(c.name), c]));
  const described = new Set<string>();
  return ordered.map((t) => {
    const control = t.controlName ? controlsByName.get(lower(t.controlName)) : undefined;
    const first = control && !described.has(lower(control.name));
    if (control) described.add(lower(control.name));
    return {
      'Task ID': t.referenceId ?? '',
      'Parent Task ID': t.parentReferenceId ?? '',
      'Task Title': t.title,
      'Task Description': t.description ?? '',
      'Control ID': control?.name ?? t.controlName ?? '',
      'Control Title': first ? control.title : '',
      'Control Description': first ? (control.description ?? '') : '',
      'Points of Focus': first ? control.pointsOfFocus.join('\n') : '',
    };
  });
}

const TEMPLATE_ROWS: TaskTrackerRow[] = [
  {
    'Task ID': 'T-1',
    'Parent Task ID': '',
    'Task Title': 'Review the access control policy',
    'Task Description': 'Obtain the current access control policy and confirm it was approved in the last 12 months.',
    'Control ID': 'AC-1',
    'Control Title': 'Access control policy',
    'Control Description': 'Access to systems is granted on least privilege and reviewed regularly.',
    'Points of Focus': 'The policy is approved by management\nThe policy is reviewed every year',
  },
  {
    'Task ID': 'T-1.1',
    'Parent Task ID': 'T-1',
    'Task Title': 'Collect the approval evidence',
    'Task Description': 'Attach the signed approval or the meeting minutes that approved the policy.',
    'Control ID': 'AC-1',
    'Control Title': '',
    'Control Description': '',
    'Points of Focus': '',
  },
];

/** The downloadable template file: the header and two example rows (a task with a control and points of focus, and its subtask). */
export async function taskTrackerFileTemplate(format: TaskTrackerFormat): Promise<Buffer> {
  return writeTaskTrackerFile(TEMPLATE_ROWS, format);
}

/** Content types and file names of the formats. */
export const TRACKER_FILE_TYPES: Record<TaskTrackerFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
