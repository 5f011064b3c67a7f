/**
 * Evidence request files (issue 8): reading a .csv or .xlsx of requests to import into checked rows,
 * and writing requests (an export, the template) as a file. The contract (columns, limits, errors) is
 * shared/src/core/requests ("Import and export files"); the spreadsheet rules are lib/spreadsheet.ts.
 * The rows name assignees and projects as text: the import route resolves them against the company.
 */
import { dayText } from '@portal/shared/core/projects';
import {
  MALFORMED_REQUEST_FILE_CODE,
  REQUEST_FILE_COLUMNS,
  REQUEST_FILE_IMPORTED_COLUMNS,
  REQUEST_FILE_REQUIRED_COLUMNS,
  REQUEST_IMPORT_MAX_ERRORS,
  REQUEST_IMPORT_MAX_ROWS,
  REQUEST_LIMITS,
  REQUEST_MAX_ASSIGNEES,
  REQUEST_PRIORITIES,
  REQUEST_PRIORITY_LABELS,
  REQUEST_REFERENCE_PATTERN,
  REQUEST_STATUS_LABELS,
  type RequestFileColumn,
  type RequestFileFormat,
  type RequestPriority,
  type RequestSummary,
} from '@portal/shared/core/requests';
import {
  quote,
  readSheet,
  writeSheet,
  type CellRule,
  type RowProblems,
  type SheetColumn,
  type SheetKind,
  type SheetRow,
} from '../../lib/spreadsheet';
import { parseInWorker } from '../../lib/spreadsheet-pool';

/** One request of a file, in file order. */
export interface RequestFileRow {
  /** The spreadsheet row (the header is row 1). */
  row: number;
  /** As given (checked against REQUEST_REFERENCE_PATTERN), or null: the api numbers it. */
  reference: string | null;
  /** The number of a reference in the api's own form (REQ-0012 -> 12, ignoring case and zeros), else null. */
  referenceNumber: number | null;
  title: string;
  description: string | null;
  priority: RequestPriority;
  /** YYYY-MM-DD */
  dueDate: string | null;
  /** E-mails (holding an @) and team names as written, unique ignoring case, in cell order. */
  assignees: string[];
  /** A project title, as written. */
  project: string | null;
}

export interface RequestFileContent {
  /** Data rows read (blank rows skipped, the header not counted). */
  rows: number;
  requests: RequestFileRow[];
}

/** Assignees in one cell are separated by semicolons or new lines. */
const ASSIGNEE_SEPARATOR = /[\n;]/;
/** An e-mail address or a team name in the Assignees cell. */
const ASSIGNEE_MAX = 254;
/** A project's title (projectCreateSchema). */
const PROJECT_TITLE_MAX = 150;
/** The api's own references: `REQ-` and digits; up to 9 of them fit the numbering column. */
const NUMBERED_REFERENCE = /^REQ-(\d{1,9})$/i;

/** Cell rules of the imported columns; the others (Status, Requester, …: the export writes them) are accepted and ignored. */
const CELL_RULES: Partial<Record<RequestFileColumn, CellRule>> = {
  Reference: { max: REQUEST_LIMITS.reference, oneLine: true },
  Title: { max: REQUEST_LIMITS.title, oneLine: false },
  Description: { max: REQUEST_LIMITS.description, oneLine: false },
  Priority: { max: 20, oneLine: true },
  'Due Date': { max: 30, oneLine: true },
  // Each assignee is checked on its own (ASSIGNEE_MAX); the cell holds several.
  Assignees: { max: Infinity, oneLine: false },
  Project: { max: PROJECT_TITLE_MAX, oneLine: true },
};

export const REQUEST_SHEET: SheetKind<RequestFileColumn> = {
  columns: REQUEST_FILE_COLUMNS,
  required: REQUEST_FILE_REQUIRED_COLUMNS,
  cells: CELL_RULES,
  maxRows: REQUEST_IMPORT_MAX_ROWS,
  maxLines: REQUEST_IMPORT_MAX_ROWS * 5,
  maxErrors: REQUEST_IMPORT_MAX_ERRORS,
  code: MALFORMED_REQUEST_FILE_CODE,
  noun: { one: 'request', many: 'requests', rows: 'requests' },
};

const lower = (text: string) => text.toLowerCase();
const PRIORITY_LIST = REQUEST_PRIORITIES.map((p) => REQUEST_PRIORITY_LABELS[p]).join(', ');
const DAY = dayText('Due Date');
const isCalendarDay = (day: string) => DAY.safeParse(day).success;

/** The number of a reference in the api's form (REQ-0012 -> 12), else null. */
export function referenceNumber(reference: string): number | null {
  const match = NUMBERED_REFERENCE.exec(reference);
  return match ? Number(match[1]) : null;
}

/**
 * Reads a request file in a parse worker (lib/spreadsheet-pool.ts), as parseRequestFile does: the event
 * loop goes on answering other requests meanwhile.
 */
export async function readRequestFile(fileName: string, bytes: Buffer): Promise<RequestFileContent> {
  return parseInWorker<RequestFileContent>({ kind: 'request', fileName, bytes }, MALFORMED_REQUEST_FILE_CODE);
}

/**
 * Reads a request file, in this thread (what a parse worker runs). Throws an HttpError as the
 * contract says: 415 `no_csv_file` / `no_excel_file` by name; 400 `malformed_request_file` for an
 * unreadable file, missing, unknown or repeated columns, an .xlsx over the archive limits, too many
 * rows, and row problems naming row and column (the first as message, up to
 * REQUEST_IMPORT_MAX_ERRORS as details), References repeated in the file included.
 */
export async function parseRequestFile(fileName: string, bytes: Buffer): Promise<RequestFileContent> {
  const { rows, content } = await readSheet(REQUEST_SHEET, fileName, bytes, combineRows);
  return { rows, requests: content };
}

type CheckedRow = SheetRow<RequestFileColumn>;

/** A problem of a cell the generic rules let through: its column is then left alone. */
function refuse(r: CheckedRow, problems: RowProblems, column: RequestFileColumn, message: string): void {
  r.bad.add(column);
  problems.add(r.row, column, message);
}

function priorityOf(r: CheckedRow, problems: RowProblems): RequestPriority {
  const text = r.values.Priority;
  if (!text || r.bad.has('Priority')) return 'medium';
  const priority = REQUEST_PRIORITIES.find(
    (p) => p === lower(text) || lower(REQUEST_PRIORITY_LABELS[p]) === lower(text),
  );
  if (!priority) refuse(r, problems, 'Priority', `Priority must be one of ${PRIORITY_LIST} (it is ${quote(text)}).`);
  return priority ?? 'medium';
}

/** A day written YYYY-MM-DD (as an .xlsx date cell reads too) or M/D/YYYY. */
function dueDateOf(r: CheckedRow, problems: RowProblems): string | null {
  const text = r.values['Due Date'];
  if (!text || r.bad.has('Due Date')) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const day = iso ? text : us ? `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}` : null;
  if (!day) {
    refuse(r, problems, 'Due Date', `Due Date must be a date, YYYY-MM-DD or M/D/YYYY (it is ${quote(text)}).`);
    return null;
  }
  if (!isCalendarDay(day)) {
    refuse(r, problems, 'Due Date', `${quote(text)} is not a day of the calendar.`);
    return null;
  }
  return day;
}

function assigneesOf(r: CheckedRow, problems: RowProblems): string[] {
  const text = r.values.Assignees;
  if (!text || r.bad.has('Assignees')) return [];
  const seen = new Set<string>();
  const assignees: string[] = [];
  for (const name of text.split(ASSIGNEE_SEPARATOR).map((a) => a.trim())) {
    if (!name || seen.has(lower(name))) continue;
    if (name.length > ASSIGNEE_MAX) {
      refuse(
        r,
        problems,
        'Assignees',
        `each e-mail or team name must be at most ${ASSIGNEE_MAX} characters: ${quote(name)} has ${name.length}.`,
      );
      return [];
    }
    seen.add(lower(name));
    assignees.push(name);
  }
  const users = assignees.filter((a) => a.includes('@')).length;
  const teams = assignees.length - users;
  if (users > REQUEST_MAX_ASSIGNEES || teams > REQUEST_MAX_ASSIGNEES) {
    refuse(
      r,
      problems,
      'Assignees',
      `a request takes at most ${REQUEST_MAX_ASSIGNEES} people and ${REQUEST_MAX_ASSIGNEES} teams (the cell names ${users} e-mails and ${teams} teams).`,
    );
    return [];
  }
  return assignees;
}

/** The rules of each row's values, and References unique in the file (ignoring case, and by number for REQ-<n>). */
function combineRows(rows: CheckedRow[], problems: RowProblems): RequestFileRow[] {
  const byReference = new Map<string, number>();
  return rows.map((r) => {
    const v = r.values;
    let reference: string | null = null;
    let number: number | null = null;
    if (v.Reference && !r.bad.has('Reference')) {
      if (!REQUEST_REFERENCE_PATTERN.test(v.Reference)) {
        refuse(
          r,
          problems,
          'Reference',
          `Reference must be 1 to ${REQUEST_LIMITS.reference} letters, digits, dots, dashes or underscores, starting with a letter or digit (it is ${quote(v.Reference)}).`,
        );
      } else {
        number = referenceNumber(v.Reference);
        const key = number !== null ? `#${number}` : lower(v.Reference);
        const first = byReference.get(key);
        if (first !== undefined)
          refuse(r, problems, 'Reference', `${quote(v.Reference)} is also on row ${first}. References must be unique.`);
        else byReference.set(key, r.row);
        reference = v.Reference;
      }
    }
    return {
      row: r.row,
      reference,
      referenceNumber: number,
      title: v.Title,
      description: v.Description || null,
      priority: priorityOf(r, problems),
      dueDate: dueDateOf(r, problems),
      assignees: assigneesOf(r, problems),
      project: v.Project || null,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Writing

/** A request of an export: its summary and its description. */
export type ExportedRequest = RequestSummary & { description: string | null };

const COLUMN_WIDTHS: Record<RequestFileColumn, number> = {
  Reference: 12,
  Title: 40,
  Description: 60,
  Priority: 10,
  'Due Date': 12,
  Assignees: 36,
  Project: 28,
  Status: 12,
  Requester: 28,
  'Evidence Files': 14,
  Created: 22,
  Updated: 22,
};
const WRAPPED: readonly RequestFileColumn[] = ['Title', 'Description', 'Assignees'];
const sheetColumns = (columns: readonly RequestFileColumn[]): SheetColumn[] =>
  columns.map((c) => ({ heading: c, width: COLUMN_WIDTHS[c], wrap: WRAPPED.includes(c) }));

/** The cells of a request, by column. */
function requestCells(request: ExportedRequest): Record<RequestFileColumn, string> {
  return {
    Reference: request.reference,
    Title: request.title,
    Description: request.description ?? '',
    Priority: REQUEST_PRIORITY_LABELS[request.priority],
    'Due Date': request.dueDate ?? '',
    Assignees: [...request.assignees.map((u) => u.email), ...request.teams.map((t) => t.name)].join('; '),
    Project: request.project?.title ?? '',
    Status: REQUEST_STATUS_LABELS[request.status],
    Requester: request.requester?.email ?? '',
    'Evidence Files': String(request.fileCount),
    Created: request.createdAt,
    Updated: request.updatedAt,
  };
}

/**
 * Writes requests as a .csv or an .xlsx with every column of REQUEST_FILE_COLUMNS (formula-safe cells,
 * see writeSheet), so an export imports again: the import reads its columns and ignores the others.
 */
export async function writeRequestFile(format: RequestFileFormat, requests: ExportedRequest[]): Promise<Buffer> {
  return writeSheet(
    format,
    'Requests',
    sheetColumns(REQUEST_FILE_COLUMNS),
    requests.map((request) => {
      const cells = requestCells(request);
      return REQUEST_FILE_COLUMNS.map((c) => cells[c]);
    }),
  );
}

const TEMPLATE_ROWS: Partial<Record<RequestFileColumn, string>>[] = [
  {
    Reference: '',
    Title: 'Firewall rule review',
    Description: 'Export the current firewall rule set and the evidence of its last quarterly review.',
    Priority: 'High',
    'Due Date': '2026-03-31',
    Assignees: 'it.manager@example.com; Security team',
    Project: 'SOC 2 Type II 2026',
  },
  {
    Reference: 'HR-01',
    Title: 'New hire background checks',
    Description: 'For the sample of new hires, attach the completed background check of each.',
    Priority: 'Medium',
    'Due Date': '4/15/2026',
    Assignees: 'hr.lead@example.com',
    Project: '',
  },
];

/** The downloadable template: the imported columns and two example rows (one numbered by the api, one with its own reference). */
export async function requestFileTemplate(format: RequestFileFormat): Promise<Buffer> {
  return writeSheet(
    format,
    'Requests',
    sheetColumns(REQUEST_FILE_IMPORTED_COLUMNS),
    TEMPLATE_ROWS.map((row) => REQUEST_FILE_IMPORTED_COLUMNS.map((c) => row[c] ?? '')),
  );
}
