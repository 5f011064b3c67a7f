/** What the evidence request operations answer, as zod schemas (see projects/results.ts). */
import { z } from 'zod';
import { count, day, id, page, ref, results, timestamp } from '../answers';
import { projectUser } from '../projects/results';
import { REQUEST_ACTIONS, REQUEST_EVENT_TYPES, REQUEST_PRIORITIES, REQUEST_STATUSES } from './index';

export const requestUser = projectUser.extend({ isTevora: z.boolean() });

export const requestSummary = z.strictObject({
  id,
  companyId: id,
  reference: z.string().min(1),
  title: z.string(),
  status: z.enum(REQUEST_STATUSES),
  priority: z.enum(REQUEST_PRIORITIES),
  dueDate: day.nullable(),
  /** isRequestOverdue on the server's day. */
  overdue: z.boolean(),
  project: z.strictObject({ id, title: z.string() }).nullable(),
  requester: requestUser.nullable(),
  assignees: z.array(requestUser),
  teams: z.array(ref),
  fileCount: count,
  /** Comments the caller may read. */
  commentCount: count,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const requestList = z.strictObject({ results: z.array(requestSummary), ...page });

/** An evidence file. */
export const requestFile = z.strictObject({
  id,
  requestId: id,
  name: z.string().min(1),
  contentType: z.string().min(1),
  size: count,
  uploadedBy: requestUser.nullable(),
  createdAt: timestamp,
  /** The caller may delete it now. */
  canDelete: z.boolean(),
});
export const requestFileList = results(requestFile);

/** What the caller may do with the request now (the server decides; the web only shows). */
export const requestPermissions = z.strictObject({
  manage: z.boolean(),
  respond: z.boolean(),
  /** Actions the caller may apply in the current status. */
  actions: z.array(z.enum(REQUEST_ACTIONS)),
  uploadEvidence: z.boolean(),
  commentInternal: z.boolean(),
});

export const requestDetail = requestSummary.extend({
  description: z.string().nullable(),
  /** Staff only: null for clients. */
  internalNote: z.string().nullable(),
  task: z.strictObject({ id, referenceId: z.string().nullable(), title: z.string() }).nullable(),
  control: z.strictObject({ id, name: z.string(), title: z.string() }).nullable(),
  /** The latest return's reason while returned, else null. */
  returnReason: z.string().nullable(),
  submittedAt: timestamp.nullable(),
  acceptedAt: timestamp.nullable(),
  canceledAt: timestamp.nullable(),
  files: z.array(requestFile),
  permissions: requestPermissions,
});

export const requestAssigneeOptions = z.strictObject({
  /** Active client members of the company whose access stands, by name. */
  users: z.array(requestUser),
  teams: z.array(ref),
  /** Staff who requested something of the company (the requester filter), by name. */
  requesters: z.array(requestUser),
  /** The company's projects the caller sees (id, title), by title. */
  projects: z.array(z.strictObject({ id, title: z.string() })),
});

export const requestBulkResult = z.strictObject({ updated: count });

export const requestImportResult = z.strictObject({
  /** Data rows read (the header not counted). */
  rows: count,
  created: count,
  /** References given to the new requests, in file order (at most the first 100). */
  references: z.array(z.string().min(1)).max(100),
});

/**
 * One entry of a request's history. `detail` by type: created/imported {}; updated { fields: string[] }
 * (names of the changed fields); assigned/unassigned { users: string[], teams: string[] } (display names);
 * status { from, to, action, reason? }; file_added/file_removed { name }; comment { internal }.
 */
export const requestEvent = z.strictObject({
  id,
  requestId: id,
  type: z.enum(REQUEST_EVENT_TYPES),
  actor: requestUser.nullable(),
  detail: z.strictObject({
    fields: z.array(z.string()).optional(),
    users: z.array(z.string()).optional(),
    teams: z.array(z.string()).optional(),
    from: z.enum(REQUEST_STATUSES).optional(),
    to: z.enum(REQUEST_STATUSES).optional(),
    action: z.enum(REQUEST_ACTIONS).optional(),
    reason: z.string().nullable().optional(),
    name: z.string().optional(),
    internal: z.boolean().optional(),
  }),
  createdAt: timestamp,
});
/** Oldest first. */
export const requestHistory = results(requestEvent);

export const requestComment = z.strictObject({
  id,
  requestId: id,
  author: requestUser.nullable(),
  body: z.string(),
  internal: z.boolean(),
  createdAt: timestamp,
});
/** Oldest first. */
export const requestCommentList = results(requestComment);
