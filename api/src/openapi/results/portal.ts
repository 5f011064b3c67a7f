/** Result schemas (see index.ts) of health, portal config, feature flags, system settings, notifications, transfers, documents and reports. */
import { z } from 'zod';
import { assertSame, count, day, id, page, timestamp, type Same } from './common';
import { projectFile, sha256 } from './work';
import {
  FLAG_ATTRIBUTES,
  FLAG_KEY_PATTERN,
  FLAG_OPERATORS,
  type FeatureFlagDefinition,
  type FeatureFlagsPayload,
  type FlagAttribute,
  type FlagJson,
} from '@portal/shared/core/feature-flags';
import {
  PORTAL_MESSAGE_KEYS,
  PORTAL_MESSAGE_STATUSES,
  type healthSchema,
  type NotificationList,
  type PortalConfig,
  type PortalMessage,
  type SystemSettingsList,
  type UnreadCount,
} from '@portal/shared/core/schemas';
import type { SystemSettingFile } from '@portal/shared/core/settings';
import type { DocumentList, SignedUrl, Transfer, TransferList, TransferUser } from '@portal/shared/core/files';
import {
  ACCEPT_TIME_BUCKETS,
  REPORT_KINDS,
  REQUEST_AGE_BUCKETS,
  type ControlsReport,
  type Report,
  type ReportMeta,
  type ReportOptions,
  type RequestsReport,
  type StatusReport,
  type WorkloadReport,
} from '@portal/shared/core/reports';
import { PROJECT_STATUSES, TASK_STATUSES } from '@portal/shared/core/projects';
import { REQUEST_STATUSES } from '@portal/shared/core/requests';

// ---------------------------------------------------------------------------------------------
// Health and portal config

const health = z.strictObject({ status: z.literal('ok'), database: z.literal('ok'), apiVersion: z.string() });
const portalConfig = z.strictObject({ brandName: z.string().min(1), apiVersion: z.string(), uiVersion: z.string() });

// ---------------------------------------------------------------------------------------------
// Feature flags

const flagJson: z.ZodType<FlagJson> = z.lazy(() =>
  z.union([z.boolean(), z.number(), z.string(), z.null(), z.array(flagJson), z.record(z.string(), flagJson)]),
);
/** A served value: any JSON but null at the top level. */
const flagValue = z.union([z.boolean(), z.number(), z.string(), z.array(flagJson), z.record(z.string(), flagJson)]);
const flagRule = z.strictObject({
  if: z.strictObject({
    attribute: z.enum(FLAG_ATTRIBUTES as [FlagAttribute, ...FlagAttribute[]]),
    op: z.enum(FLAG_OPERATORS),
    value: z.union([z.boolean(), z.string(), z.array(z.string())]),
  }),
  value: flagValue,
  variant: z.string().optional(),
});
const flagsPayload = z.strictObject({
  flags: z.record(
    z.string(),
    z.strictObject({
      value: flagValue,
      variant: z.string().optional(),
      reason: z.enum(['STATIC', 'DEFAULT', 'TARGETING_MATCH', 'DISABLED', 'ERROR']),
    }),
  ),
  version: z.string(),
});
const flagDefinition = z.strictObject({
  key: z.string().regex(FLAG_KEY_PATTERN),
  description: z.string(),
  defaultValue: flagValue,
  rules: z.array(flagRule),
  enabled: z.boolean(),
  version: z.number().int().min(1),
  updatedAt: timestamp,
});
const flagDefinitionList = z.strictObject({ results: z.array(flagDefinition) });

// ---------------------------------------------------------------------------------------------
// System settings (portal messages) and their files

const portalMessage = z.strictObject({
  id,
  key: z.enum(PORTAL_MESSAGE_KEYS),
  status: z.enum(PORTAL_MESSAGE_STATUSES),
  value: z.string(),
  version: z.number().int().min(1),
  dismissed: z.boolean(),
  updatedAt: timestamp,
});
const systemSettingsList = z.strictObject({ data: z.array(portalMessage) });
const systemSettingFile = z.strictObject({
  id,
  name: z.string().min(1),
  contentType: z.string().min(1),
  size: count,
  sha256,
  createdAt: timestamp,
});
const systemSettingFiles = z.strictObject({ files: z.array(systemSettingFile) });

// ---------------------------------------------------------------------------------------------
// Notifications

const notification = z.strictObject({
  id,
  companyId: id.nullable(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  createdAt: timestamp,
  readAt: timestamp.nullable(),
});
const notificationList = z.strictObject({ results: z.array(notification), ...page, unreadCount: count });
const unreadCount = z.strictObject({ unreadCount: count });

// ---------------------------------------------------------------------------------------------
// Documents, signed downloads and transfers

const documentList = z.strictObject({
  results: z.array(projectFile.extend({ project: z.strictObject({ id, title: z.string() }), folderPath: z.string() })),
  ...page,
});
const signedUrl = z.strictObject({
  url: z.string().startsWith('/api/v1/files/'),
  expiresAt: timestamp,
  name: z.string().min(1),
});

const userRef = z.strictObject({ id, name: z.string(), email: z.string() });
const transferUser = userRef.extend({ staff: z.boolean() });
const transferRecipients = z.strictObject({ results: z.array(transferUser) });
export const transfer = z.strictObject({
  id,
  companyId: id,
  sender: userRef.nullable(),
  recipients: z.array(userRef),
  message: z.string().nullable(),
  hasPassphrase: z.boolean(),
  expiresAt: timestamp,
  createdAt: timestamp,
  files: z.array(
    z.strictObject({
      id,
      name: z.string().min(1),
      size: count,
      contentType: z.string().min(1),
      sha256,
      downloads: z.array(z.strictObject({ user: userRef.nullable(), at: timestamp })),
    }),
  ),
});
const transferList = z.strictObject({ results: z.array(transfer), ...page });

// ---------------------------------------------------------------------------------------------
// Reports

/** A 0–100 percentage with one decimal. */
const percent = z.number().min(0).max(100);
const projectRef = z.strictObject({ id, title: z.string() });
const reportMeta = z.strictObject({
  company: z.strictObject({ id, name: z.string() }),
  project: projectRef.nullable(),
  from: day.nullable(),
  to: day.nullable(),
  today: day,
  generatedAt: timestamp,
});
const reportOptions = z.strictObject({
  kinds: z.array(z.enum(REPORT_KINDS)),
  projects: z.array(projectRef.extend({ status: z.enum(PROJECT_STATUSES) })),
});
const taskCounts = { tasks: count, open: count, closed: count, overdue: count, percentClosed: percent };
const statusReport = z.strictObject({
  kind: z.literal('status'),
  meta: reportMeta,
  totals: z.strictObject(taskCounts),
  byStatus: z.array(z.strictObject({ status: z.enum(TASK_STATUSES), count })),
  byProject: z.array(
    z.strictObject({ projectId: id, title: z.string(), status: z.enum(PROJECT_STATUSES), ...taskCounts }),
  ),
  progress: z.strictObject({
    bucket: z.enum(['week', 'month']),
    points: z.array(z.strictObject({ start: day, end: day, created: count, closed: count, open: count })),
  }),
});
const keysOf = <const T extends readonly { key: string }[]>(buckets: T) =>
  buckets.map((b) => b.key) as unknown as [T[number]['key'], ...T[number]['key'][]];
const requestsReport = z.strictObject({
  kind: z.literal('requests'),
  meta: reportMeta,
  totals: z.strictObject({
    requests: count,
    active: count,
    overdue: count,
    accepted: count,
    reviewed: count,
    returned: count,
    returnedRate: z.number().min(0).max(1).nullable(),
    averageDaysToAccept: z.number().min(0).nullable(),
  }),
  byStatus: z.array(z.strictObject({ status: z.enum(REQUEST_STATUSES), count })),
  openByAge: z.array(z.strictObject({ bucket: z.enum(keysOf(REQUEST_AGE_BUCKETS)), count })),
  timeToAccept: z.array(z.strictObject({ bucket: z.enum(keysOf(ACCEPT_TIME_BUCKETS)), count })),
  byAssignee: z.array(
    z.strictObject({
      userId: id.nullable(),
      teamId: id.nullable(),
      name: z.string(),
      active: count,
      overdue: count,
      submitted: count,
      accepted: count,
      returned: count,
    }),
  ),
});
const coverage = {
  controls: count,
  withTasks: count,
  withEvidence: count,
  pointsOfFocus: count,
  pointsOfFocusCovered: count,
  percentCovered: percent,
};
const controlsReport = z.strictObject({
  kind: z.literal('controls'),
  meta: reportMeta,
  totals: z.strictObject(coverage),
  byProject: z.array(z.strictObject({ projectId: id, title: z.string(), ...coverage })),
});
const workloadReport = z.strictObject({
  kind: z.literal('workload'),
  meta: reportMeta,
  requestsIncluded: z.boolean(),
  people: z.array(
    z.strictObject({
      userId: id,
      name: z.string(),
      email: z.string(),
      staff: z.boolean(),
      openTasks: count,
      overdueTasks: count,
      activeRequests: count,
      overdueRequests: count,
      total: count,
    }),
  ),
  totals: z.strictObject({
    openTasks: count,
    overdueTasks: count,
    unassignedTasks: count,
    activeRequests: count,
    overdueRequests: count,
    unassignedRequests: count,
  }),
});
const report = z.discriminatedUnion('kind', [statusReport, requestsReport, controlsReport, workloadReport]);

assertSame<Same<z.output<typeof health>, z.output<typeof healthSchema>>>();
assertSame<Same<z.output<typeof portalConfig>, PortalConfig>>();
assertSame<Same<z.output<typeof flagsPayload>, FeatureFlagsPayload>>();
assertSame<Same<z.output<typeof flagDefinition>, FeatureFlagDefinition>>();
assertSame<Same<z.output<typeof portalMessage>, PortalMessage>>();
assertSame<Same<z.output<typeof systemSettingsList>, SystemSettingsList>>();
assertSame<Same<z.output<typeof systemSettingFiles>, { files: SystemSettingFile[] }>>();
assertSame<Same<z.output<typeof notificationList>, NotificationList>>();
assertSame<Same<z.output<typeof unreadCount>, UnreadCount>>();
assertSame<Same<z.output<typeof documentList>, DocumentList>>();
assertSame<Same<z.output<typeof signedUrl>, SignedUrl>>();
assertSame<Same<z.output<typeof transferRecipients>, { results: TransferUser[] }>>();
assertSame<Same<z.output<typeof transfer>, Transfer>>();
assertSame<Same<z.output<typeof transferList>, TransferList>>();
assertSame<Same<z.output<typeof reportMeta>, ReportMeta>>();
assertSame<Same<z.output<typeof reportOptions>, ReportOptions>>();
assertSame<Same<z.output<typeof statusReport>, StatusReport>>();
assertSame<Same<z.output<typeof requestsReport>, RequestsReport>>();
assertSame<Same<z.output<typeof controlsReport>, ControlsReport>>();
assertSame<Same<z.output<typeof workloadReport>, WorkloadReport>>();
assertSame<Same<z.output<typeof report>, Report>>();

/** The success bodies of health, portal config, feature flags, system settings, notifications, transfers, documents and reports, by operation. */
export const PORTAL_RESULTS: Record<string, z.ZodType> = {
  'GET /api/v1/health': health,
  'GET /api/v1/portal-config': portalConfig,
  'GET /api/v1/feature-flags': flagsPayload,
  'GET /api/v1/feature-flags/definitions': flagDefinitionList,
  'PUT /api/v1/feature-flags/:key': flagDefinition,
  'GET /api/v1/system-settings': systemSettingsList,
  'POST /api/v1/system-settings': portalMessage,
  'POST /api/v1/system-settings/': portalMessage,
  'PUT /api/v1/system-settings/:id': portalMessage,
  'GET /api/v1/system-settings/:id/files': systemSettingFiles,
  'PATCH /api/v1/system-settings/:id/files': systemSettingFiles,
  'GET /api/v1/notifications': notificationList,
  'POST /api/v1/notifications/read-all': unreadCount,
  'POST /api/v1/notifications/:id/read': unreadCount,
  'GET /api/v1/companies/:id/files': documentList,
  'GET /api/v1/files/:id/signed-url': signedUrl,
  'GET /api/v1/companies/:id/transfer-recipients': transferRecipients,
  'GET /api/v1/companies/:id/transfers': transferList,
  'POST /api/v1/companies/:id/transfers': transfer,
  'GET /api/v1/transfers/:id': transfer,
  'GET /api/v1/companies/:id/reports/options': reportOptions,
  'GET /api/v1/companies/:id/reports/:kind': report,
};
