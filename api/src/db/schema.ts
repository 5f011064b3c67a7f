import type { ColumnType, Generated } from 'kysely';

/**
 * Row types of the tables (see migrations/). Booleans come back as 0/1 on SQLite; timestamps as
 * ISO text on both (PostgreSQL's through values.ts pgTimestampToIso): repositories normalise them
 * (Boolean(), toIso()). Over 400 lines because it is one table list: Kysely types every query from
 * the Database interface below as a whole, and the row types are declarations only, no code.
 */
type Bool = ColumnType<boolean | number, boolean, boolean>;
type Timestamp = ColumnType<Date | string, string, string>;
type NullableBool = ColumnType<boolean | number | null, boolean | null, boolean | null>;
type NullableTimestamp = ColumnType<Date | string | null, string | null | undefined, string | null>;
/** A count the database keeps with triggers: read, never inserted or set by the app. PostgreSQL's integer reads as a number. */
type KeptCount = ColumnType<number, never, never>;

export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  title: string | null;
  primary_phone: string | null;
  avatar: string | null;
  password_hash: string | null;
  status: 'active' | 'suspended';
  is_tevora: Bool;
  is_auditor: Bool;
  is_admin: Bool;
  send_daily_emails: Bool;
  is_federated: Bool;
  first_login: Bool;
  password_changed_at: NullableTimestamp;
  last_sign_in_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CompaniesTable {
  id: string;
  name: string;
  logo: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CompanyModulesAccessTable {
  company_id: string;
  module: string;
  enabled: Bool;
}

export interface CompanyMembershipsTable {
  company_id: string;
  user_id: string;
  role: 'admin' | 'member';
  created_at: Timestamp;
  /** Set: the member stays listed but no longer sees the company. */
  access_revoked_at: NullableTimestamp;
}

export interface TeamsTable {
  id: string;
  company_id: string;
  name: string;
  created_at: Timestamp;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
}

export interface UserModulesAccessTable {
  company_id: string;
  user_id: string;
  module: string;
  enabled: NullableBool;
}

export interface TeamModulesAccessTable {
  company_id: string;
  team_id: string;
  module: string;
  enabled: NullableBool;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  user_agent: string | null;
}

export interface PasswordPoliciesTable {
  company_id: string;
  minimum_length: number;
  rotation_in_days: number;
  updated_at: Timestamp;
}

export interface PasswordTokensTable {
  token_hash: string;
  user_id: string;
  purpose: 'reset' | 'invite';
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface IdentityProvidersTable {
  company_id: string;
  entity_id: string;
  sso_url: string;
  certificate: string;
  slo_url: string | null;
  updated_at: Timestamp;
}

export interface SamlRequestsTable {
  id: string;
  company_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** sha256 of the browser's binding cookie (lib/saml.ts); null only for requests older than migration 0016. */
  binding_hash: string | null;
}

/** An email domain a company claims; verified (by DNS or a staff admin) by one company at most. */
export interface CompanyDomainsTable {
  id: string;
  company_id: string;
  domain: string;
  verification_token: string;
  verified_at: NullableTimestamp;
  verified_by: 'dns' | 'staff' | null;
  verified_by_user_id: string | null;
  created_at: Timestamp;
}

export interface SamlUsedAssertionsTable {
  id: string;
  expires_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  reset_at: Timestamp;
}

export interface PortalMessagesTable {
  id: string;
  key: 'banner' | 'help' | 'bell';
  status: 'active' | 'inactive';
  value: string;
  version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PortalMessageDismissalsTable {
  message_id: string;
  user_id: string;
  version: number;
  dismissed_at: Timestamp;
}

export interface FeatureFlagsTable {
  key: string;
  description: string;
  /** JSON text */
  default_value: string;
  /** JSON text: an array of rules */
  rules: string;
  enabled: Bool;
  version: number;
  updated_at: Timestamp;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  company_id: string | null;
  title: string;
  body: string;
  link: string | null;
  created_at: Timestamp;
  read_at: NullableTimestamp;
}

export interface ProjectsTable {
  id: string;
  company_id: string;
  title: string;
  status: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  description: string | null;
  type: ColumnType<string, string | undefined, string>;
  practice_id: string | null;
  /** YYYY-MM-DD */
  start_date: string | null;
  /** YYYY-MM-DD */
  due_date: string | null;
  created_by: string | null;
}

export interface TasksTable {
  id: string;
  project_id: string;
  company_id: string;
  parent_id: string | null;
  reference_id: string | null;
  title: string;
  description: string | null;
  status: string;
  /** YYYY-MM-DD */
  due_date: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Set when the status becomes COMPLETED, cleared when it leaves it. */
  completed_at: NullableTimestamp;
  /** Set when the status becomes a closed one (CLOSED_TASK_STATUSES), cleared when it reopens. */
  closed_at: NullableTimestamp;
  /** Kept by triggers (migration 0014), never written by the app: the task's subtasks, those closed, its comments. */
  subtask_count: KeptCount;
  subtasks_done: KeptCount;
  comment_count: KeptCount;
}

export interface TaskAssigneesTable {
  task_id: string;
  user_id: string;
}

export interface TaskCommentsTable {
  id: string;
  task_id: string;
  author_id: string | null;
  body: string;
  created_at: Timestamp;
}

export interface ControlsTable {
  id: string;
  project_id: string;
  name: string;
  title: string;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The number of top-level tasks of each project, kept by triggers (migration 0013). */
export interface ProjectTaskCountsTable {
  project_id: string;
  top_level: number;
}

export interface ControlTasksTable {
  control_id: string;
  task_id: string;
}

export interface PointsOfFocusTable {
  id: string;
  control_id: string;
  project_id: string;
  name: string;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FilesTable {
  id: string;
  project_id: string;
  name: string;
  content_type: string;
  /** bigint: PostgreSQL hands it back as a string */
  size: ColumnType<number | string, number, number>;
  uploaded_by: string | null;
  created_at: Timestamp;
  /** Set by the api on every row (nullable in the database: SQLite adds no NOT NULL column to a table). */
  folder_id: ColumnType<string | null, string | null | undefined, string | null>;
  company_id: ColumnType<string | null, string | null | undefined, string | null>;
  current_version_id: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: ColumnType<Date | string | null, string | undefined, string>;
}

export interface FoldersTable {
  id: string;
  project_id: string;
  /** null: the project's root */
  parent_id: string | null;
  name: string;
  created_by: string | null;
  created_at: Timestamp;
}

export interface FileVersionsTable {
  id: string;
  file_id: string;
  version: number;
  /** bigint: PostgreSQL hands it back as a string */
  size: ColumnType<number | string, number, number>;
  sha256: string;
  content_type: string;
  storage_key: string;
  uploaded_by: string | null;
  created_at: Timestamp;
}

export interface TaskFilesTable {
  task_id: string;
  file_id: string;
  created_by: string | null;
  created_at: Timestamp;
}

export type ProjectRoleName = 'Lead Consultant' | 'Consultant' | 'Project Manager' | 'Client Lead';

export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
  role: ProjectRoleName;
}

export interface AuditLogTable {
  id: string;
  created_at: Timestamp;
  actor_id: string | null;
  actor_email: string;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string;
  company_id: string | null;
  /** JSON text */
  before: string | null;
  /** JSON text */
  after: string | null;
  request_id: string | null;
}

export interface PracticesTable {
  id: string;
  name: string;
  description: string;
  status: 'active' | 'retired';
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StaffPracticesTable {
  user_id: string;
  practice_id: string;
}

export interface TeamObjectsTable {
  team_id: string;
  module: string;
  object_id: string;
  created_at: Timestamp;
}

export interface SystemSettingFilesTable {
  id: string;
  message_id: string;
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  storage_key: string;
  uploaded_by: string | null;
  created_at: Timestamp;
}

export interface TransfersTable {
  id: string;
  company_id: string;
  sender_id: string | null;
  message: string | null;
  /** argon2id; null: no passphrase. */
  passphrase_hash: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface TransferRecipientsTable {
  transfer_id: string;
  user_id: string;
  /** The transfer's, copied for the received box's index. */
  company_id: string;
  created_at: Timestamp;
}

export interface TransferFilesTable {
  id: string;
  transfer_id: string;
  name: string;
  content_type: string;
  /** bigint: PostgreSQL hands it back as a string */
  size: ColumnType<number | string, number, number>;
  sha256: string;
  storage_key: string;
  created_at: Timestamp;
}

export interface TransferDownloadsTable {
  id: string;
  transfer_file_id: string;
  user_id: string | null;
  downloaded_at: Timestamp;
}

/** Secrets shared by every instance (the download-link key when FILE_URL_SECRET is unset). */
export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export type TaskTrackerStatus = 'draft' | 'published' | 'retired';

/** A practice's task tracker template (issue 7). */
export interface TaskTrackersTable {
  id: string;
  practice_id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  status: ColumnType<TaskTrackerStatus, TaskTrackerStatus | undefined, TaskTrackerStatus>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TrackerTasksTable {
  id: string;
  tracker_id: string;
  parent_id: string | null;
  reference_id: string | null;
  title: string;
  description: string | null;
  position: number;
}

export interface TrackerControlsTable {
  id: string;
  tracker_id: string;
  name: string;
  title: string;
  description: string | null;
  position: number;
}

export interface TrackerControlTasksTable {
  control_id: string;
  task_id: string;
}

export interface TrackerPointsOfFocusTable {
  id: string;
  tracker_id: string;
  control_id: string;
  name: string;
  description: string | null;
  position: number;
}

/** An interview of a project (issue 7); times are UTC instants, `time_zone` the IANA zone it was scheduled in. */
export interface InterviewsTable {
  id: string;
  project_id: string;
  company_id: string;
  title: string;
  description: string | null;
  location: string | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  time_zone: string;
  organizer_id: string | null;
  status: ColumnType<'scheduled' | 'canceled', 'scheduled' | 'canceled' | undefined, 'scheduled' | 'canceled'>;
  sequence: ColumnType<number, number | undefined, number>;
  online_meeting_url: string | null;
  graph_event_id: string | null;
  graph_subscription_id: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  canceled_at: NullableTimestamp;
}

export interface InterviewParticipantsTable {
  interview_id: string;
  user_id: string;
  role: 'interviewer' | 'attendee';
}

export type RequestStatusName = 'open' | 'submitted' | 'returned' | 'accepted' | 'canceled';
export type RequestPriorityName = 'low' | 'medium' | 'high' | 'critical';

/** An evidence request of a company (issue 8). */
export interface RequestsTable {
  id: string;
  company_id: string;
  project_id: string | null;
  task_id: string | null;
  control_id: string | null;
  reference: string;
  /** The number behind an api-given reference (REQ-0001 -> 1); null when an import named the reference. */
  number: number | null;
  title: string;
  description: string | null;
  internal_note: string | null;
  priority: ColumnType<RequestPriorityName, RequestPriorityName | undefined, RequestPriorityName>;
  /** YYYY-MM-DD */
  due_date: string | null;
  status: ColumnType<RequestStatusName, RequestStatusName | undefined, RequestStatusName>;
  return_reason: string | null;
  /** How many times the request was returned (issue 9: the reports' returned rate). */
  return_count: ColumnType<number, number | undefined, number>;
  requester_id: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  submitted_at: NullableTimestamp;
  accepted_at: NullableTimestamp;
  canceled_at: NullableTimestamp;
}

export interface RequestAssigneesTable {
  request_id: string;
  user_id: string;
}

export interface RequestTeamsTable {
  request_id: string;
  team_id: string;
}

export interface RequestFilesTable {
  id: string;
  request_id: string;
  company_id: string;
  name: string;
  content_type: string;
  /** bigint: PostgreSQL hands it back as a string */
  size: ColumnType<number | string, number, number>;
  sha256: string;
  storage_key: string;
  uploaded_by: string | null;
  created_at: Timestamp;
}

export interface RequestCommentsTable {
  id: string;
  request_id: string;
  author_id: string | null;
  body: string;
  internal: Bool;
  created_at: Timestamp;
}

export interface RequestEventsTable {
  id: string;
  request_id: string;
  actor_id: string | null;
  type: string;
  /** JSON text: RequestEvent['detail'] */
  detail: string;
  internal: Bool;
  created_at: Timestamp;
}

export interface RequestRemindersTable {
  request_id: string;
  user_id: string;
  kind: 'due_soon' | 'overdue';
  due_date: string;
  created_at: Timestamp;
}

export interface RequestDigestsTable {
  user_id: string;
  /** YYYY-MM-DD (UTC) */
  day: string;
  created_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  companies: CompaniesTable;
  company_modules_access: CompanyModulesAccessTable;
  company_memberships: CompanyMembershipsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  user_modules_access: UserModulesAccessTable;
  team_modules_access: TeamModulesAccessTable;
  sessions: SessionsTable;
  password_policies: PasswordPoliciesTable;
  password_tokens: PasswordTokensTable;
  identity_providers: IdentityProvidersTable;
  company_domains: CompanyDomainsTable;
  saml_requests: SamlRequestsTable;
  saml_used_assertions: SamlUsedAssertionsTable;
  rate_limits: RateLimitsTable;
  portal_messages: PortalMessagesTable;
  portal_message_dismissals: PortalMessageDismissalsTable;
  feature_flags: FeatureFlagsTable;
  notifications: NotificationsTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  audit_log: AuditLogTable;
  practices: PracticesTable;
  staff_practices: StaffPracticesTable;
  team_objects: TeamObjectsTable;
  system_setting_files: SystemSettingFilesTable;
  tasks: TasksTable;
  project_task_counts: ProjectTaskCountsTable;
  task_assignees: TaskAssigneesTable;
  task_comments: TaskCommentsTable;
  controls: ControlsTable;
  control_tasks: ControlTasksTable;
  points_of_focus: PointsOfFocusTable;
  files: FilesTable;
  folders: FoldersTable;
  file_versions: FileVersionsTable;
  task_files: TaskFilesTable;
  transfers: TransfersTable;
  transfer_recipients: TransferRecipientsTable;
  transfer_files: TransferFilesTable;
  transfer_downloads: TransferDownloadsTable;
  app_secrets: AppSecretsTable;
  task_trackers: TaskTrackersTable;
  tracker_tasks: TrackerTasksTable;
  tracker_controls: TrackerControlsTable;
  tracker_control_tasks: TrackerControlTasksTable;
  tracker_points_of_focus: TrackerPointsOfFocusTable;
  interviews: InterviewsTable;
  interview_participants: InterviewParticipantsTable;
  requests: RequestsTable;
  request_assignees: RequestAssigneesTable;
  request_teams: RequestTeamsTable;
  request_files: RequestFilesTable;
  request_comments: RequestCommentsTable;
  request_events: RequestEventsTable;
  request_reminders: RequestRemindersTable;
  request_digests: RequestDigestsTable;
}

export type { Generated };
