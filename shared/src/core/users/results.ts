/**
 * What the users operations answer (the signed-in user, users as administrators see them, staff
 * users and their practices, the audit log), as zod schemas (see projects/results.ts).
 */
import { z } from 'zod';
import { id, page, ref, timestamp } from '../answers';
import { MODULES } from '../modules';
import { PRACTICE_STATUSES } from '../practices';
import { userSchema } from '../schemas';
import { COMPANY_ROLES } from '../settings';

/** The account's status, as the shared user contract has it. */
const userStatus = userSchema.shape.status;

export const user = z.strictObject({
  id,
  firstName: z.string(),
  lastName: z.string(),
  title: z.string().nullable(),
  email: z.string(),
  login: z.string(),
  avatar: z.string().nullable(),
  status: userStatus,
  primaryPhone: z.string().nullable(),
  isTevora: z.boolean(),
  isAuditor: z.boolean(),
  admin: z.strictObject({ active: z.boolean() }),
  sendDailyEmails: z.boolean(),
  metadata: z.strictObject({ firstLogin: z.boolean(), isFederated: z.boolean(), isLead: z.boolean() }),
  projectRoles: z.array(z.strictObject({ projectId: id, role: z.string() })),
  ldhmac: z.string().regex(/^[0-9a-f]{64}$/, 'an HMAC-SHA-256 in hex'),
});

export const userDetail = z.strictObject({
  id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  title: z.string().nullable(),
  primaryPhone: z.string().nullable(),
  avatar: z.string().nullable(),
  status: userStatus,
  invited: z.boolean(),
  isTevora: z.boolean(),
  isAuditor: z.boolean(),
  isAdmin: z.boolean(),
  isFederated: z.boolean(),
  lastSignInAt: timestamp.nullable(),
  createdAt: timestamp,
  companies: z.array(z.strictObject({ id, name: z.string(), role: z.enum(COMPANY_ROLES), accessRevoked: z.boolean() })),
});

export const userStatusBody = z.strictObject({ status: userStatus, invited: z.boolean(), isFederated: z.boolean() });

export const assignedObject = z.strictObject({
  module: z.enum(MODULES),
  objectId: id,
  name: z.string(),
  companyId: id,
  role: z.string().nullable(),
  removable: z.boolean(),
});
export const assignedObjectList = z.strictObject({ results: z.array(assignedObject) });

export const staffUser = z.strictObject({
  id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  title: z.string().nullable(),
  avatar: z.string().nullable(),
  status: userStatus,
  isAdmin: z.boolean(),
  isAuditor: z.boolean(),
  practices: z.array(ref),
  lastSignInAt: timestamp.nullable(),
});
export const staffUserList = z.strictObject({ results: z.array(staffUser), ...page });

export const practice = z.strictObject({
  id,
  name: z.string(),
  description: z.string(),
  status: z.enum(PRACTICE_STATUSES),
});
export const practiceList = z.strictObject({ results: z.array(practice) });

const recorded = z.unknown().refine((v): boolean => v !== undefined, 'required');
export const auditEntry = z.strictObject({
  id,
  createdAt: timestamp,
  actor: z.strictObject({ id: id.nullable(), email: z.string() }),
  action: z.string().min(1),
  targetType: z.string().min(1),
  targetId: z.string().nullable(),
  targetLabel: z.string(),
  companyId: id.nullable(),
  // whatever JSON the change recorded, null when there is nothing before or after it; never absent
  before: recorded,
  after: recorded,
  requestId: z.string().nullable(),
});
export const auditLog = z.strictObject({ results: z.array(auditEntry), ...page });
