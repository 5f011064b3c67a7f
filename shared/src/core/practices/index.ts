/**
 * Practices and their task tracker templates, task tracker files, and applying a template to a
 * project (docs/projects.md; issue 7). The api validates with these schemas and the web
 * forms use the same ones. Framework-free: the api imports it.
 *
 * Policies (api/src/plugins/app/policies.ts; each operation's is in api.ts): `staff`; `editPractices` is
 * `{ staff: 'users.editPractices' }` (staff holding that settings permission: staff who are not
 * auditors; else 403 `forbidden`); `project:*` as in projects. A retired practice is hidden from
 * pickers and kept on projects; new templates are drafts (an empty one, or one made from a file), and
 * only a draft takes a file. The projects' template calls list the published templates of active
 * practices, the project's practice first.
 *
 * Applying and importing into a project copy tasks (OPEN, unassigned), subtasks, controls and points of
 * focus in one transaction: all or nothing. A control whose ID the project already has is reused (the
 * tasks are linked to it, points of focus it lacks by name are added); a Task ID the project already has
 * is a conflict (409 `task_reference_id_already_exist_on_project`, the detail naming the row or task).
 * A project without a practice takes the template's; a project of another practice with tasks answers
 * 409 `practices_can_not_be_changed_when_project_has_tasks`. A canceled project answers 409 `project_is_canceled`.
 *
 * Errors (catalogue: errors.ts): 404 `practice_not_found`; 404 `task_tracker_task_not_found` (a task of the
 * template); 404 `task_tracker_not_found` "No templates found for the chosen practice." (the template is
 * not one of the practice's, or the practice has no published template); 409 `task_tracker_in_wrong_status`
 * "Invalid status." (applying a template that is not published; importing into one that is not a draft);
 * 400 `invalid_practice` (the practice of an apply does not exist or is retired); 400 `task_not_supported`
 * (a chosen subtask without its parent task); 409 `practice_name_taken` (field name), 409
 * `task_tracker_name_taken` (field name).
 * Files: 415 `no_csv_file` (not .csv or .xlsx, e.g. tracker.txt), 415 `no_excel_file` (an Excel format other
 * than .xlsx: .xls, .xlsm, .xlsb, .ods); 400 `malformed_task_tracker` with the first problem as message and
 * up to TASK_TRACKER_MAX_ERRORS `details` ({ field: 'file', message: 'Row 12, Task Title: …' }); duplicate
 * Task IDs in the file: 400 `task_reference_id_already_exist_on_project` ("Task IDs must be unique or null"),
 * the detail naming both rows. Rows are numbered as a spreadsheet shows them: the header is row 1.
 */
import { z } from 'zod';
import { hasNoNul, nulMessage, optionalText, requiredText } from '../settings';
import type { applicableTrackers, applyTemplateResult, projectImportResult } from '../projects/results';
import type {
  practiceDetail,
  practiceSummary,
  taskTrackerDetail,
  taskTrackerImportResult,
  taskTrackerSummary,
  trackerControl,
  trackerTask,
} from './results';

// ---------------------------------------------------------------------------------------------
// Practices

export const PRACTICE_STATUSES = ['active', 'retired'] as const;
export type PracticeStatus = (typeof PRACTICE_STATUSES)[number];

export const practicesQuerySchema = z.object({
  status: z.enum([...PRACTICE_STATUSES, 'all'], { error: 'status must be active, retired or all' }).default('all'),
  search: z
    .string()
    .trim()
    .max(100, 'search must be at most 100 characters')
    .refine(hasNoNul, nulMessage('search'))
    .optional(),
});
export type PracticesQuery = z.input<typeof practicesQuerySchema>;

export const practiceCreateSchema = z.object({
  name: requiredText('name', 80),
  description: optionalText('description', 1000),
});
export type PracticeCreate = z.input<typeof practiceCreateSchema>;

export const practiceUpdateSchema = z.object({
  name: requiredText('name', 80).optional(),
  description: optionalText('description', 1000),
  status: z.enum(PRACTICE_STATUSES, { error: 'status must be active or retired' }).optional(),
});
export type PracticeUpdate = z.input<typeof practiceUpdateSchema>;

export type PracticeSummary = z.output<typeof practiceSummary>;

export type PracticeDetail = z.output<typeof practiceDetail>;

// ---------------------------------------------------------------------------------------------
// Task tracker templates

export const TASK_TRACKER_STATUSES = ['draft', 'published', 'retired'] as const;
export type TaskTrackerStatus = (typeof TASK_TRACKER_STATUSES)[number];
export const TASK_TRACKER_STATUS_LABELS: Record<TaskTrackerStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  retired: 'Retired',
};

export const taskTrackerCreateSchema = z.object({
  name: requiredText('name', 120),
  description: optionalText('description', 1000),
});
export type TaskTrackerCreate = z.input<typeof taskTrackerCreateSchema>;

export const taskTrackerUpdateSchema = z.object({
  name: requiredText('name', 120).optional(),
  description: optionalText('description', 1000),
  status: z.enum(TASK_TRACKER_STATUSES, { error: 'status must be draft, published or retired' }).optional(),
});
export type TaskTrackerUpdate = z.input<typeof taskTrackerUpdateSchema>;

export type TaskTrackerSummary = z.output<typeof taskTrackerSummary>;

export type TrackerTask = z.output<typeof trackerTask>;

export type TrackerControl = z.output<typeof trackerControl>;

export type TaskTrackerDetail = z.output<typeof taskTrackerDetail>;

export type TaskTrackerImportResult = z.output<typeof taskTrackerImportResult>;

// ---------------------------------------------------------------------------------------------
// Applying a template and importing into a project

export type ApplicableTracker = z.output<typeof applicableTrackers>['results'][number];

export const applyTemplateSchema = z.object({
  practiceId: z
    .string({ error: 'practiceId is required' })
    .min(1, 'practiceId is required')
    .max(100, 'practiceId is too long')
    .refine(hasNoNul, nulMessage('practiceId')),
  taskTrackerId: z
    .string({ error: 'taskTrackerId is required' })
    .min(1, 'taskTrackerId is required')
    .max(100, 'taskTrackerId is too long')
    .refine(hasNoNul, nulMessage('taskTrackerId')),
  /** Template task ids to apply (a subtask needs its parent chosen too); absent: all of them. */
  taskIds: z
    .array(z.string().min(1, 'taskIds must hold ids').max(100, 'taskIds must hold ids'), {
      error: 'taskIds must be a list of template task ids',
    })
    .min(1, 'taskIds must name at least one task')
    .max(20_000, 'taskIds may name at most 20000 tasks')
    .optional(),
});
export type ApplyTemplate = z.input<typeof applyTemplateSchema>;

export type ProjectImportResult = z.output<typeof projectImportResult>;

export type ApplyTemplateResult = z.output<typeof applyTemplateResult>;

// ---------------------------------------------------------------------------------------------
// Task tracker files

/** The columns of a task tracker file, in the order the template file and exports use. Headers match ignoring case and spaces around. */
export const TASK_TRACKER_COLUMNS = [
  'Task ID',
  'Parent Task ID',
  'Task Title',
  'Task Description',
  'Control ID',
  'Control Title',
  'Control Description',
  'Points of Focus',
] as const;
export type TaskTrackerColumn = (typeof TASK_TRACKER_COLUMNS)[number];
/** The one column every file must have. */
export const TASK_TRACKER_REQUIRED_COLUMNS: readonly TaskTrackerColumn[] = ['Task Title'];

/** Points of focus in one cell are separated by new lines or semicolons. */
export const POINTS_OF_FOCUS_SEPARATOR = /[\n;]/;

export const TASK_TRACKER_FORMATS = ['csv', 'xlsx'] as const;
export type TaskTrackerFormat = (typeof TASK_TRACKER_FORMATS)[number];
export const taskTrackerFileQuerySchema = z.object({
  format: z.enum(TASK_TRACKER_FORMATS, { error: 'format must be csv or xlsx' }).default('csv'),
});

/** Upload limit of a task tracker file. */
export const TASK_TRACKER_MAX_BYTES = 20 * 1024 * 1024;
/**
 * Data rows in one file (the row limit: reading stops, and the file is refused, at the first row past
 * it). A tracker is built from control catalogues: the largest hold over a thousand controls (NIST SP
 * 800-53 with its enhancements), a few tasks each, so 20,000 leaves room for several frameworks in one
 * file, and a parse worker reads a file of that many rows in a second or two.
 */
export const TASK_TRACKER_MAX_ROWS = 20_000;
/**
 * Rows of a file, blank ones included (they are skipped, yet take reading): a file with more is refused.
 * Spreadsheets saved as CSV keep rows that were only ever formatted as empty lines (`,,,`): five times
 * the data rows leaves room for those, and bounds what a file of nothing else costs (about a second of
 * a parse worker).
 */
export const TASK_TRACKER_MAX_LINES = TASK_TRACKER_MAX_ROWS * 5;
/** Row problems reported at once (the first one is the message). */
export const TASK_TRACKER_MAX_ERRORS = 50;
/** An .xlsx (a zip archive) is refused before parsing when its entries would inflate past this, or it has more entries. */
export const XLSX_MAX_UNCOMPRESSED_BYTES = 30 * 1024 * 1024;
export const XLSX_MAX_ENTRIES = 2_000;
/** Cell limits (characters), as in the task and control forms. */
export const TASK_TRACKER_LIMITS = {
  referenceId: 50,
  title: 200,
  description: 5000,
  controlId: 50,
  controlTitle: 200,
  pointOfFocus: 200,
} as const;

/** What the import accepts: `.csv` or `.xlsx`; other Excel formats are named so the user knows to save as .xlsx. */
export const EXCEL_EXTENSIONS_REFUSED = ['.xls', '.xlsm', '.xlsb', '.ods'] as const;
export const TASK_TRACKER_ACCEPT = '.csv,.xlsx';

/** Which error a file name gets before its bytes are read: null (fine), `no_excel_file` or `no_csv_file`. */
export function taskTrackerFileProblem(fileName: string): 'no_csv_file' | 'no_excel_file' | null {
  const lower = fileName.trim().toLowerCase();
  if (lower.endsWith('.csv') || lower.endsWith('.xlsx')) return null;
  if (EXCEL_EXTENSIONS_REFUSED.some((ext) => lower.endsWith(ext))) return 'no_excel_file';
  return 'no_csv_file';
}

/** Spreadsheet formula triggers: a cell starting with one is exported with a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell made safe for a spreadsheet: text that would start a formula gets a leading apostrophe. */
export function formulaSafeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** The inverse on import: an apostrophe that protects a formula trigger is dropped, so exports round-trip. */
export function fromFormulaSafeCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}
