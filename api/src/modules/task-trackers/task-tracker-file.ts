/**
 * Task tracker files (issue 7): reading a .csv or .xlsx upload into checked rows; writing them (exports,
 * the template) is task-tracker-export.ts. The contract (columns, limits, errors) is
 * shared/src/core/practices; reading and writing spreadsheets of any kind is lib/spreadsheet.ts.
 */
import {
  POINTS_OF_FOCUS_SEPARATOR,
  TASK_TRACKER_COLUMNS,
  TASK_TRACKER_LIMITS,
  TASK_TRACKER_MAX_ERRORS,
  TASK_TRACKER_MAX_LINES,
  TASK_TRACKER_MAX_ROWS,
  TASK_TRACKER_REQUIRED_COLUMNS,
  type TaskTrackerColumn,
} from '@portal/shared/core/practices';
import {
  quote,
  readSheet,
  type CellRule,
  type RowProblems,
  type SheetKind,
  type SheetRow,
} from '../../lib/spreadsheet';
import { parseInWorker } from '../../lib/spreadsheet-pool';

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

/** Cell rules of each column: the longest text, and whether it must fit on one line. */
const CELL_RULES: Record<TaskTrackerColumn, CellRule> = {
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

/** The 400 code of a file that cannot be read, and of its row problems. */
const TASK_TRACKER_CODE = 'malformed_task_tracker';

const TASK_TRACKER_SHEET: SheetKind<TaskTrackerColumn> = {
  columns: TASK_TRACKER_COLUMNS,
  required: TASK_TRACKER_REQUIRED_COLUMNS,
  cells: CELL_RULES,
  maxRows: TASK_TRACKER_MAX_ROWS,
  maxLines: TASK_TRACKER_MAX_LINES,
  maxErrors: TASK_TRACKER_MAX_ERRORS,
  code: TASK_TRACKER_CODE,
  noun: { one: 'task', many: 'tasks', rows: 'rows of tasks' },
};

/** Repeated Task IDs have a code of their own (when they are the only problems). */
const DUPLICATE_TASK_ID = 'task_reference_id_already_exist_on_project';

const count = (n: number) => n.toLocaleString('en-US');
const lower = (text: string) => text.toLowerCase();

/**
 * Reads a task tracker file in a parse worker (lib/spreadsheet-pool.ts), as parseTaskTrackerFile does:
 * the event loop goes on answering other requests meanwhile.
 */
export async function readTaskTrackerFile(
  fileName: string,
  bytes: Buffer,
  options: ReadTaskTrackerOptions = {},
): Promise<TrackerFileContent> {
  return parseInWorker<TrackerFileContent>(
    { kind: 'taskTracker', fileName, bytes, externalParents: Boolean(options.externalParents) },
    TASK_TRACKER_CODE,
  );
}

/**
 * Reads a task tracker file, in this thread (what a parse worker runs). Throws an HttpError as the
 * contract says: 415 `no_csv_file` / `no_excel_file` by name, 400 `malformed_task_tracker`
 * (unreadable file, missing or unknown columns, too many rows, row problems naming row and column, an
 * .xlsx over the archive limits), 400 `task_reference_id_already_exist_on_project` for Task IDs
 * repeated in the file.
 *
 * Row problems come as the message (the first) and `details` ({ field: 'file', message }, at most
 * TASK_TRACKER_MAX_ERRORS, in row order), as do several problems of the header row; a single problem
 * with the file as a whole (unreadable, empty, too many rows, one header problem) is the message alone.
 */
export async function parseTaskTrackerFile(
  fileName: string,
  bytes: Buffer,
  options: ReadTaskTrackerOptions = {},
): Promise<TrackerFileContent> {
  const { rows, content } = await readSheet(TASK_TRACKER_SHEET, fileName, bytes, (checked, problems) =>
    combineRows(checked, options, problems),
  );
  return { rows, ...content };
}

type CheckedRow = SheetRow<TaskTrackerColumn>;

/** The points of focus of a row's cell, each within its limit. */
function pointsOf(r: CheckedRow, problems: RowProblems): string[] {
  const points: string[] = [];
  if (!r.values['Points of Focus'] || r.bad.has('Points of Focus')) return points;
  for (const point of r.values['Points of Focus'].split(POINTS_OF_FOCUS_SEPARATOR).map((p) => p.trim())) {
    if (!point) continue;
    if (point.length > TASK_TRACKER_LIMITS.pointOfFocus) {
      r.bad.add('Points of Focus');
      problems.add(
        r.row,
        'Points of Focus',
        `each point of focus must be at most ${count(TASK_TRACKER_LIMITS.pointOfFocus)} characters: ${quote(point)} has ${count(point.length)}.`,
      );
    } else {
      points.push(point);
    }
  }
  return points;
}

/** The rules across rows: unique Task IDs, parents, controls merged from the rows that name them. */
function combineRows(
  rows: CheckedRow[],
  options: ReadTaskTrackerOptions,
  problems: RowProblems,
): Omit<TrackerFileContent, 'rows'> {
  const points = rows.map((r) => pointsOf(r, problems));

  // Task IDs: unique in the file ignoring case (the database's rule), or empty.
  const byReference = new Map<string, CheckedRow>();
  for (const r of rows) {
    const id = r.values['Task ID'];
    if (!id || r.bad.has('Task ID')) continue;
    const first = byReference.get(lower(id));
    if (first)
      problems.add(
        r.row,
        'Task ID',
        `"${id}" is also on row ${first.row}. Task IDs must be unique or null.`,
        DUPLICATE_TASK_ID,
      );
    else byReference.set(lower(id), r);
  }

  const tasks: TrackerFileTask[] = rows.map((r) => {
    const v = r.values;
    let parentReferenceId: string | null = null;
    const parentId = v['Parent Task ID'];
    if (parentId && !r.bad.has('Parent Task ID')) {
      const parent = byReference.get(lower(parentId));
      if (parent === r || (v['Task ID'] && lower(v['Task ID']) === lower(parentId))) {
        problems.add(r.row, 'Parent Task ID', 'a task cannot be its own parent.');
      } else if (parent?.values['Parent Task ID']) {
        problems.add(
          r.row,
          'Parent Task ID',
          `"${parentId}" (row ${parent.row}) is itself a subtask: subtasks cannot have subtasks.`,
        );
      } else if (parent) {
        parentReferenceId = parent.values['Task ID'];
      } else if (options.externalParents) {
        parentReferenceId = parentId;
      } else {
        problems.add(r.row, 'Parent Task ID', `no row of the file has the Task ID "${parentId}".`);
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
        if (v[column] && !r.bad.has(column))
          problems.add(
            r.row,
            column,
            `${column} ${column === 'Points of Focus' ? 'need' : 'needs'} a Control ID on the row.`,
          );
      }
      return;
    }
    let control = controls.get(lower(name));
    if (!control) {
      control = {
        row: r.row,
        name,
        title: '',
        description: null,
        pointsOfFocus: [],
        titleRow: null,
        descriptionRow: null,
        pointKeys: new Set(),
      };
      controls.set(lower(name), control);
    }
    tasks[index].controlName = control.name;
    const title = r.bad.has('Control Title') ? '' : v['Control Title'];
    if (title && control.titleRow === null) {
      control.title = title;
      control.titleRow = r.row;
    } else if (title && title !== control.title) {
      problems.add(
        r.row,
        'Control Title',
        `${quote(title)} differs from the title ${quote(control.title)} that row ${control.titleRow} gives control "${control.name}".`,
      );
    }
    const description = r.bad.has('Control Description') ? '' : v['Control Description'];
    if (description && control.descriptionRow === null) {
      control.description = description;
      control.descriptionRow = r.row;
    } else if (description && description !== control.description) {
      problems.add(
        r.row,
        'Control Description',
        `it differs from the description that row ${control.descriptionRow} gives control "${control.name}".`,
      );
    }
    for (const point of points[index]) {
      if (control.pointKeys.has(lower(point))) continue;
      control.pointKeys.add(lower(point));
      control.pointsOfFocus.push(point);
    }
  });

  return {
    tasks,
    controls: [...controls.values()].map(({ row, name, title, description, pointsOfFocus }) => ({
      row,
      name,
      title: title || name,
      description,
      pointsOfFocus,
    })),
  };
}
