/**
 * The users operations (base /api/v1): the signed-in user's profile and password, users as
 * administrators see them, staff users and their roles, and the audit log, each described once (see
 * ../contract.ts). The rules behind the policies and the errors are in ../settings/index.ts.
 */
import { z } from 'zod';
import { defineOperation } from '../contract';
import { changePasswordSchema } from '../schemas';
import {
  IMAGE_TYPES,
  auditLogQuerySchema,
  objectAccessQuerySchema,
  pagingShape,
  profileUpdateSchema,
  staffAdminRoleSchema,
  staffPracticesSchema,
  userAdminUpdateSchema,
} from '../settings';
import {
  assignedObjectList,
  auditLog,
  practiceList,
  staffUser,
  staffUserList,
  user,
  userDetail,
  userStatusBody,
} from './results';

export const staffQuerySchema = z.object({
  ...pagingShape(50),
  search: z
    .string({ error: 'search must be a text' })
    .trim()
    .max(200, 'search must be at most 200 characters')
    .optional(),
});

export const assignedObjectsQuerySchema = z.object({
  companyId: z
    .string({ error: 'companyId must be a company id' })
    .trim()
    .min(1, 'companyId must be a company id')
    .max(100)
    .optional(),
});

const USER = '/api/v1/users/:id';
const ME = '/api/v1/users/profile/me';
const IMAGE_FILE = 'an image (PNG, JPEG, GIF or WebP), at most 2 MB (IMAGE_MAX_BYTES)';

/** Users of the caller's companies (staff: any user); a staff target needs users.editTevoraAdmins. */
const EDIT_USER = { targetUser: 'company.editUsersAndTeams' } as const;
/** A change to the account itself: every company of the user sees it. */
const EDIT_ACCOUNT = { targetUser: 'company.editUsersAndTeams', account: true } as const;

// ---- The signed-in user

export const getMe = defineOperation({
  method: 'GET',
  url: ME,
  summary: 'Get the signed-in user',
  tag: 'Users',
  policy: 'signedIn',
  responses: { 200: 'the signed-in user with their roles' },
  result: user,
});

/** Not for single sign-on users (403 federated_user). JSON, or multipart with an `avatar` file. */
export const updateProfile = defineOperation({
  method: 'PUT',
  url: ME,
  summary: "Update the signed-in user's profile and avatar",
  tag: 'Users',
  policy: 'signedIn',
  body: profileUpdateSchema,
  form: { fields: profileUpdateSchema, files: { avatar: `the new avatar: ${IMAGE_FILE}` } },
  responses: { 200: 'the updated user' },
  result: user,
});

export const deleteProfileAvatar = defineOperation({
  method: 'DELETE',
  url: `${ME}/avatar`,
  summary: "Remove the signed-in user's avatar",
  tag: 'Users',
  policy: 'signedIn',
  responses: { 200: 'the updated user' },
  result: user,
});

/** Wrong current passwords count as failed sign-ins; every other session of the user ends. */
export const changePassword = defineOperation({
  method: 'POST',
  url: `${ME}/password`,
  summary: "Change the signed-in user's password",
  tag: 'Users',
  policy: 'signedIn',
  body: changePasswordSchema,
  responses: { 204: 'password changed' },
});

/** Not found unless the caller is staff, is the user, or shares a company with them. */
export const getUserAvatar = defineOperation({
  method: 'GET',
  url: `${USER}/avatar`,
  summary: "Get a user's avatar image",
  tag: 'Users',
  policy: 'signedIn',
  responses: { 200: 'the avatar image' },
  produces: IMAGE_TYPES,
});

// ---- Users as administrators see them

export const getUser = defineOperation({
  method: 'GET',
  url: USER,
  summary: 'Get a user as an administrator sees them',
  tag: 'Users',
  policy: EDIT_USER,
  responses: { 200: 'the user' },
  result: userDetail,
});

export const updateUser = defineOperation({
  method: 'PATCH',
  url: USER,
  summary: "Update a user's name, title, phone or status",
  tag: 'Users',
  policy: EDIT_ACCOUNT,
  body: userAdminUpdateSchema,
  responses: { 200: 'the updated user' },
  result: userDetail,
});

export const getUserStatus = defineOperation({
  method: 'GET',
  url: `${USER}/status`,
  summary: "Get a user's sign-in status",
  tag: 'Users',
  policy: EDIT_USER,
  responses: { 200: 'the status, whether invited and whether they sign in with SSO' },
  result: userStatusBody,
});

export const deleteUserAvatar = defineOperation({
  method: 'DELETE',
  url: `${USER}/avatar`,
  summary: "Remove a user's avatar",
  tag: 'Users',
  policy: EDIT_ACCOUNT,
  responses: { 200: 'the updated user' },
  result: userDetail,
});

export const listAssignedObjects = defineOperation({
  method: 'GET',
  url: `${USER}/assigned-objects`,
  summary: 'List the projects, tasks and other objects assigned to a user',
  tag: 'Users',
  policy: EDIT_USER,
  query: assignedObjectsQuerySchema,
  responses: { 200: 'the assigned objects' },
  result: assignedObjectList,
});

/** A lead role is refused (409 lead_user_can_not_be_revoked) until it is reassigned. */
export const removeObjectAccess = defineOperation({
  method: 'DELETE',
  url: `${USER}/object-access/:objectId`,
  summary: "Remove a user's access to an assigned object",
  tag: 'Users',
  policy: EDIT_USER,
  query: objectAccessQuerySchema,
  responses: { 204: 'access removed' },
});

export const sendPasswordReset = defineOperation({
  method: 'POST',
  url: `${USER}/reset-password`,
  summary: 'Send a user a password reset link',
  tag: 'Users',
  policy: EDIT_ACCOUNT,
  responses: { 204: 'link sent' },
});

/** A client admin may not reactivate a user who also belongs to companies they do not administer (403). */
export const unsuspendUser = defineOperation({
  method: 'POST',
  url: `${USER}/unsuspend`,
  summary: 'Reactivate a suspended user',
  tag: 'Users',
  policy: EDIT_ACCOUNT,
  responses: { 204: 'reactivated' },
});

// ---- Staff users

export const listStaff = defineOperation({
  method: 'GET',
  url: '/api/v1/users/staff',
  summary: 'List the staff users and their roles',
  tag: 'Users',
  policy: 'staff',
  query: staffQuerySchema,
  responses: { 200: 'the page of staff users' },
  result: staffUserList,
});

/** Never one's own role, never the last active admin's (400 bad_request). */
export const setStaffRole = defineOperation({
  method: 'PUT',
  url: '/api/v1/users/admin/:id',
  summary: "Set a staff user's role",
  tag: 'Users',
  policy: 'staffAdmin',
  body: staffAdminRoleSchema,
  responses: { 200: 'the updated staff user' },
  result: staffUser,
});

export const listStaffPractices = defineOperation({
  method: 'GET',
  url: `${USER}/practices`,
  summary: "List a staff user's practices",
  tag: 'Users',
  policy: 'staff',
  responses: { 200: 'the practices' },
  result: practiceList,
});

export const setStaffPractices = defineOperation({
  method: 'PUT',
  url: `${USER}/practices`,
  summary: "Set a staff user's practices",
  tag: 'Users',
  policy: { targetUser: 'users.editPractices' },
  body: staffPracticesSchema,
  responses: { 200: 'the practices now' },
  result: practiceList,
});

// ---- Audit log

export const listAuditLog = defineOperation({
  method: 'GET',
  url: '/api/v1/audit-log',
  summary: 'List audit log entries',
  tag: 'Audit log',
  policy: 'staffAdmin',
  query: auditLogQuerySchema,
  responses: { 200: 'the page of audit log entries' },
  result: auditLog,
});
