/**
 * Task tracker files (issue 7), written: a template's tasks as rows, and rows as a .csv or .xlsx
 * (exports and the downloadable template). Reading them is task-tracker-file.ts.
 */
import { TASK_TRACKER_COLUMNS, type TaskTrackerColumn, type TaskTrackerFormat } from '@portal/shared/core/practices';
import { writeSheet } from '../../lib/spreadsheet';

export { SPREADSHEET_TYPES as TRACKER_FILE_TYPES } from '../../lib/spreadsheet';

const lower = (text: string) => text.toLowerCase();

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
const WRAPPED: readonly TaskTrackerColumn[] = [
  'Task Title',
  'Task Description',
  'Control Title',
  'Control Description',
  'Points of Focus',
];

const TRACKER_SHEET_COLUMNS = TASK_TRACKER_COLUMNS.map((c) => ({
  heading: c,
  width: COLUMN_WIDTHS[c],
  wrap: WRAPPED.includes(c),
}));

/** Writes rows as a .csv or an .xlsx (see writeSheet: formula-safe cells, so an export reads back the same). */
export async function writeTaskTrackerFile(rows: TaskTrackerRow[], format: TaskTrackerFormat): Promise<Buffer> {
  return writeSheet(
    format,
    'Tasks',
    TRACKER_SHEET_COLUMNS,
    rows.map((r) => TASK_TRACKER_COLUMNS.map((c) => r[c] ?? '')),
  );
}

/** The rows of a template: each task in order (subtasks after their parent), a control's title, description and points of focus on the first row that names it. */
export function trackerRows(
  tasks: {
    referenceId: string | null;
    parentReferenceId: string | null;
    title: string;
    description: string | null;
    controlName: string | null;
  }[],
  controls: { name: string; title: string; description: string | null; pointsOfFocus: string[] }[],
): TaskTrackerRow[] {
  type Task = (typeof tasks)[number];
  const byReference = new Map<string, Task>();
  for (const t of tasks)
    if (t.referenceId && !byReference.has(lower(t.referenceId))) byReference.set(lower(t.referenceId), t);
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
