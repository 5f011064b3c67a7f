/**
 * Evidence requests (docs/requests.md; issue 8): what the consultancy asks of a client company,
 * its workflow, evidence files, comments, history, notifications, import and export. The api validates
 * with these schemas and the web forms use the same ones. Framework-free: the api imports it.
 *
 * A request belongs to a company and optionally to one of its projects and, within that project, to a
 * task or a control. Its reference (REQ-0001, …) is unique in the company, given by the api unless an
 * import names one. Status machine (REQUEST_TRANSITIONS):
 *   open --submit--> submitted --accept--> accepted
 *                    submitted --return (reason)--> returned --submit--> submitted
 *   open | submitted | returned --cancel--> canceled;  accepted | canceled --reopen--> open
 * Submit needs at least one evidence file (409 `request_evidence_missing`).
 *
 * Who sees a request (else 404 `request_not_found`, existence not revealed): the company must be visible
 * to the caller and the requests module on for the caller there (else 403 `module_access_denied`, on
 * EVERY request route, list included). Then: staff who are not auditors see every request of the company;
 * auditors see the requests of projects they hold a role on; client users see a request when they are
 * an assignee (directly or through one of their teams), hold a role on its project, or hold the
 * company's admin role.
 * Who acts:
 * - manage (create, edit, assign, bulk, import, accept, return, cancel, reopen, delete any evidence file,
 *   internal comments): staff who are not auditors (else 403 `forbidden`);
 * - respond (submit, resubmit, upload evidence, delete own evidence while open or returned): client users
 *   who see the request (else 403 `forbidden`); evidence changes only while open or returned (409
 *   `request_is_closed` when accepted or canceled, `request_under_review` when submitted);
 * - comment: anyone who sees it; `internal` comments only staff write and only staff read.
 * Clients never receive internal comments, their history events, or `internalNote` (null for them).
 *
 * The calls (base /api/v1) are described in api.ts, their answers in results.ts. Policy
 * `{ company: 'member', module: 'requests' }` guards a company's requests (list, create, assignees,
 * bulk, import, export, file template); `{ request: 'read' | 'manage' }` resolves the request of `:id`
 * as above. Lists (comments, history) are oldest first. Evidence downloads: GET
 * /files/:fileId/signed-url (the `request` file kind; visibility as the request).
 *
 * A stale write (PATCH, transitions with `expectedStatus`) answers 409 `request_status_changed` when the
 * status moved meanwhile. Assignees must be active client members of the company (not revoked) or its
 * teams (400 `validation_failed` naming assigneeIds or teamIds). projectId must be one of the company's
 * projects, taskId a task of that project, controlId a control of that project (400 naming the field).
 *
 * Notifications (bell and e-mail) go to the people concerned other than the actor: assignment (new
 * assignees), status change (assignees and the requester), comment (the requester, the assignees, earlier
 * commenters; internal comments to staff only), due in REQUEST_DUE_SOON_DAYS days and overdue (assignees;
 * overdue also the requester), once per request, user, kind and due date. Users with sendDailyEmails get a
 * daily digest of their open requests (once per day). Links point at /requests/:id.
 */
import { z } from 'zod';
import { hasNoNul, nulMessage, optionalText, pagingShape, requiredText } from '../settings';
import { dayText, optionalDay, queryList } from '../projects';
import type { ref } from '../answers';
import type {
  requestAssigneeOptions,
  requestBulkResult,
  requestComment,
  requestDetail,
  requestEvent,
  requestFile,
  requestImportResult,
  requestList,
  requestPermissions,
  requestSummary,
  requestUser,
} from './results';

// ---------------------------------------------------------------------------------------------
// Statuses, priorities, transitions

export const REQUEST_STATUSES = ['open', 'submitted', 'returned', 'accepted', 'canceled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  open: 'Open',
  submitted: 'Submitted',
  returned: 'Returned',
  accepted: 'Accepted',
  canceled: 'Canceled',
};
/** Statuses where the client still has to act or staff to review: "open" work for lists and reminders. */
export const REQUEST_ACTIVE_STATUSES: readonly RequestStatus[] = ['open', 'submitted', 'returned'];
/** Statuses where the client has to act (my requests of a client, reminders). */
export const REQUEST_CLIENT_ACTION_STATUSES: readonly RequestStatus[] = ['open', 'returned'];

export const REQUEST_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type RequestPriority = (typeof REQUEST_PRIORITIES)[number];
export const REQUEST_PRIORITY_LABELS: Record<RequestPriority, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};

/**
 * Web: antd Tag colours (preset names, readable in the light and dark themes) of the statuses, the
 * priorities and the "Overdue" mark, so a request reads the same in the requests module and on Home.
 */
export const REQUEST_STATUS_COLORS: Record<RequestStatus, string> = {
  open: 'blue',
  submitted: 'purple',
  returned: 'orange',
  accepted: 'green',
  canceled: 'default',
};
export const REQUEST_PRIORITY_COLORS: Record<RequestPriority, string> = {
  low: 'default',
  medium: 'blue',
  high: 'orange',
  critical: 'red',
};
export const REQUEST_OVERDUE_COLOR = 'red';

export const REQUEST_ACTIONS = ['submit', 'accept', 'return', 'cancel', 'reopen'] as const;
export type RequestAction = (typeof REQUEST_ACTIONS)[number];
export const REQUEST_ACTION_LABELS: Record<RequestAction, string> = {
  submit: 'Submit',
  accept: 'Accept',
  return: 'Return',
  cancel: 'Cancel request',
  reopen: 'Reopen',
};

/** From which statuses each action moves, and where to. */
export const REQUEST_TRANSITIONS: Record<
  RequestAction,
  { from: readonly RequestStatus[]; to: RequestStatus; by: 'respond' | 'manage' }
> = {
  submit: { from: ['open', 'returned'], to: 'submitted', by: 'respond' },
  accept: { from: ['submitted'], to: 'accepted', by: 'manage' },
  return: { from: ['submitted'], to: 'returned', by: 'manage' },
  cancel: { from: ['open', 'submitted', 'returned'], to: 'canceled', by: 'manage' },
  reopen: { from: ['accepted', 'canceled'], to: 'open', by: 'manage' },
};

export function canApplyAction(action: RequestAction, status: RequestStatus): boolean {
  return REQUEST_TRANSITIONS[action].from.includes(status);
}

/** Evidence may change only while the client is working on it. */
export function evidenceEditable(status: RequestStatus): boolean {
  return status === 'open' || status === 'returned';
}

/** Reminders: "due soon" this many days ahead (due date - 3 days, inclusive). */
export const REQUEST_DUE_SOON_DAYS = 3;

/**
 * Overdue: active (open, submitted or returned) and the due day is before `today` (YYYY-MM-DD, the
 * server's UTC day; the web passes its local day). Due today is not overdue.
 */
export function isRequestOverdue(dueDate: string | null, status: RequestStatus, today: string): boolean {
  return dueDate !== null && REQUEST_ACTIVE_STATUSES.includes(status) && dueDate < today;
}

/** Web: the browser's day (YYYY-MM-DD), the `today` of the overdue marks a page shows (the user's own day). */
export function localDay(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `REQ-0001`: the prefix and at least four digits. References given by an import follow REQUEST_REFERENCE_PATTERN. */
export function formatRequestReference(n: number): string {
  return `REQ-${String(n).padStart(4, '0')}`;
}
/** A reference an import may give: 1 to 30 letters, digits, dots, dashes or underscores. */
export const REQUEST_REFERENCE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,29}$/;

// ---------------------------------------------------------------------------------------------
// Limits

export const REQUEST_LIMITS = {
  title: 200,
  description: 5000,
  internalNote: 5000,
  comment: 5000,
  reason: 2000,
  reference: 30,
} as const;
/** Assignees of one request (users and teams each). */
export const REQUEST_MAX_ASSIGNEES = 50;
/** Requests one bulk call changes. */
export const REQUEST_BULK_MAX = 500;
/** Evidence files of one request. */
export const REQUEST_MAX_FILES = 200;
/** Rows one export holds. */
export const REQUEST_EXPORT_MAX_ROWS = 20_000;
/**
 * Data rows of one import file (blank rows not counted; at most 5x that many rows in all): the row
 * limit, past which reading stops and the file is refused. An engagement's request list runs to
 * hundreds of requests, a large one's to a few thousand; each imported request may notify its
 * assignees, so larger lists go in several files.
 */
export const REQUEST_IMPORT_MAX_ROWS = 5_000;
/** Row problems reported at once (the first one is the message). */
export const REQUEST_IMPORT_MAX_ERRORS = 50;

// ---------------------------------------------------------------------------------------------
// Field schemas

const idText = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(100, `${field} is too long`)
    .refine(hasNoNul, nulMessage(field));
const queryText = (field: string, max = 100) =>
  z.string().max(max, `${field} is too long`).refine(hasNoNul, nulMessage(field));
const idList = (field: string) =>
  z
    .array(idText(field), { error: `${field} must be a list of ids` })
    .max(REQUEST_MAX_ASSIGNEES, `${field} may hold at most ${REQUEST_MAX_ASSIGNEES} ids`);
const queryBoolean = (field: string) =>
  z.preprocess(
    (v) => (v === 'true' || v === true ? true : v === 'false' || v === false ? false : v),
    z.boolean({ error: `${field} must be true or false` }),
  );

export const REQUEST_SORTS = [
  'reference',
  '-reference',
  'title',
  '-title',
  'status',
  '-status',
  'priority',
  '-priority',
  'dueDate',
  '-dueDate',
  'createdAt',
  '-createdAt',
  'updatedAt',
  '-updatedAt',
] as const;
export type RequestSort = (typeof REQUEST_SORTS)[number];

/**
 * GET /companies/:id/requests (and the export's filters). `assigneeId`: a user id, `me` (the caller,
 * directly or through a team) or `none` (no user and no team). `teamId`: assigned to that team.
 * `requesterId`: a user id or `me`. `overdue=true`: overdue only (isRequestOverdue with the server's day).
 * Sorting by dueDate puts requests without a due date last either way; ties by reference.
 */
export const requestsQuerySchema = z.object({
  ...pagingShape(25),
  status: queryList(z.enum(REQUEST_STATUSES, { error: `status must be one of ${REQUEST_STATUSES.join(', ')}` })),
  priority: queryList(
    z.enum(REQUEST_PRIORITIES, { error: `priority must be one of ${REQUEST_PRIORITIES.join(', ')}` }),
  ),
  assigneeId: queryText('assigneeId').optional(),
  teamId: queryText('teamId').optional(),
  requesterId: queryText('requesterId').optional(),
  projectId: queryText('projectId').optional(),
  overdue: queryBoolean('overdue').optional(),
  search: z
    .string()
    .trim()
    .max(200, 'search must be at most 200 characters')
    .refine(hasNoNul, nulMessage('search'))
    .optional(),
  sort: z.enum(REQUEST_SORTS, { error: `sort must be one of ${REQUEST_SORTS.join(', ')}` }).default('-createdAt'),
});
export type RequestsQuery = z.input<typeof requestsQuerySchema>;

export const requestCreateSchema = z.object({
  title: requiredText('title', REQUEST_LIMITS.title),
  description: optionalText('description', REQUEST_LIMITS.description),
  /** Staff only: never shown to clients. */
  internalNote: optionalText('internalNote', REQUEST_LIMITS.internalNote),
  priority: z
    .enum(REQUEST_PRIORITIES, { error: `priority must be one of ${REQUEST_PRIORITIES.join(', ')}` })
    .default('medium'),
  dueDate: optionalDay('dueDate'),
  projectId: idText('projectId').nullable().optional(),
  taskId: idText('taskId').nullable().optional(),
  controlId: idText('controlId').nullable().optional(),
  assigneeIds: idList('assigneeIds').default([]),
  teamIds: idList('teamIds').default([]),
});
export type RequestCreate = z.input<typeof requestCreateSchema>;

/** Absent fields stay as they are; assigneeIds/teamIds replace the lists when given. */
export const requestUpdateSchema = z.object({
  title: requiredText('title', REQUEST_LIMITS.title).optional(),
  description: optionalText('description', REQUEST_LIMITS.description),
  internalNote: optionalText('internalNote', REQUEST_LIMITS.internalNote),
  priority: z
    .enum(REQUEST_PRIORITIES, { error: `priority must be one of ${REQUEST_PRIORITIES.join(', ')}` })
    .optional(),
  dueDate: optionalDay('dueDate'),
  projectId: idText('projectId').nullable().optional(),
  taskId: idText('taskId').nullable().optional(),
  controlId: idText('controlId').nullable().optional(),
  assigneeIds: idList('assigneeIds').optional(),
  teamIds: idList('teamIds').optional(),
});
export type RequestUpdate = z.input<typeof requestUpdateSchema>;

/** `reason` is required (1 to 2000 characters) to return, optional otherwise (kept in the history). */
export const requestTransitionSchema = z
  .object({
    action: z.enum(REQUEST_ACTIONS, { error: `action must be one of ${REQUEST_ACTIONS.join(', ')}` }),
    reason: optionalText('reason', REQUEST_LIMITS.reason),
    /** The status the caller saw: a different current status answers 409 `request_status_changed`. */
    expectedStatus: z
      .enum(REQUEST_STATUSES, { error: `expectedStatus must be one of ${REQUEST_STATUSES.join(', ')}` })
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.action === 'return' && !value.reason?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'reason is required to return a request' });
    }
  });
export type RequestTransition = z.input<typeof requestTransitionSchema>;

export const requestCommentSchema = z.object({
  body: requiredText('body', REQUEST_LIMITS.comment),
  /** Staff only (403 `forbidden` for clients): seen by staff alone. */
  internal: z.boolean({ error: 'internal must be true or false' }).default(false),
});
export type RequestCommentCreate = z.input<typeof requestCommentSchema>;

/**
 * POST /companies/:id/requests/bulk: one change to many requests, all or nothing. `assign` adds (mode
 * add) or replaces (mode replace) the assignees; `dueDate` sets or clears it; `status` applies an action
 * to each (one that cannot take it: 409 `invalid_status_transition`, details naming each reference).
 * Ids that are not the company's visible requests: 404 `request_not_found`.
 */
export const requestBulkSchema = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal('assign'),
      requestIds: z
        .array(idText('requestIds'))
        .min(1, 'requestIds must name at least one request')
        .max(REQUEST_BULK_MAX, `requestIds may name at most ${REQUEST_BULK_MAX} requests`),
      mode: z.enum(['add', 'replace'], { error: 'mode must be add or replace' }).default('add'),
      assigneeIds: idList('assigneeIds').default([]),
      teamIds: idList('teamIds').default([]),
    }),
    z.object({
      action: z.literal('dueDate'),
      requestIds: z
        .array(idText('requestIds'))
        .min(1, 'requestIds must name at least one request')
        .max(REQUEST_BULK_MAX, `requestIds may name at most ${REQUEST_BULK_MAX} requests`),
      dueDate: dayText('dueDate').nullable(),
    }),
    z.object({
      action: z.literal('status'),
      requestIds: z
        .array(idText('requestIds'))
        .min(1, 'requestIds must name at least one request')
        .max(REQUEST_BULK_MAX, `requestIds may name at most ${REQUEST_BULK_MAX} requests`),
      transition: z.enum(['accept', 'cancel', 'reopen'], { error: 'transition must be accept, cancel or reopen' }),
    }),
  ],
  { error: 'action must be assign, dueDate or status' },
);
export type RequestBulk = z.input<typeof requestBulkSchema>;

export const REQUEST_FILE_FORMATS = ['csv', 'xlsx'] as const;
export type RequestFileFormat = (typeof REQUEST_FILE_FORMATS)[number];
export const requestFileFormatSchema = z.object({
  format: z.enum(REQUEST_FILE_FORMATS, { error: 'format must be csv or xlsx' }).default('csv'),
});

/**
 * GET /companies/:id/requests/export: the list's filters and sort, and the format; paging is the
 * list's (an export holds every page, at most REQUEST_EXPORT_MAX_ROWS).
 */
export const requestsExportQuerySchema = requestsQuerySchema
  .omit({ page: true, pageSize: true })
  .extend(requestFileFormatSchema.shape);

// ---------------------------------------------------------------------------------------------
// Replies (the schemas: results.ts)

export const REQUEST_EVENT_TYPES = [
  'created',
  'updated',
  'assigned',
  'unassigned',
  'status',
  'file_added',
  'file_removed',
  'comment',
  'imported',
] as const;
export type RequestEventType = (typeof REQUEST_EVENT_TYPES)[number];

export type RequestUserRef = z.output<typeof requestUser>;
export type RequestTeamRef = z.output<typeof ref>;
export type RequestSummary = z.output<typeof requestSummary>;
export type RequestPermissions = z.output<typeof requestPermissions>;
export type RequestDetail = z.output<typeof requestDetail>;
export type RequestFile = z.output<typeof requestFile>;
export type RequestComment = z.output<typeof requestComment>;
export type RequestEvent = z.output<typeof requestEvent>;
export type RequestList = z.output<typeof requestList>;
export type RequestAssigneeOptions = z.output<typeof requestAssigneeOptions>;
export type RequestBulkResult = z.output<typeof requestBulkResult>;
export type RequestImportResult = z.output<typeof requestImportResult>;

// ---------------------------------------------------------------------------------------------
// Import and export files

/**
 * Columns of a request file, in the order the export and the template use. Headers match ignoring case
 * and spaces around. Import reads Reference (optional: the api numbers it), Title (required),
 * Description, Priority (a label or value; empty: Medium), Due Date (YYYY-MM-DD or a spreadsheet date),
 * Assignees (e-mails of active client members and team names, separated by `;` or new lines),
 * Project (a project title of the company); the other columns (Status, Requester, Evidence Files,
 * Created, Updated) are written by the export and ignored by the import, so an export imports again.
 * A Reference the company already has, or given twice in the file: a row problem. Imported requests
 * are open. Rows are numbered as a spreadsheet shows them (the header is row 1): a problem reads
 * `Row 12, Due Date: …`, code 400 `malformed_request_file`, up to REQUEST_IMPORT_MAX_ERRORS in `details`
 * ({ field: 'file', message }). Same file checks as task trackers: 415 `no_csv_file` / `no_excel_file`,
 * at most 20 MB, .xlsx archive limits, cells exported formula-safe and read back without the apostrophe.
 */
export const REQUEST_FILE_COLUMNS = [
  'Reference',
  'Title',
  'Description',
  'Priority',
  'Due Date',
  'Assignees',
  'Project',
  'Status',
  'Requester',
  'Evidence Files',
  'Created',
  'Updated',
] as const;
export type RequestFileColumn = (typeof REQUEST_FILE_COLUMNS)[number];
export const REQUEST_FILE_IMPORTED_COLUMNS: readonly RequestFileColumn[] = [
  'Reference',
  'Title',
  'Description',
  'Priority',
  'Due Date',
  'Assignees',
  'Project',
];
export const REQUEST_FILE_REQUIRED_COLUMNS: readonly RequestFileColumn[] = ['Title'];
export { MALFORMED_REQUEST_FILE_CODE } from '../errors';

// ---------------------------------------------------------------------------------------------
// Web: the list's address

/** Query parameters of /requests, as the list keeps them in the address. */
export const REQUEST_LIST_PARAMS = [
  'status',
  'priority',
  'assigneeId',
  'teamId',
  'requesterId',
  'projectId',
  'overdue',
  'search',
  'sort',
  'page',
  'pageSize',
] as const;
