/**
 * The error catalogue, written once: the api sends these codes in
 * `{ code, message, requestId }` and the web turns them into toasts with the same table.
 */

export const ERROR_MESSAGES = {
  failed_login: 'Your credentials are not correct.',
  invalid_groups: 'You are not in the correct team to access this Application.',
  invalid_user: 'We could not find any user with that email.',
  email_already_taken: 'Email address already in use.',
  not_sms_factor: 'You do not have MFA activated, please contact your administrator.',
  duplicate_filename: 'A file with this name already exists in this folder of the project.',
  no_csv_file: 'Only CSV files are accepted. This may just require adding a .csv to the filename.',
  no_excel_file: 'Only .xlsx files are accepted.',
  project_not_found: 'Project not found.',
  project_already_exist: 'A project with this title already exists.',
  user_not_found: 'User not found.',
  company_not_found: 'Company not found.',
  user_not_in_project: 'The user is not a member of this project.',
  user_is_inactive: 'The user is inactive.',
  user_can_not_update_project: 'You cannot update this project.',
  user_cannot_update_company: 'You cannot update this company.',
  same_project_lead_and_manager: 'Project manager and lead consultant must be different users.',
  client_lead_missing_in_project: 'Client Lead Role must be set to activate the project.',
  lead_consultant_missing_in_project: 'Lead Consultant Role must be set for the project.',
  lead_user_can_not_be_revoked: 'This user holds a lead role: reassign the role first.',
  forbidden_role_assignment: 'This role cannot be assigned to this user.',
  forbidden_role_assignment_for_templates: 'Roles cannot be assigned on templates.',
  forbidden_role_assignment_for_lead: 'A lead role cannot go to a user who already holds a lead role.',
  client_cannot_add_user_to_project: 'Only a Client Lead can add users to a project.',
  root_folder_already_exist: 'The root folder already exists.',
  root_folder_cannot_be_deleted: 'The root folder cannot be deleted.',
  folder_not_found: 'Folder not found.',
  folder_cannot_be_moved_to_itself: 'A folder cannot be moved into itself or one of its subfolders.',
  folder_already_exist: 'A folder with this name already exists.',
  folder_file_not_found: 'File not found in this folder.',
  folder_file_already_exist: 'A file with this name already exists in this folder.',
  forbidden_folder_action: 'The root folder cannot be renamed or moved.',
  folder_not_supported: 'Folders cannot be nested that deep.',
  folder_project_has_open_tasks:
    'Files in this folder are attached to open tasks: detach them or finish the tasks first.',
  task_not_supported: 'This task type is not supported.',
  task_tracker_not_found: 'No templates found for the chosen practice.',
  task_tracker_task_not_found: 'Task tracker task not found.',
  task_tracker_in_wrong_status: 'Invalid status.',
  invalid_practice: 'Invalid practice.',
  task_reference_id_already_exist_on_project: 'Task IDs must be unique or null',
  control_name_must_be_unique: 'Control IDs must be unique.',
  practices_can_not_be_changed_when_project_has_tasks: 'Practices cannot be changed when the project has tasks.',
  project_with_tasks_cannot_be_canceled: 'A project with tasks cannot be canceled.',
  project_with_files_cannot_be_canceled: 'A project with files cannot be canceled.',
  interview_date_time_is_in_the_past: 'Interview time must not be in the past.',
  interview_day_is_invalid: 'Interview day must be Monday to Friday.',
  max_interval_exceeded: 'The interview interval is at most 62 days.',
  fail_to_schedule_interview: 'The interview could not be scheduled.',
  fail_to_create_subscription: 'The subscription could not be created.',
  invalid_meeting_organizer: 'Meeting organizers must be lead consultants or consultants.',
  invalid_meeting_argument: 'The meeting details are not valid.',
  cant_schedule_meeting: 'The meeting could not be scheduled.',
  unable_to_start_graph_client: 'The calendar service could not be reached.',
  graph_user_not_found: 'The user was not found in the calendar service.',
  no_timezone: 'No time zone is set.',
  file_already_attached_to_task: 'This file is already attached to the task.',
  // Local passwords (same catalogue so the web shows them the same way).
  current_password_incorrect: 'The current password is not correct.',
  federated_user: "This account signs in with the company's single sign-on: its password is managed there.",
  // Projects: the lifecycle and roster rules of docs/projects.md.
  project_type_cannot_be_switched: "Tasks must be OPEN or INCOMPLETE to switch a project's type.",
  invalid_status_transition: 'This status change is not allowed.',
  task_not_found: 'Task not found.',
  control_not_found: 'Control not found.',
  point_of_focus_not_found: 'Point of focus not found.',
  project_is_canceled: 'The project is canceled: restore it to change its work.',
  project_role_taken: 'This role was just given to another user: reload the team and try again.',
  // Files (issue 6).
  file_not_found: 'File not found.',
  file_version_not_found: 'File version not found.',
  unsupported_file_type: 'This type of file is not accepted, or its content does not match its name.',
  signed_url_invalid: 'This download link is not valid. Download the file again from the portal.',
  signed_url_expired: 'This download link has expired. Download the file again from the portal.',
  transfer_not_found: 'Transfer not found, or it has expired.',
  transfer_passphrase_required: 'This transfer is protected: enter its passphrase.',
  transfer_passphrase_incorrect: 'The passphrase is not correct.',
  // Practices, templates and interviews (issue 7).
  practice_not_found: 'Practice not found.',
  practice_name_taken: 'A practice with this name already exists.',
  task_tracker_name_taken: 'This practice already has a template with this name.',
  interview_not_found: 'Interview not found.',
  interview_is_canceled: 'The interview is canceled: schedule a new one.',
  interview_is_over: 'The interview has already started: it can no longer be changed.',
  // Evidence requests (issue 8).
  request_not_found: 'Request not found.',
  request_evidence_missing: 'Attach at least one evidence file before submitting.',
  request_is_closed: 'This request is closed: reopen it to change its evidence.',
  request_under_review: 'This request is being reviewed: its evidence cannot change until it is returned.',
  request_status_changed: 'The request changed while you were looking at it: reload it and try again.',
  request_reference_taken: 'A request with this reference already exists in the company.',
  // Settings: companies, teams and feature flags.
  company_name_taken: 'A company with this name already exists.',
  team_not_found: 'Team not found.',
  team_name_taken: 'A team with this name already exists in this company.',
  feature_flag_not_found: 'Feature flag not found.',
  // Single sign-on domains (issue 30).
  domain_not_found: 'Domain not found.',
  domain_taken: 'Another company has verified this domain.',
  domain_not_verified: "The domain's DNS TXT record was not found: add it at your DNS provider and try again later.",
  // Remote overrides (issue 33).
  remote_not_found: 'Remote not found: the remotes manifest in force has no remote of this name.',
} as const;

export type MappedErrorCode = keyof typeof ERROR_MESSAGES;

/** Codes the server sends that the catalogue does not map (the web shows the raw code or server message). */
export const GENERIC_ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'module_access_denied',
  'not_found',
  'unsupported_media_type',
  'payload_too_large',
  'too_many_requests',
  'internal_error',
  'service_unavailable',
  'csrf_rejected',
  'misdirected_request',
] as const;

export type GenericErrorCode = (typeof GENERIC_ERROR_CODES)[number];

/** A password reset could not be sent: the web shows `resetPasswordFailure(brand)`. */
export const RESET_PASSWORD_FAILED = 'reset_password_failed';

export type ErrorCode = MappedErrorCode | GenericErrorCode | typeof RESET_PASSWORD_FAILED;

/** The body of every error reply of the api. */
export interface ApiErrorBody {
  code: string;
  message: string;
  requestId: string;
  /** Present on validation errors: the fields that failed and why. */
  details?: { field: string; message: string }[];
}

export const STATUS_TITLES: Record<number, string> = {
  400: 'Unable to complete request',
  // a business rule's refusal (a taken name, a project that cannot be canceled yet): the request could
  // not be completed, nothing broke (issue 35: "Something went wrong" read like a crash)
  409: 'Unable to complete request',
  401: 'Authorization error',
  403: 'Permission error',
  404: 'Not found error',
  415: 'Unsupported media type',
};
export const DEFAULT_ERROR_TITLE = 'Something went wrong';
export const TOO_MANY_REQUESTS_TITLE = 'Too Many Requests';
export const TOO_MANY_REQUESTS_DETAIL = 'Please wait a moment until you can send requests again.';
export const FALLBACK_DETAIL = 'Please try again or contact support if the problem persists';
export const MALFORMED_TASK_TRACKER = 'Malformed Task Tracker File';
/** The server's code for a task tracker file it cannot read: the web shows its message, else MALFORMED_TASK_TRACKER. */
export const MALFORMED_TASK_TRACKER_CODE = 'malformed_task_tracker';
/** The server's code for a request file it cannot read (issue 8): the web shows its message. */
export const MALFORMED_REQUEST_FILE_CODE = 'malformed_request_file';
export const MALFORMED_REQUEST_FILE = 'Malformed request file';

/** The product name when the caller does not say (the web's session state holds the configured one). */
export const DEFAULT_BRAND = 'Tevora';
export const RESET_PASSWORD_FAILURE_TITLE = 'Unable to Reset Password';

export function resetPasswordFailureDetail(brand: string): string {
  return `Please contact your ${brand} Portal admin`;
}

export function resetPasswordFailure(brand: string): string {
  return `${RESET_PASSWORD_FAILURE_TITLE}: ${resetPasswordFailureDetail(brand)}`;
}

export function isMappedErrorCode(code: unknown): code is MappedErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERROR_MESSAGES, code);
}

export interface ErrorToast {
  severity: 'error' | 'warn';
  summary: string;
  detail: string;
}

/**
 * What the user is told about a failed call. Returns null when nothing is shown:
 * 401 (the shell redirects to sign-in), 502 (silent) and cancelled requests.
 */
export function toastForError(input: {
  status: number;
  body?: Partial<ApiErrorBody> | null;
  requestId?: string | null;
  cancelled?: boolean;
  /** The product name ({brand}) for messages that name it. */
  brand?: string;
}): ErrorToast | null {
  const { status, body } = input;
  if (input.cancelled || status === 401 || status === 502) return null;
  if (status === 429) {
    return { severity: 'warn', summary: TOO_MANY_REQUESTS_TITLE, detail: TOO_MANY_REQUESTS_DETAIL };
  }
  const code = body?.code;
  if (code === RESET_PASSWORD_FAILED) {
    return {
      severity: 'error',
      summary: RESET_PASSWORD_FAILURE_TITLE,
      detail: resetPasswordFailureDetail(input.brand ?? DEFAULT_BRAND),
    };
  }
  const summary = STATUS_TITLES[status] ?? DEFAULT_ERROR_TITLE;
  if (code === MALFORMED_TASK_TRACKER_CODE) {
    return { severity: 'error', summary, detail: body?.message || MALFORMED_TASK_TRACKER };
  }
  if (code === MALFORMED_REQUEST_FILE_CODE) {
    return { severity: 'error', summary, detail: body?.message || MALFORMED_REQUEST_FILE };
  }
  const requestId = body?.requestId ?? input.requestId ?? null;
  let detail: string | undefined;
  if (isMappedErrorCode(code)) detail = ERROR_MESSAGES[code];
  else if (code && !(GENERIC_ERROR_CODES as readonly string[]).includes(code)) detail = code;
  else if (body?.message) detail = body.message;
  if (!detail) {
    detail = requestId ? `${FALLBACK_DETAIL}. Reference: ${requestId}` : FALLBACK_DETAIL;
  }
  return { severity: 'error', summary, detail };
}

/** Failed calls whose refusal the page shows itself, beside the fields of a form (showOnForm). */
const shownOnPage = new WeakSet<object>();

/** The page shows this failed call's refusal itself: the shell then shows no toast for it. */
export function markShownOnPage(error: unknown): void {
  if (typeof error === 'object' && error !== null) shownOnPage.add(error);
}

/**
 * Publishes the toast for a failed call (toastForError) unless the page shows the refusal itself. The
 * page learns of the failure after the store does (the caller's `unwrap()` rejects a moment later), so
 * the choice waits for a task: by then a form has put the messages beside its fields, or not.
 */
export function publishErrorToast(
  error: unknown,
  input: Parameters<typeof toastForError>[0],
  publish: (toast: ErrorToast) => void,
): void {
  setTimeout(() => {
    if (typeof error === 'object' && error !== null && shownOnPage.has(error)) return;
    const toast = toastForError(input);
    if (toast) publish(toast);
  }, 0);
}

/** The messages a form shows for one of its fields. */
export interface FormFieldErrors {
  name: string;
  errors: string[];
}

/** A message of the api for `field`, without the api's name of the field in front of it. */
export function fieldMessage(field: string, message: string): string {
  const named = [field, field.split('.')[0]].find((name) => message.startsWith(`${name} `));
  if (!named) return message;
  const rest = message.slice(named.length + 1);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

interface ZodLikeSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
}

/**
 * An antd Form rule that checks a field with the api's own zod schema, so the browser refuses what
 * the server would, with the server's rule, in the form's words: the schema says "minimumLength must
 * be at least 8" to callers of the api; under the field's label the form says "Must be at least 8"
 * (antd hands the rule its field's name). `skipEmpty`: an empty value (undefined, null or '') passes
 * unchecked (an optional field left blank). `nullAsMissing`: a null value (a cleared number input) is
 * checked as an absent one. (web/api's zodRule, kept for remotes built before it, shows the api's
 * message as it is.)
 */
export function schemaRule(schema: ZodLikeSchema, { skipEmpty = false, nullAsMissing = false } = {}) {
  return {
    validator: async (rule: unknown, value: unknown) => {
      if (skipEmpty && (value === undefined || value === null || value === '')) return;
      const result = schema.safeParse(nullAsMissing ? (value ?? undefined) : value);
      if (result.success) return;
      const message = result.error.issues[0]?.message ?? 'Invalid value';
      const field = (rule as { field?: unknown } | undefined)?.field;
      throw new Error(typeof field === 'string' ? fieldMessage(field, message) : message);
    },
  };
}

/**
 * What a form shows for a refused call, by top-level field (`assigneeIds.2` is `assigneeIds`), in the
 * form's words: a business rule's refusal (a taken name) in the catalogue's message, a field's rule
 * without the api's name of the field in front ("minimumLength must be at least 8" under "Minimum
 * length" reads "Must be at least 8"). `conflicts`: the codes the api sends without details, each
 * with the field it is about.
 */
export function formErrors(error: unknown, conflicts: Record<string, string> = {}): FormFieldErrors[] {
  const data = (error as { data?: Partial<ApiErrorBody> } | null | undefined)?.data;
  const code = data?.code;
  const mapped = isMappedErrorCode(code) ? ERROR_MESSAGES[code] : null;
  const byField = new Map<string, string[]>();
  for (const { field: name, message } of data?.details ?? []) {
    const field = name.split('.')[0];
    const text = mapped ?? fieldMessage(name, message);
    const known = byField.get(field) ?? [];
    if (!known.includes(text)) byField.set(field, [...known, text]);
  }
  if (byField.size === 0 && mapped && typeof code === 'string' && conflicts[code]) {
    byField.set(conflicts[code], [mapped]);
  }
  return [...byField].map(([name, errors]) => ({ name, errors }));
}

/**
 * The part of a form (antd's FormInstance, whose setFields takes the form's own field names) that shows a
 * refused call beside its fields: it is given FormFieldErrors of the fields it renders.
 */
export interface FieldsForm {
  getFieldsValue(): unknown;
  setFields(fields: never): void;
}

/**
 * Puts a refused call's messages beside the form's fields (formErrors). True when every one of them has
 * a field on the form: the refusal is then shown there alone, and the shell shows no toast for it
 * (publishErrorToast). A message for a field the form does not have still reaches the user, in the toast.
 */
export function showOnForm(form: FieldsForm, error: unknown, conflicts?: Record<string, string>): boolean {
  const errors = formErrors(error, conflicts);
  // the fields the form renders (a Form.Item with this name), whatever their value
  const present = Object.keys((form.getFieldsValue() ?? {}) as object);
  const shown = errors.filter((e) => present.includes(e.name));
  if (shown.length) form.setFields(shown as never);
  if (shown.length === 0 || shown.length < errors.length) return false;
  markShownOnPage(error);
  return true;
}
