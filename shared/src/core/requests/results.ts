/** What the evidence request operations answer, as zod schemas (see projects/results.ts). */
import { z } from 'zod';
import { count, day, id, page, ref, timestamp } from '../answers';
import { projectUser } from '../projects/results';
import { REQUEST_ACTIONS, REQUEST_PRIORITIES, REQUEST_STATUSES } from './index';

export const requestUser = projectUser.extend({ isTevora: z.boolean() });

export const requestSummary = z.strictObject({
  id,
  companyId: id,
  reference: z.string().min(1),
  title: z.string(),
  status: z.enum(REQUEST_STATUSES),
  priority: z.enum(REQUEST_PRIORITIES),
  dueDate: day.nullable(),
  overdue: z.boolean(),
  project: z.strictObject({ id, title: z.string() }).nullable(),
  requester: requestUser.nullable(),
  assignees: z.array(requestUser),
  teams: z.array(ref),
  fileCount: count,
  commentCount: count,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const requestList = z.strictObject({ results: z.array(requestSummary), ...page });

export const requestDetail = requestSummary.extend({
  description: z.string().nullable(),
  internalNote: z.string().nullable(),
  task: z.strictObject({ id, referenceId: z.string().nullable(), title: z.string() }).nullable(),
  control: z.strictObject({ id, name: z.string(), title: z.string() }).nullable(),
  returnReason: z.string().nullable(),
  submittedAt: timestamp.nullable(),
  acceptedAt: timestamp.nullable(),
  canceledAt: timestamp.nullable(),
  files: z.array(
    z.strictObject({
      id,
      requestId: id,
      name: z.string().min(1),
      contentType: z.string().min(1),
      size: count,
      uploadedBy: requestUser.nullable(),
      createdAt: timestamp,
      canDelete: z.boolean(),
    }),
  ),
  permissions: z.strictObject({
    manage: z.boolean(),
    respond: z.boolean(),
    actions: z.array(z.enum(REQUEST_ACTIONS)),
    uploadEvidence: z.boolean(),
    commentInternal: z.boolean(),
  }),
});
