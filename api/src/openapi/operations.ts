/**
 * What each api operation reads and answers, for the OpenAPI document (document.ts): one entry per
 * route the app registers (`METHOD url` as fastify has it), with the zod schemas the handler parses.
 * Path parameters come from the url and error answers from the policy: neither is described here.
 */
import { z } from 'zod';
import {
  documentsQuerySchema,
  fileUpdateSchema,
  filesQuerySchema,
  folderCreateSchema,
  folderUpdateSchema,
  signedUrlQuerySchema,
  taskFileAttachSchema,
  transferFieldsSchema,
  transfersQuerySchema,
  uploadFieldsSchema,
} from '@portal/shared/core/files';
import {
  interviewCancelSchema,
  interviewCreateSchema,
  interviewUpdateSchema,
  interviewsQuerySchema,
} from '@portal/shared/core/interviews';
import {
  applyTemplateSchema,
  practiceCreateSchema,
  practiceUpdateSchema,
  practicesQuerySchema,
  taskTrackerCreateSchema,
  taskTrackerFileQuerySchema,
  taskTrackerUpdateSchema,
} from '@portal/shared/core/practices';
import {
  commentCreateSchema,
  companyTasksQuerySchema,
  controlCreateSchema,
  controlUpdateSchema,
  controlsQuerySchema,
  pointOfFocusSchema,
  pointOfFocusUpdateSchema,
  pointsOfFocusQuerySchema,
  projectCreateSchema,
  projectStatusSchema,
  projectUpdateSchema,
  projectsQuerySchema,
  roleAssignmentQuerySchema,
  roleAssignmentSchema,
  taskCreateSchema,
  taskStatusSchema,
  taskUpdateSchema,
  tasksQuerySchema,
} from '@portal/shared/core/projects';
import { reportExportQuerySchema, reportQuerySchema } from '@portal/shared/core/reports';
import {
  requestBulkSchema,
  requestCommentSchema,
  requestCreateSchema,
  requestFileFormatSchema,
  requestTransitionSchema,
  requestUpdateSchema,
  requestsQuerySchema,
} from '@portal/shared/core/requests';
import {
  PASSWORD_MAX_LENGTH,
  changePasswordSchema,
  featureFlagInputSchema,
  companyDomainInputSchema,
  identityProviderInputSchema,
  passwordPolicySchema,
  portalMessageBodySchema,
  portalMessageDismissSchema,
  signInEmailSchema,
} from '@portal/shared/core/schemas';
import {
  auditLogQuerySchema,
  companyCreateSchema,
  companyModulesAccessSchema,
  companyUpdateSchema,
  companyUserInviteSchema,
  companyUserRoleSchema,
  companyUsersQuerySchema,
  moduleAccessPatchSchema,
  moduleAccessPutSchema,
  objectAccessQuerySchema,
  profileUpdateSchema,
  staffAdminRoleSchema,
  staffPracticesSchema,
  teamNameSchema,
  userAdminUpdateSchema,
} from '@portal/shared/core/settings';
import { companiesQuerySchema } from '../routes/companies';
import { userIdsSchema } from '../routes/companies/teams';
import { listQuerySchema as notificationsQuerySchema } from '../routes/notifications';
import { exportQuerySchema as requestsExportQuerySchema } from '../routes/requests/import-export';
import { listQuerySchema as systemSettingsQuerySchema } from '../routes/system-settings';
import { assignedObjectsQuerySchema, staffQuerySchema } from '../routes/users/admin';
import type { Operation } from './operation';

// ---- ad hoc inputs: handlers that read a query or a form post field by field, mirrored here

/** The sign-in form (identifier first): an email alone, or an email and a password. */
const signInFormSchema = signInEmailSchema.extend({
  password: z
    .string()
    .max(PASSWORD_MAX_LENGTH)
    .optional()
    .describe('empty or absent: the password step (or the identity provider) comes next'),
  step: z.string().optional().describe('`password` when sent from the password step (the password is then required)'),
});

const resetPasswordQuerySchema = z.object({ token: z.string().optional().describe('the token of the reset link') });

const resetPasswordFormSchema = z.object({
  token: z.string().describe('the token of the reset link (or of an expired password)'),
  reason: z.enum(['reset', 'expired']).optional(),
  password: z.string().max(PASSWORD_MAX_LENGTH).describe("the new password, under the user's password policy"),
  confirmPassword: z.string().describe('the same password again'),
});

const samlResponseFormSchema = z.object({
  SAMLResponse: z.string().describe("the identity provider's signed SAML response (base64)"),
  RelayState: z.string().optional().describe('the path on the portal to return to'),
});

/** What GET /files/:id/signed-url signs into the link (lib/signed-urls.ts). */
const signedDownloadQuerySchema = z.object({
  v: z.string().describe('the file version'),
  u: z.string().describe('the user the link was signed for'),
  e: z
    .string()
    .regex(/^\d{1,12}$/)
    .describe('expiry, in seconds since the epoch'),
  s: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .describe('the signature'),
});

/** A report's filters and the spreadsheet format of its export. */
const reportExportQuery = z.object({ ...reportQuerySchema.in.shape, ...reportExportQuerySchema.shape });

// ---- what comes back

const SPREADSHEET = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];
const HTML = ['text/html'];
const IMAGE = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const IMAGE_FILE = 'an image (PNG, JPEG, GIF or WebP), at most 2 MB (IMAGE_MAX_BYTES)';
const TRACKER_FILE = 'a task tracker file (.csv or .xlsx), at most 20 MB (TASK_TRACKER_MAX_BYTES)';

export const OPERATIONS: Record<string, Operation> = {
  // ---- Health
  'GET /api/v1/health': {
    summary: 'Check that the api and its database are up',
    tag: 'Health',
    responses: { 200: 'status ok, the database ok and the api version' },
  },
  'GET /api/v1/portal-config': {
    summary: 'Get the brand name and the api and ui versions',
    tag: 'Health',
    responses: { 200: 'the portal configuration' },
  },

  // ---- Auth (pages under /auth; form posts are application/x-www-form-urlencoded)
  'GET /auth/saml/login': {
    summary: 'Show the sign-in page',
    tag: 'Auth',
    responses: { 200: 'the sign-in page', 303: 'redirect to / when already signed in' },
    produces: HTML,
  },
  'POST /auth/saml/login': {
    summary: 'Sign in with email and password (form post)',
    tag: 'Auth',
    body: signInFormSchema,
    responses: {
      200: 'the password step, or the page to choose a new password when the current one has expired',
      303: "redirect to the company's identity provider, or (signed in) to the remembered return path",
    },
    pageErrors: {
      401: 'the password step again: the email or the password is wrong',
      403: 'the password step again: the account is suspended or not yet active',
      429: 'the password step again: too many failed attempts, wait and try again',
    },
    produces: HTML,
  },
  'GET /auth/saml/logout': {
    summary: 'Ask to sign out: a page with a button that posts the sign-out (a GET signs nobody out)',
    tag: 'Auth',
    responses: { 200: 'the sign-out page' },
    produces: HTML,
  },
  'POST /auth/saml/logout': {
    summary:
      'Sign out (form post with a same-origin Origin or Referer, or the sign-out page token) and go back to the sign-in page',
    tag: 'Auth',
    responses: { 303: 'redirect to the sign-in page' },
    pageErrors: { 200: 'the sign-out page again: the post carried no proof that this portal sent it' },
    produces: HTML,
  },
  'GET /auth/forgot-password': {
    summary: 'Show the forgot-password page',
    tag: 'Auth',
    responses: { 200: 'the forgot-password page' },
    produces: HTML,
  },
  'POST /auth/forgot-password': {
    summary: 'Ask for a password reset link by email (form post)',
    tag: 'Auth',
    body: signInEmailSchema,
    responses: { 200: 'the "check your email" page (the same whether or not the account exists)' },
    pageErrors: { 429: 'the page again: too many reset links asked for, wait and try again' },
    produces: HTML,
  },
  'GET /auth/reset-password': {
    summary: 'Show the page to choose a new password from a reset link',
    tag: 'Auth',
    query: resetPasswordQuerySchema,
    responses: { 200: 'the choose-a-new-password page' },
    pageErrors: { 403: 'the link page: the account is suspended or not yet active' },
    produces: HTML,
  },
  'POST /auth/reset-password': {
    summary: 'Set a new password from a reset link and sign in (form post)',
    tag: 'Auth',
    body: resetPasswordFormSchema,
    responses: { 303: 'signed in: redirect to the remembered return path' },
    pageErrors: { 403: 'the link page: the account is suspended or not yet active' },
  },
  'GET /auth/saml/metadata': {
    summary: "Get the portal's SAML service provider metadata",
    tag: 'Auth',
    responses: { 200: 'the SAML metadata document' },
    produces: ['application/samlmetadata+xml'],
  },
  'POST /auth/saml/acs': {
    summary: "Sign in with the identity provider's SAML response (form post)",
    tag: 'Auth',
    body: samlResponseFormSchema,
    responses: { 303: 'signed in: redirect to the relay state path' },
  },

  // ---- Users
  'GET /api/v1/users/profile/me': {
    summary: 'Get the signed-in user',
    tag: 'Users',
    responses: { 200: 'the signed-in user with their roles' },
  },
  'PUT /api/v1/users/profile/me': {
    summary: "Update the signed-in user's profile and avatar",
    tag: 'Users',
    body: profileUpdateSchema,
    form: { fields: profileUpdateSchema, files: { avatar: `the new avatar: ${IMAGE_FILE}` } },
    responses: { 200: 'the updated user' },
  },
  'DELETE /api/v1/users/profile/me/avatar': {
    summary: "Remove the signed-in user's avatar",
    tag: 'Users',
    responses: { 200: 'the updated user' },
  },
  'POST /api/v1/users/profile/me/password': {
    summary: "Change the signed-in user's password",
    tag: 'Users',
    body: changePasswordSchema,
    responses: { 204: 'password changed' },
  },
  'GET /api/v1/users/:id/avatar': {
    summary: "Get a user's avatar image",
    tag: 'Users',
    responses: { 200: 'the avatar image' },
    produces: IMAGE,
  },
  'GET /api/v1/users/:id': {
    summary: 'Get a user as an administrator sees them',
    tag: 'Users',
    responses: { 200: 'the user' },
  },
  'PATCH /api/v1/users/:id': {
    summary: "Update a user's name, title, phone or status",
    tag: 'Users',
    body: userAdminUpdateSchema,
    responses: { 200: 'the updated user' },
  },
  'GET /api/v1/users/:id/status': {
    summary: "Get a user's sign-in status",
    tag: 'Users',
    responses: { 200: 'the status, whether invited and whether they sign in with SSO' },
  },
  'DELETE /api/v1/users/:id/avatar': {
    summary: "Remove a user's avatar",
    tag: 'Users',
    responses: { 200: 'the updated user' },
  },
  'GET /api/v1/users/:id/assigned-objects': {
    summary: 'List the projects, tasks and other objects assigned to a user',
    tag: 'Users',
    query: assignedObjectsQuerySchema,
    responses: { 200: 'the assigned objects' },
  },
  'DELETE /api/v1/users/:id/object-access/:objectId': {
    summary: "Remove a user's access to an assigned object",
    tag: 'Users',
    query: objectAccessQuerySchema,
    responses: { 204: 'access removed' },
  },
  'GET /api/v1/users/staff': {
    summary: 'List the staff users and their roles',
    tag: 'Users',
    query: staffQuerySchema,
    responses: { 200: 'the page of staff users' },
  },
  'PUT /api/v1/users/admin/:id': {
    summary: "Set a staff user's role",
    tag: 'Users',
    body: staffAdminRoleSchema,
    responses: { 200: 'the updated staff user' },
  },
  'GET /api/v1/users/:id/practices': {
    summary: "List a staff user's practices",
    tag: 'Users',
    responses: { 200: 'the practices' },
  },
  'PUT /api/v1/users/:id/practices': {
    summary: "Set a staff user's practices",
    tag: 'Users',
    body: staffPracticesSchema,
    responses: { 200: 'the practices now' },
  },
  'POST /api/v1/users/:id/reset-password': {
    summary: 'Send a user a password reset link',
    tag: 'Users',
    responses: { 204: 'link sent' },
  },
  'POST /api/v1/users/:id/unsuspend': {
    summary: 'Reactivate a suspended user',
    tag: 'Users',
    responses: { 204: 'reactivated' },
  },
  'GET /api/v1/users/:id/get-projects': {
    summary: 'List the projects of a user the caller may see',
    tag: 'Users',
    responses: { 200: "the user's projects" },
  },

  // ---- Companies
  'GET /api/v1/companies': {
    summary: "List the caller's companies",
    tag: 'Companies',
    query: companiesQuerySchema,
    responses: { 200: 'the page of companies' },
  },
  'POST /api/v1/companies': {
    summary: 'Add a company',
    tag: 'Companies',
    body: companyCreateSchema,
    responses: { 201: 'the created company' },
  },
  'GET /api/v1/companies/:id': { summary: 'Get a company', tag: 'Companies', responses: { 200: 'the company' } },
  'PATCH /api/v1/companies/:id': {
    summary: "Update a company's name and logo",
    tag: 'Companies',
    body: companyUpdateSchema,
    form: { fields: companyUpdateSchema, files: { logo: `the new logo: ${IMAGE_FILE}` } },
    responses: { 200: 'the updated company' },
  },
  'GET /api/v1/companies/:id/logo': {
    summary: "Get a company's logo image",
    tag: 'Companies',
    responses: { 200: 'the logo image' },
    produces: IMAGE,
  },
  'DELETE /api/v1/companies/:id/logo': {
    summary: "Remove a company's logo",
    tag: 'Companies',
    responses: { 204: 'removed' },
  },
  'GET /api/v1/companies/:id/access-permissions': {
    summary: "Get the caller's permissions in a company",
    tag: 'Companies',
    responses: { 200: 'the permissions the caller holds in the company' },
  },
  'PATCH /api/v1/companies/:id/modules-access': {
    summary: 'Turn modules on or off for a company',
    tag: 'Companies',
    body: companyModulesAccessSchema,
    responses: { 200: 'the updated company' },
  },
  'GET /api/v1/companies/:id/password-policy': {
    summary: "Get a company's password policy",
    tag: 'Companies',
    responses: { 200: 'the password policy' },
  },
  'POST /api/v1/companies/:id/password-policy': {
    summary: "Set a company's password policy",
    tag: 'Companies',
    body: passwordPolicySchema,
    responses: { 200: 'the saved password policy' },
  },
  'GET /api/v1/companies/:id/identity-provider': {
    summary: "Get a company's SAML identity provider settings",
    tag: 'Companies',
    responses: { 200: 'the identity provider settings (or none) and the service provider details' },
  },
  'PUT /api/v1/companies/:id/identity-provider': {
    summary: "Set a company's SAML identity provider",
    tag: 'Companies',
    body: identityProviderInputSchema,
    responses: { 200: 'the saved identity provider settings' },
  },
  'DELETE /api/v1/companies/:id/identity-provider': {
    summary: "Remove a company's SAML identity provider",
    tag: 'Companies',
    responses: { 204: 'removed' },
  },
  'POST /api/v1/companies/:id/domains': {
    summary: "Claim an email domain for the company's single sign-on",
    tag: 'Companies',
    body: companyDomainInputSchema,
    responses: { 201: 'the domain, pending verification, with the DNS TXT record that verifies it' },
    errors: { 409: 'domain_taken: the company lists it already, or another company has verified it' },
  },
  'POST /api/v1/companies/:id/domains/:domainId/verify': {
    summary: "Verify a company's email domain by its DNS TXT record",
    tag: 'Companies',
    responses: { 200: 'the verified domain' },
    errors: {
      400: 'domain_not_verified: the TXT record was not found',
      404: 'domain_not_found',
      409: 'domain_taken: another company has verified it',
    },
  },
  'POST /api/v1/companies/:id/domains/:domainId/confirm': {
    summary: "Confirm a company's email domain without DNS (staff admins)",
    tag: 'Companies',
    responses: { 200: 'the verified domain' },
    errors: { 404: 'domain_not_found', 409: 'domain_taken: another company has verified it' },
  },
  'DELETE /api/v1/companies/:id/domains/:domainId': {
    summary: "Remove an email domain from a company's single sign-on",
    tag: 'Companies',
    responses: { 204: 'removed: its users sign in with a password again' },
    errors: { 404: 'domain_not_found' },
  },
  'GET /api/v1/companies/:id/users': {
    summary: "List a company's users",
    tag: 'Companies',
    query: companyUsersQuerySchema,
    responses: { 200: 'the page of company users' },
  },
  'POST /api/v1/companies/:id/users': {
    summary: 'Invite a user to a company',
    tag: 'Companies',
    body: companyUserInviteSchema,
    responses: { 201: 'the invited company user' },
  },
  'PATCH /api/v1/companies/:id/users/:userId/role': {
    summary: "Change a company user's role",
    tag: 'Companies',
    body: companyUserRoleSchema,
    responses: { 200: 'the updated company user' },
  },
  'DELETE /api/v1/companies/:id/users/:userId/revoke-access': {
    summary: "Revoke a user's access to a company (they stay listed)",
    tag: 'Companies',
    responses: { 200: 'the updated company user' },
  },
  'POST /api/v1/companies/:id/users/:userId/restore-access': {
    summary: "Restore a user's access to a company",
    tag: 'Companies',
    responses: { 200: 'the updated company user' },
  },
  'DELETE /api/v1/companies/:id/users/:userId': {
    summary: 'Remove a user from a company with their teams and project roles in it',
    tag: 'Companies',
    responses: { 204: 'removed' },
  },
  'GET /api/v1/companies/:id/users/:userId/modules-access': {
    summary: "Get a company user's module access",
    tag: 'Companies',
    responses: { 200: "the user's module access" },
  },
  'PATCH /api/v1/companies/:id/users/:userId/modules-access': {
    summary: "Change a company user's module access",
    tag: 'Companies',
    body: moduleAccessPatchSchema,
    responses: { 200: "the user's module access now" },
  },

  // ---- Teams
  'GET /api/v1/companies/:id/teams': {
    summary: "List a company's teams",
    tag: 'Teams',
    responses: { 200: 'the teams' },
  },
  'POST /api/v1/companies/:id/teams': {
    summary: 'Create a team',
    tag: 'Teams',
    body: teamNameSchema,
    responses: { 201: 'the created team' },
  },
  'PATCH /api/v1/companies/:id/teams/:teamId': {
    summary: 'Rename a team',
    tag: 'Teams',
    body: teamNameSchema,
    responses: { 200: 'the updated team' },
  },
  'DELETE /api/v1/companies/:id/teams/:teamId': {
    summary: 'Delete a team',
    tag: 'Teams',
    responses: { 204: 'deleted' },
  },
  'PUT /api/v1/companies/:id/teams/:teamId/users/:userId': {
    summary: 'Add a user to a team',
    tag: 'Teams',
    responses: { 204: 'added' },
  },
  'PUT /api/v1/companies/:id/teams/:teamId/users': {
    summary: 'Add several users to a team (`userIds` or `userIds[]`, repeated)',
    tag: 'Teams',
    query: userIdsSchema,
    responses: { 204: 'added' },
  },
  'DELETE /api/v1/companies/:id/teams/:teamId/users/:userId': {
    summary: 'Remove a user from a team',
    tag: 'Teams',
    responses: { 204: 'removed' },
  },
  'GET /api/v1/companies/:id/teams/:teamId/modules-access': {
    summary: "Get a team's module access",
    tag: 'Teams',
    responses: { 200: "the team's module access" },
  },
  'PUT /api/v1/companies/:id/teams/:teamId/modules-access': {
    summary: "Set a team's module access",
    tag: 'Teams',
    body: moduleAccessPutSchema,
    responses: { 200: "the team's module access now" },
  },
  'GET /api/v1/companies/:id/teams/:teamId/assigned-objects': {
    summary: 'List the objects assigned to a team',
    tag: 'Teams',
    responses: { 200: 'the assigned objects' },
  },

  // ---- Feature flags
  'GET /api/v1/feature-flags': {
    summary: 'Get the feature flags evaluated for the caller',
    tag: 'Feature flags',
    responses: { 200: 'the evaluated flags and their version' },
  },
  'GET /api/v1/feature-flags/stream': {
    summary: 'Follow changes of the evaluated feature flags (server-sent events)',
    tag: 'Feature flags',
    responses: { 200: 'an event stream of the evaluated flags' },
    produces: ['text/event-stream'],
  },
  'GET /api/v1/feature-flags/definitions': {
    summary: 'List the feature flag definitions',
    tag: 'Feature flags',
    responses: { 200: 'the flag definitions' },
  },
  'PUT /api/v1/feature-flags/:key': {
    summary: 'Create or update a feature flag',
    tag: 'Feature flags',
    body: featureFlagInputSchema,
    responses: { 200: 'the updated flag definition', 201: 'the created flag definition' },
  },
  'DELETE /api/v1/feature-flags/:key': {
    summary: 'Delete a feature flag',
    tag: 'Feature flags',
    responses: { 204: 'deleted' },
  },

  // ---- System settings (portal messages)
  'GET /api/v1/system-settings': {
    summary: 'List the portal messages (banner, help, bell) for the caller',
    tag: 'System settings',
    query: systemSettingsQuerySchema,
    responses: { 200: 'the portal messages, with whether the caller dismissed each' },
  },
  'POST /api/v1/system-settings': {
    summary: 'Create a portal message',
    tag: 'System settings',
    body: portalMessageBodySchema,
    responses: { 201: 'the created message' },
  },
  'POST /api/v1/system-settings/': {
    summary: 'Create a portal message (trailing-slash spelling)',
    tag: 'System settings',
    body: portalMessageBodySchema,
    responses: { 201: 'the created message' },
  },
  'PUT /api/v1/system-settings/:id': {
    summary: 'Update a portal message',
    tag: 'System settings',
    body: portalMessageBodySchema,
    responses: { 200: 'the updated message' },
  },
  'DELETE /api/v1/system-settings/:id': {
    summary: 'Delete a portal message',
    tag: 'System settings',
    responses: { 204: 'deleted' },
  },
  'POST /api/v1/system-settings/:id/dismiss': {
    summary: 'Dismiss a portal message for the caller',
    tag: 'System settings',
    body: portalMessageDismissSchema,
    responses: { 204: 'dismissed' },
  },
  'GET /api/v1/system-settings/:id/files': {
    summary: "List a portal message's files",
    tag: 'System settings',
    responses: { 200: 'the files' },
  },
  'PATCH /api/v1/system-settings/:id/files': {
    summary: 'Add files to a portal message',
    tag: 'System settings',
    form: {
      files: {
        files:
          'the files to add, at most 10 (SYSTEM_SETTING_MAX_FILES), each at most 10 MB (SYSTEM_SETTING_FILE_MAX_BYTES) and UPLOAD_MAX_BYTES',
      },
    },
    responses: { 200: "the message's files now" },
  },
  'DELETE /api/v1/system-settings/:id/files/:fileId': {
    summary: "Delete a portal message's file",
    tag: 'System settings',
    responses: { 204: 'deleted' },
  },

  // ---- Notifications
  'GET /api/v1/notifications': {
    summary: "List the caller's notifications",
    tag: 'Notifications',
    query: notificationsQuerySchema,
    responses: { 200: 'the page of notifications and the unread count' },
  },
  'POST /api/v1/notifications/read-all': {
    summary: "Mark all the caller's notifications read",
    tag: 'Notifications',
    responses: { 200: 'the unread count' },
  },
  'POST /api/v1/notifications/:id/read': {
    summary: 'Mark a notification read',
    tag: 'Notifications',
    responses: { 200: 'the unread count' },
  },
  'GET /api/v1/notifications/stream': {
    summary: 'Follow the unread notification count (server-sent events)',
    tag: 'Notifications',
    responses: { 200: 'an event stream of `unread` events' },
    produces: ['text/event-stream'],
  },

  // ---- Audit log
  'GET /api/v1/audit-log': {
    summary: 'List audit log entries',
    tag: 'Audit log',
    query: auditLogQuerySchema,
    responses: { 200: 'the page of audit log entries' },
  },

  // ---- Projects
  'GET /api/v1/companies/:id/projects': {
    summary: "List a company's projects",
    tag: 'Projects',
    query: projectsQuerySchema,
    responses: { 200: 'the page of projects' },
  },
  'GET /api/v1/companies/:id/projects/summary': {
    summary: "Count a company's projects by status",
    tag: 'Projects',
    responses: { 200: 'the projects summary' },
  },
  'POST /api/v1/companies/:id/projects': {
    summary: 'Create a project',
    tag: 'Projects',
    body: projectCreateSchema,
    responses: { 201: 'the created project' },
  },
  'GET /api/v1/projects/:id': { summary: 'Get a project', tag: 'Projects', responses: { 200: 'the project' } },
  'PATCH /api/v1/projects/:id': {
    summary: 'Update a project',
    tag: 'Projects',
    body: projectUpdateSchema,
    responses: { 200: 'the updated project' },
  },
  'POST /api/v1/projects/:id/status': {
    summary: "Change a project's status",
    tag: 'Projects',
    body: projectStatusSchema,
    responses: { 200: 'the updated project' },
  },
  'GET /api/v1/projects/:id/users': {
    summary: "List a project's roster",
    tag: 'Projects',
    responses: { 200: 'the project members and their roles' },
  },
  'GET /api/v1/projects/:id/assignable-users': {
    summary: 'List the users the caller may put on the roster, with the roles they may be given',
    tag: 'Projects',
    responses: { 200: 'the candidates and their givable roles' },
  },
  'GET /api/v1/projects/roles/:userId/assignments': {
    summary: "Get a user's role on a project",
    tag: 'Projects',
    query: roleAssignmentQuerySchema,
    responses: { 200: 'the role assignment' },
    errors: { 403: "module_access_denied: the projects module is off for the caller in the project's company" },
  },
  'PATCH /api/v1/projects/roles/:userId/assignments': {
    summary: "Set or remove a user's role on a project",
    tag: 'Projects',
    body: roleAssignmentSchema,
    responses: { 200: 'the role assignment now' },
  },
  'GET /api/v1/projects/:id/task-trackers': {
    summary: "List the task trackers that may be applied to a project (its practice's)",
    tag: 'Projects',
    responses: { 200: 'the applicable task trackers' },
  },
  'POST /api/v1/projects/:id/task-trackers/apply': {
    summary: "Copy task trackers' tasks and controls into a project",
    tag: 'Projects',
    body: applyTemplateSchema,
    responses: { 200: 'the counts of what was copied' },
  },

  // ---- Tasks
  'GET /api/v1/projects/:id/assignees': {
    summary: 'List the users a task of the project may be assigned to',
    tag: 'Tasks',
    responses: { 200: 'the assignable users' },
  },
  'GET /api/v1/projects/:id/task-assignees': {
    summary: "List the users assigned to a project's tasks",
    tag: 'Tasks',
    responses: { 200: 'the assignees in use' },
  },
  'GET /api/v1/projects/:id/tasks': {
    summary: "List a project's tasks",
    tag: 'Tasks',
    query: tasksQuerySchema,
    responses: { 200: 'the page of tasks' },
  },
  'GET /api/v1/companies/:id/tasks': {
    summary: "List the tasks of a company's projects",
    tag: 'Tasks',
    query: companyTasksQuerySchema,
    responses: { 200: 'the page of tasks' },
  },
  'POST /api/v1/projects/:id/tasks': {
    summary: 'Create a task',
    tag: 'Tasks',
    body: taskCreateSchema,
    responses: { 201: 'the created task' },
  },
  'GET /api/v1/projects/:id/tasks/:taskId': {
    summary: 'Get a task',
    tag: 'Tasks',
    responses: { 200: "the task with the caller's permissions on it" },
  },
  'PATCH /api/v1/projects/:id/tasks/:taskId': {
    summary: 'Update a task',
    tag: 'Tasks',
    body: taskUpdateSchema,
    responses: { 200: 'the updated task' },
  },
  'DELETE /api/v1/projects/:id/tasks/:taskId': {
    summary: 'Delete a task',
    tag: 'Tasks',
    responses: { 204: 'deleted' },
  },
  'POST /api/v1/projects/:id/tasks/:taskId/status': {
    summary: "Change a task's status",
    tag: 'Tasks',
    body: taskStatusSchema,
    responses: { 200: 'the updated task' },
  },
  'GET /api/v1/projects/:id/tasks/:taskId/comments': {
    summary: "List a task's comments",
    tag: 'Tasks',
    responses: { 200: 'the comments' },
  },
  'POST /api/v1/projects/:id/tasks/:taskId/comments': {
    summary: 'Comment on a task',
    tag: 'Tasks',
    body: commentCreateSchema,
    responses: { 201: 'the created comment' },
  },
  'POST /api/v1/projects/:id/tasks/import': {
    summary: 'Import tasks and controls into a project from a task tracker file',
    tag: 'Tasks',
    form: { files: { file: TRACKER_FILE } },
    responses: { 201: 'the counts of what was imported' },
  },

  // ---- Controls
  'GET /api/v1/projects/:id/controls': {
    summary: "List a project's controls",
    tag: 'Controls',
    query: controlsQuerySchema,
    responses: { 200: 'the page of controls' },
  },
  'POST /api/v1/projects/:id/controls': {
    summary: 'Create a control',
    tag: 'Controls',
    body: controlCreateSchema,
    responses: { 201: 'the created control' },
  },
  'GET /api/v1/projects/:id/controls/:controlId': {
    summary: 'Get a control',
    tag: 'Controls',
    responses: { 200: 'the control' },
  },
  'PATCH /api/v1/projects/:id/controls/:controlId': {
    summary: 'Update a control',
    tag: 'Controls',
    body: controlUpdateSchema,
    responses: { 200: 'the updated control' },
  },
  'DELETE /api/v1/projects/:id/controls/:controlId': {
    summary: 'Delete a control',
    tag: 'Controls',
    responses: { 204: 'deleted' },
  },
  'PUT /api/v1/projects/:id/controls/:controlId/tasks/:taskId': {
    summary: 'Link a task to a control',
    tag: 'Controls',
    responses: { 204: 'linked' },
  },
  'DELETE /api/v1/projects/:id/controls/:controlId/tasks/:taskId': {
    summary: 'Unlink a task from a control',
    tag: 'Controls',
    responses: { 204: 'unlinked' },
  },
  'GET /api/v1/projects/:id/points-of-focus': {
    summary: "List a project's points of focus",
    tag: 'Controls',
    query: pointsOfFocusQuerySchema,
    responses: { 200: 'the page of points of focus' },
  },
  'POST /api/v1/projects/:id/controls/:controlId/points-of-focus': {
    summary: 'Add a point of focus to a control',
    tag: 'Controls',
    body: pointOfFocusSchema,
    responses: { 201: 'the created point of focus' },
  },
  'PATCH /api/v1/projects/:id/points-of-focus/:pointId': {
    summary: 'Update a point of focus',
    tag: 'Controls',
    body: pointOfFocusUpdateSchema,
    responses: { 200: 'the updated point of focus' },
  },
  'DELETE /api/v1/projects/:id/points-of-focus/:pointId': {
    summary: 'Delete a point of focus',
    tag: 'Controls',
    responses: { 204: 'deleted' },
  },

  // ---- Files
  'GET /api/v1/projects/:id/files': {
    summary: "List a project's files",
    tag: 'Files',
    query: filesQuerySchema,
    responses: { 200: 'the page of files' },
  },
  'POST /api/v1/projects/:id/files': {
    summary: 'Upload a file to a project',
    tag: 'Files',
    form: { fields: uploadFieldsSchema, files: { file: 'the file to store, at most UPLOAD_MAX_BYTES' } },
    responses: { 201: 'the stored file' },
  },
  'GET /api/v1/projects/:id/files/:fileId': {
    summary: 'Get a project file with its versions',
    tag: 'Files',
    responses: { 200: 'the file' },
  },
  'PATCH /api/v1/projects/:id/files/:fileId': {
    summary: 'Rename or move a project file',
    tag: 'Files',
    body: fileUpdateSchema,
    responses: { 200: 'the updated file' },
  },
  'DELETE /api/v1/projects/:id/files/:fileId': {
    summary: 'Delete a project file',
    tag: 'Files',
    responses: { 204: 'deleted' },
  },
  'GET /api/v1/projects/:id/tasks/:taskId/files': {
    summary: 'List the files attached to a task',
    tag: 'Files',
    responses: { 200: 'the attached files' },
  },
  'POST /api/v1/projects/:id/tasks/:taskId/files': {
    summary: 'Attach a project file to a task',
    tag: 'Files',
    body: taskFileAttachSchema,
    responses: { 201: 'the attached file' },
  },
  'DELETE /api/v1/projects/:id/tasks/:taskId/files/:fileId': {
    summary: 'Detach a file from a task',
    tag: 'Files',
    responses: { 204: 'detached' },
  },
  'GET /api/v1/projects/:id/folders': {
    summary: "List a project's folders",
    tag: 'Files',
    responses: { 200: 'the folders' },
  },
  'POST /api/v1/projects/:id/folders': {
    summary: 'Create a folder',
    tag: 'Files',
    body: folderCreateSchema,
    responses: { 201: 'the created folder' },
  },
  'PATCH /api/v1/projects/:id/folders/:folderId': {
    summary: 'Rename or move a folder',
    tag: 'Files',
    body: folderUpdateSchema,
    responses: { 200: 'the updated folder' },
  },
  'DELETE /api/v1/projects/:id/folders/:folderId': {
    summary: 'Delete a folder with its files',
    tag: 'Files',
    responses: { 204: 'deleted' },
  },
  'GET /api/v1/companies/:id/files': {
    summary: "List the files of a company's projects",
    tag: 'Files',
    query: documentsQuerySchema,
    responses: { 200: 'the page of documents' },
  },
  'GET /api/v1/files/:id/signed-url': {
    summary: 'Get a short-lived download link for a file',
    tag: 'Files',
    query: signedUrlQuerySchema,
    responses: { 200: 'the signed url and its expiry' },
  },
  'GET /api/v1/files/:id/content': {
    summary: 'Download a file through a signed link',
    tag: 'Files',
    query: signedDownloadQuerySchema,
    responses: { 200: "the file's bytes, as an attachment" },
    errors: {
      403: 'signed_url_invalid or signed_url_expired: the link was altered, signed for another user, or has expired',
    },
    produces: ['application/octet-stream'],
  },

  // ---- Transfers
  'GET /api/v1/companies/:id/transfer-recipients': {
    summary: 'List the users a transfer may be sent to',
    tag: 'Transfers',
    responses: { 200: 'the recipients' },
  },
  'GET /api/v1/companies/:id/transfers': {
    summary: 'List sent or received transfers',
    tag: 'Transfers',
    query: transfersQuerySchema,
    responses: { 200: 'the page of transfers' },
  },
  'POST /api/v1/companies/:id/transfers': {
    summary: 'Send files to users in a secure transfer',
    tag: 'Transfers',
    form: {
      fields: transferFieldsSchema,
      files: { files: 'the files to send, at most 10 (TRANSFER_MAX_FILES), each at most UPLOAD_MAX_BYTES' },
    },
    responses: { 201: 'the created transfer' },
  },
  'GET /api/v1/transfers/:id': {
    summary: 'Get a transfer',
    tag: 'Transfers',
    responses: { 200: 'the transfer with its files' },
  },
  'DELETE /api/v1/transfers/:id': { summary: 'Delete a transfer', tag: 'Transfers', responses: { 204: 'deleted' } },

  // ---- Practices and task trackers
  'GET /api/v1/practices': {
    summary: 'List the practices',
    tag: 'Practices',
    query: practicesQuerySchema,
    responses: { 200: 'the practices' },
  },
  'POST /api/v1/practices': {
    summary: 'Create a practice',
    tag: 'Practices',
    body: practiceCreateSchema,
    responses: { 201: 'the created practice' },
  },
  'GET /api/v1/practices/:id': { summary: 'Get a practice', tag: 'Practices', responses: { 200: 'the practice' } },
  'PATCH /api/v1/practices/:id': {
    summary: 'Update a practice',
    tag: 'Practices',
    body: practiceUpdateSchema,
    responses: { 200: 'the updated practice' },
  },
  'GET /api/v1/practices/:id/task-trackers': {
    summary: "List a practice's task trackers",
    tag: 'Practices',
    responses: { 200: 'the task trackers' },
  },
  'POST /api/v1/practices/:id/task-trackers': {
    summary: 'Create an empty task tracker in a practice',
    tag: 'Practices',
    body: taskTrackerCreateSchema,
    responses: { 201: 'the created task tracker' },
  },
  'POST /api/v1/practices/:id/task-trackers/import': {
    summary: 'Create a task tracker in a practice from a file',
    tag: 'Practices',
    form: { fields: taskTrackerCreateSchema, files: { file: TRACKER_FILE } },
    responses: { 201: 'the created task tracker and the counts of what was imported' },
  },
  'GET /api/v1/task-trackers/file-template': {
    summary: 'Download an empty task tracker file',
    tag: 'Practices',
    query: taskTrackerFileQuerySchema,
    responses: { 200: 'the template file' },
    produces: SPREADSHEET,
  },
  'GET /api/v1/task-trackers/:trackerId': {
    summary: 'Get a task tracker with its tasks and controls',
    tag: 'Practices',
    responses: { 200: 'the task tracker' },
  },
  'PATCH /api/v1/task-trackers/:trackerId': {
    summary: 'Update or publish a task tracker',
    tag: 'Practices',
    body: taskTrackerUpdateSchema,
    responses: { 200: 'the updated task tracker' },
  },
  'DELETE /api/v1/task-trackers/:trackerId': {
    summary: 'Delete a task tracker',
    tag: 'Practices',
    responses: { 204: 'deleted' },
  },
  'PUT /api/v1/task-trackers/:trackerId/import': {
    summary: "Replace a draft task tracker's content from a file",
    tag: 'Practices',
    form: { files: { file: TRACKER_FILE } },
    responses: { 200: 'the task tracker and the counts of what was imported' },
  },
  'GET /api/v1/task-trackers/:trackerId/export': {
    summary: 'Download a task tracker as a file',
    tag: 'Practices',
    query: taskTrackerFileQuerySchema,
    responses: { 200: 'the task tracker file' },
    produces: SPREADSHEET,
  },

  // ---- Interviews
  'GET /api/v1/projects/:id/interviews': {
    summary: "List a project's interviews",
    tag: 'Interviews',
    query: interviewsQuerySchema,
    responses: { 200: 'the page of interviews' },
  },
  'GET /api/v1/projects/:id/interview-people': {
    summary: 'List the people an interview may invite',
    tag: 'Interviews',
    responses: { 200: 'the candidates of the interview form' },
  },
  'GET /api/v1/projects/:id/interviews/:interviewId': {
    summary: 'Get an interview',
    tag: 'Interviews',
    responses: { 200: 'the interview' },
  },
  'GET /api/v1/projects/:id/interviews/:interviewId/calendar.ics': {
    summary: 'Download an interview as a calendar event',
    tag: 'Interviews',
    responses: { 200: 'the iCalendar file' },
    produces: ['text/calendar'],
  },
  'POST /api/v1/projects/:id/interviews': {
    summary: 'Schedule an interview and invite its people',
    tag: 'Interviews',
    body: interviewCreateSchema,
    responses: { 201: 'the created interview and the invitations sent' },
  },
  'PATCH /api/v1/projects/:id/interviews/:interviewId': {
    summary: 'Reschedule an interview or change its people',
    tag: 'Interviews',
    body: interviewUpdateSchema,
    responses: { 200: 'the updated interview' },
  },
  'POST /api/v1/projects/:id/interviews/:interviewId/cancel': {
    summary: 'Cancel an interview',
    tag: 'Interviews',
    body: interviewCancelSchema,
    responses: { 200: 'the canceled interview' },
  },

  // ---- Requests
  'GET /api/v1/companies/:id/requests': {
    summary: "List a company's evidence requests",
    tag: 'Requests',
    query: requestsQuerySchema,
    responses: { 200: 'the page of requests' },
  },
  'POST /api/v1/companies/:id/requests': {
    summary: 'Create an evidence request',
    tag: 'Requests',
    body: requestCreateSchema,
    responses: { 201: 'the created request' },
  },
  'GET /api/v1/companies/:id/requests/assignees': {
    summary: 'List the users and teams a request may be assigned to',
    tag: 'Requests',
    responses: { 200: 'the assignee options' },
  },
  'POST /api/v1/companies/:id/requests/bulk': {
    summary: 'Assign, set the due date of, or change the status of several requests at once',
    tag: 'Requests',
    body: requestBulkSchema,
    responses: { 200: 'the number of requests updated' },
  },
  'POST /api/v1/companies/:id/requests/import': {
    summary: 'Import requests from a file (all or nothing)',
    tag: 'Requests',
    form: { files: { file: 'a requests file (.csv or .xlsx), at most 20 MB (TASK_TRACKER_MAX_BYTES)' } },
    responses: { 201: 'the counts and references of the created requests' },
  },
  'GET /api/v1/companies/:id/requests/export': {
    summary: 'Download the filtered requests as a file',
    tag: 'Requests',
    query: requestsExportQuerySchema,
    responses: { 200: 'the requests file' },
    produces: SPREADSHEET,
  },
  'GET /api/v1/companies/:id/requests/file-template': {
    summary: 'Download an empty requests file',
    tag: 'Requests',
    query: requestFileFormatSchema,
    responses: { 200: 'the template file' },
    produces: SPREADSHEET,
  },
  'GET /api/v1/requests/:id': {
    summary: 'Get an evidence request',
    tag: 'Requests',
    responses: { 200: 'the request' },
  },
  'PATCH /api/v1/requests/:id': {
    summary: 'Update an evidence request',
    tag: 'Requests',
    body: requestUpdateSchema,
    responses: { 200: 'the updated request' },
  },
  'POST /api/v1/requests/:id/transitions': {
    summary: 'Move a request to another status',
    tag: 'Requests',
    body: requestTransitionSchema,
    responses: { 200: 'the updated request' },
  },
  'GET /api/v1/requests/:id/history': {
    summary: "List a request's history",
    tag: 'Requests',
    responses: { 200: 'the history events' },
  },
  'GET /api/v1/requests/:id/comments': {
    summary: "List a request's comments",
    tag: 'Requests',
    responses: { 200: 'the comments' },
  },
  'POST /api/v1/requests/:id/comments': {
    summary: 'Comment on a request',
    tag: 'Requests',
    body: requestCommentSchema,
    responses: { 201: 'the created comment' },
  },
  'POST /api/v1/requests/:id/files': {
    summary: 'Add evidence files to a request',
    tag: 'Requests',
    form: {
      files: { files: 'the evidence files, at most 20 (REQUEST_UPLOAD_MAX_FILES), each at most UPLOAD_MAX_BYTES' },
    },
    responses: { 201: 'the added files' },
  },
  'DELETE /api/v1/requests/:id/files/:fileId': {
    summary: 'Remove an evidence file from a request',
    tag: 'Requests',
    responses: { 204: 'removed' },
  },

  // ---- Reports
  'GET /api/v1/companies/:id/reports/options': {
    summary: 'List the reports the caller may see and the projects to filter them by',
    tag: 'Reports',
    responses: { 200: 'the report kinds and projects' },
  },
  'GET /api/v1/companies/:id/reports/pdf': {
    summary: 'Download every report the caller may see as one PDF',
    tag: 'Reports',
    query: reportQuerySchema,
    responses: { 200: 'the PDF' },
    produces: ['application/pdf'],
  },
  'GET /api/v1/companies/:id/reports/:kind': {
    summary: 'Get a report (status, requests, controls or workload)',
    tag: 'Reports',
    query: reportQuerySchema,
    responses: { 200: 'the report' },
  },
  'GET /api/v1/companies/:id/reports/:kind/export': {
    summary: 'Download a report as a spreadsheet',
    tag: 'Reports',
    query: reportExportQuery,
    responses: { 200: 'the report file' },
    produces: SPREADSHEET,
  },
};
