/**
 * Settings and administration (docs/settings.md): the bodies the api validates and the
 * replies the web reads, one source of truth for both. Framework-free: the api imports it.
 *
 * Calls (base /api/v1) and who may make them (api/src/plugins/policies.ts):
 * - PUT  /users/profile/me                      multipart: profile fields + `avatar` file     signedIn (not federated users)
 * - DELETE /users/profile/me/avatar                                                            signedIn
 * - GET  /users/:id/avatar, /companies/:id/logo the stored image                                visible user / member
 * - POST /companies                             companyCreateSchema                            staffAdmin (company.addCompany)
 * - PATCH /companies/:id                        multipart: `name` + `logo` file                company.editInformation
 * - DELETE /companies/:id/logo                                                                 company.editInformation
 * - PATCH /companies/:id/modules-access         companyModulesAccessSchema                     company.editModulesAccess
 * - GET  /companies/:id/users                   companyUsersQuerySchema -> list of CompanyUser company member
 * - POST /companies/:id/users                   companyUserInviteSchema -> CompanyUser (201)   company.editUsersAndTeams
 * - PATCH /companies/:id/users/:userId/role     companyUserRoleSchema                          company.editUsersAndTeams
 * - DELETE /companies/:id/users/:userId/revoke-access  (POST …/restore-access undoes it)      company.editUsersAndTeams
 * - DELETE /companies/:id/users/:userId         removes the member from the company            company.editUsersAndTeams
 * - GET  /companies/:id/users/:userId/modules-access -> UserModulesAccess                     company.editUsersAndTeams
 * - PATCH /companies/:id/users/:userId/modules-access  moduleAccessPatchSchema               users.editModulesAccess
 * - GET, POST /companies/:id/teams              teamNameSchema -> Team                         member / company.editUsersAndTeams
 * - PATCH, DELETE /companies/:id/teams/:teamId  teamNameSchema                                 company.editUsersAndTeams
 * - PUT, DELETE /companies/:id/teams/:teamId/users/:userId; PUT …/users?userIds[]=…           company.editUsersAndTeams
 * - GET, PUT /companies/:id/teams/:teamId/modules-access  moduleAccessSchema (PUT: all five)   member / company.editModulesAccess
 * - GET  /companies/:id/teams/:teamId/assigned-objects -> AssignedObjectList                  company.editUsersAndTeams
 * - GET  /users/:id -> UserDetail; PATCH /users/:id userAdminUpdateSchema                      targetUser company.editUsersAndTeams
 * - GET  /users/:id/status -> UserStatus; POST /users/:id/unsuspend; POST /users/:id/reset-password
 * - DELETE /users/:id/avatar                                                                   targetUser company.editUsersAndTeams
 * - GET  /users/:id/assigned-objects?companyId= -> AssignedObjectList                         targetUser company.editUsersAndTeams
 * - DELETE /users/:id/object-access/:objectId?module=projects                                 targetUser company.editUsersAndTeams
 * - GET  /users/staff?search&page&pageSize -> list of StaffUser                                staff
 * - PUT  /users/admin/:id                       staffAdminRoleSchema                           staffAdmin (users.editTevoraAdmins)
 * - GET  /practices -> { results: Practice[] }                                                 staff
 * - GET  /users/:id/practices -> { results: Practice[] }; PUT staffPracticesSchema             staff / users.editPractices
 * - GET  /audit-log                             auditLogQuerySchema -> list of AuditEntry      staffAdmin
 * - PATCH /system-settings/:id/files            multipart `files` -> { files: SystemSettingFile[] }  staffAdmin
 * - GET  /system-settings/:id/files/:fileId     the file, as an attachment                     staffAdmin
 * - DELETE /system-settings/:id/files/:fileId                                                  staffAdmin
 *
 * Errors: 400 `validation_failed` with `details: [{ field, message }]` naming each bad field;
 * 409 `email_already_taken` (details field `email`), 409 `team_name_taken` (field `name`),
 * 409 `company_name_taken` (field `name`); 404 `user_not_found`, `company_not_found`, `team_not_found`.
 */
import { z } from 'zod';
import { MODULES, type ModuleName } from '../modules';

export const COMPANY_ROLES = ['admin', 'member'] as const;
export type CompanyRoleName = (typeof COMPANY_ROLES)[number];

/** Images (avatars and logos): checked by their first bytes, not their names. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_RULE = 'must be a PNG, JPEG, GIF or WebP image';
export const IMAGE_SIZE_RULE = 'must be at most 2 MB';

/** The image type of a file from its first bytes (at least 12), or null when it is not one we accept. */
export function sniffImageType(head: Uint8Array): ImageType | null {
  const b = head;
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  ) {
    return 'image/png';
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (
    b.length >= 6 &&
    b[0] === 0x47 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x38 &&
    (b[4] === 0x37 || b[4] === 0x39) &&
    b[5] === 0x61
  ) {
    return 'image/gif';
  }
  if (
    b.length >= 12 &&
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50
  ) {
    return 'image/webp';
  }
  return null;
}

/** No NUL character: PostgreSQL cannot store one in text (and no one types it). */
export const hasNoNul = (value: string): boolean => !value.includes('\u0000');

/** The message for a text holding a NUL character. */
export const nulMessage = (field: string) => `${field} must not contain a NUL character`;

/** A required one-line text: trimmed, not empty, bounded, without NUL characters. */
export function requiredText(field: string, max = 100) {
  return z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`)
    .refine(hasNoNul, nulMessage(field));
}

/** An optional one-line text: empty (or null) clears it to null; absent stays undefined (unchanged). No NUL characters. */
export function optionalText(field: string, max = 100) {
  return z
    .string({ error: `${field} must be a text` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .refine(hasNoNul, nulMessage(field))
    .nullable()
    .optional()
    .transform(clearedOrAbsent);
}

function clearedOrAbsent(v: string | null | undefined): string | null | undefined {
  return v === undefined ? undefined : v || null;
}

export const phoneSchema = z
  .string({ error: 'primaryPhone must be a text' })
  .trim()
  .max(40, 'primaryPhone must be at most 40 characters')
  .regex(/^[+0-9 ().-]*$/, 'primaryPhone may hold only digits, spaces and + ( ) - .')
  .nullable()
  .optional()
  .transform(clearedOrAbsent);

/** Booleans as JSON sends them, or as multipart fields ("true" / "false"). */
export const formBoolean = (field: string) =>
  z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
    error: `${field} must be true or false`,
  });

export const emailSchema = z
  .string({ error: 'email is required' })
  .trim()
  .toLowerCase()
  .min(1, 'email is required')
  .max(320, 'email must be at most 320 characters')
  .email('email is not a valid address');

/**
 * PUT /users/profile/me (multipart fields besides the `avatar` file). Fields the server manages
 * (email, flags, roles, status…) are not in the schema, so they are dropped whatever the caller sends.
 */
export const profileUpdateSchema = z.object({
  firstName: requiredText('firstName'),
  lastName: requiredText('lastName'),
  title: optionalText('title'),
  primaryPhone: phoneSchema,
  sendDailyEmails: formBoolean('sendDailyEmails').optional(),
});
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;
export const PROFILE_FIELDS = ['firstName', 'lastName', 'title', 'primaryPhone', 'sendDailyEmails'] as const;

/** Profile updates drop server-managed fields before sending. */
export function profileEditableFields(
  values: Record<string, unknown>,
): Partial<Record<(typeof PROFILE_FIELDS)[number], unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of PROFILE_FIELDS) if (key in values) out[key] = values[key];
  return out;
}

const moduleBoolean = (m: string) => z.boolean({ error: `${m} must be true or false` });
const moduleNullable = (m: string) => z.boolean({ error: `${m} must be true, false or null` }).nullable();

/** PATCH /companies/:id/modules-access: some modules, each on or off (the company is the ceiling). */
export const companyModulesAccessSchema = z
  .strictObject(
    Object.fromEntries(MODULES.map((m) => [m, moduleBoolean(m).optional()])) as Record<
      ModuleName,
      z.ZodOptional<z.ZodBoolean>
    >,
  )
  .refine((v) => Object.keys(v).length > 0, 'name at least one module');

/** PATCH /companies/:id/users/:userId/modules-access: some modules; null inherits (teams, then company). */
export const moduleAccessPatchSchema = z
  .strictObject(
    Object.fromEntries(MODULES.map((m) => [m, moduleNullable(m).optional()])) as Record<
      ModuleName,
      z.ZodOptional<z.ZodNullable<z.ZodBoolean>>
    >,
  )
  .refine((v) => Object.keys(v).length > 0, 'name at least one module');

/** PUT /companies/:id/teams/:teamId/modules-access: all five modules, null inherits. */
export const moduleAccessPutSchema = z.strictObject(
  Object.fromEntries(MODULES.map((m) => [m, moduleNullable(m)])) as Record<ModuleName, z.ZodNullable<z.ZodBoolean>>,
);

/** POST /companies (company.addCompany). Modules default to all on. */
export const companyCreateSchema = z.object({
  name: requiredText('name', 120),
  modulesAccess: z
    .object(Object.fromEntries(MODULES.map((m) => [m, moduleBoolean(m)])) as Record<ModuleName, z.ZodBoolean>)
    .optional(),
});
export type CompanyCreate = z.input<typeof companyCreateSchema>;

/** PATCH /companies/:id multipart fields besides the `logo` file. */
export const companyUpdateSchema = z.object({ name: requiredText('name', 120).optional() });

/** `page` (from 1) and `pageSize` (1 to 200) of a list query, as numbers from the query string. */
export function pagingShape(defaultPageSize: number) {
  return {
    page: z.coerce
      .number({ error: 'page must be a whole number' })
      .int('page must be a whole number')
      .min(1, 'page must be at least 1')
      .default(1),
    pageSize: z.coerce
      .number({ error: 'pageSize must be a whole number' })
      .int('pageSize must be a whole number')
      .min(1, 'pageSize must be at least 1')
      .max(200, 'pageSize must be at most 200')
      .default(defaultPageSize),
  };
}

export const companyUsersQuerySchema = z.object({
  ...pagingShape(25),
  ignorePagination: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
  role: z.enum(COMPANY_ROLES).optional(),
  status: z.enum(['active', 'suspended', 'invited', 'revoked']).optional(),
  sort: z.enum(['name', '-name', 'email', '-email', 'lastSignInAt', '-lastSignInAt']).default('name'),
});
export type CompanyUsersQuery = z.input<typeof companyUsersQuerySchema>;

/** POST /companies/:id/users: invites a new user (set-password mail, or single sign-on for federated companies). */
export const companyUserInviteSchema = z.object({
  email: emailSchema,
  firstName: requiredText('firstName'),
  lastName: requiredText('lastName'),
  title: optionalText('title'),
  role: z.enum(COMPANY_ROLES, { error: 'role must be admin or member' }).default('member'),
});
export type CompanyUserInvite = z.input<typeof companyUserInviteSchema>;

export const companyUserRoleSchema = z.object({
  role: z.enum(COMPANY_ROLES, { error: 'role must be admin or member' }),
});

export const teamRefSchema = z.object({ id: z.string(), name: z.string() });

/** A member of a company, as the users list shows it. */
export const companyUserSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  title: z.string().nullable(),
  avatar: z.string().nullable(),
  role: z.enum(COMPANY_ROLES),
  /** The account: suspended users cannot sign in anywhere. */
  status: z.enum(['active', 'suspended']),
  /** Invited and has not chosen a password (nor signed in with single sign-on) yet. */
  invited: z.boolean(),
  /** Access to this company revoked: still listed, no longer sees the company. */
  accessRevoked: z.boolean(),
  isFederated: z.boolean(),
  teams: z.array(teamRefSchema),
  lastSignInAt: z.string().nullable(),
  joinedAt: z.string(),
});
export type CompanyUser = z.infer<typeof companyUserSchema>;

/** GET /users/:id: a user and the companies of theirs the caller may see. */
export const userDetailSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  title: z.string().nullable(),
  primaryPhone: z.string().nullable(),
  avatar: z.string().nullable(),
  status: z.enum(['active', 'suspended']),
  invited: z.boolean(),
  isTevora: z.boolean(),
  isAuditor: z.boolean(),
  isAdmin: z.boolean(),
  isFederated: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  companies: z.array(
    z.object({ id: z.string(), name: z.string(), role: z.enum(COMPANY_ROLES), accessRevoked: z.boolean() }),
  ),
});
export type UserDetail = z.infer<typeof userDetailSchema>;

/** PATCH /users/:id (an administrator edits a user): some fields; status suspends or reactivates. */
export const userAdminUpdateSchema = z
  .object({
    firstName: requiredText('firstName').optional(),
    lastName: requiredText('lastName').optional(),
    title: optionalText('title'),
    primaryPhone: phoneSchema,
    status: z.enum(['active', 'suspended'], { error: 'status must be active or suspended' }).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'name at least one field to change');

/** GET /users/:id/status */
export const userStatusSchema = z.object({
  status: z.enum(['active', 'suspended']),
  invited: z.boolean(),
  isFederated: z.boolean(),
});
export type UserStatus = z.infer<typeof userStatusSchema>;

/** GET /companies/:id/users/:userId/modules-access */
export const userModulesAccessSchema = z.object({
  /** The user's own values (null: inherit). */
  modulesAccess: z.object(
    Object.fromEntries(MODULES.map((m) => [m, z.boolean().nullable()])) as Record<
      ModuleName,
      z.ZodNullable<z.ZodBoolean>
    >,
  ),
  /** After the company ceiling and the user's teams. */
  effective: z.object(Object.fromEntries(MODULES.map((m) => [m, z.boolean()])) as Record<ModuleName, z.ZodBoolean>),
  company: z.object(Object.fromEntries(MODULES.map((m) => [m, z.boolean()])) as Record<ModuleName, z.ZodBoolean>),
});
export type UserModulesAccess = z.infer<typeof userModulesAccessSchema>;

export const teamNameSchema = z.object({ name: requiredText('name', 80) });

export const teamMemberSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});
export const teamSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  name: z.string(),
  users: z.array(teamMemberSchema),
  modulesAccess: z.object(
    Object.fromEntries(MODULES.map((m) => [m, z.boolean().nullable()])) as Record<
      ModuleName,
      z.ZodNullable<z.ZodBoolean>
    >,
  ),
  createdAt: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

/** An object (a project now; requests and others later) a user or team has access to. */
export const assignedObjectSchema = z.object({
  module: z.enum(MODULES),
  objectId: z.string(),
  name: z.string(),
  companyId: z.string(),
  /** The user's role on it (project roles), or null. */
  role: z.string().nullable(),
  /** A lead role cannot be removed until it is reassigned (lead_user_can_not_be_revoked). */
  removable: z.boolean(),
});
export type AssignedObject = z.infer<typeof assignedObjectSchema>;
export const assignedObjectListSchema = z.object({ results: z.array(assignedObjectSchema) });

export const objectAccessQuerySchema = z.object({
  module: z.enum(MODULES, { error: `module must be one of ${MODULES.join(', ')}` }),
});

/** GET /users/staff */
export const staffUserSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  title: z.string().nullable(),
  avatar: z.string().nullable(),
  status: z.enum(['active', 'suspended']),
  isAdmin: z.boolean(),
  isAuditor: z.boolean(),
  practices: z.array(z.object({ id: z.string(), name: z.string() })),
  lastSignInAt: z.string().nullable(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

/** PUT /users/admin/:id: a staff user's admin flag. */
export const staffAdminRoleSchema = z.object({
  role: z.enum(['admin', 'staff'], { error: 'role must be admin or staff' }),
});

export const practiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.enum(['active', 'retired']),
});
export type Practice = z.infer<typeof practiceSchema>;

/** PUT /users/:id/practices: the staff user's practices, all at once. */
export const staffPracticesSchema = z.object({
  practiceIds: z
    .array(z.string().min(1, 'practiceIds must hold ids'), { error: 'practiceIds must be a list of practice ids' })
    .max(200),
});

/** GET /audit-log */
export const auditLogQuerySchema = z.object({
  ...pagingShape(50),
  /** Text in the actor's email, the action or the target's label. */
  search: z.string().trim().max(200).optional(),
  action: z.string().trim().max(100).optional(),
  targetType: z.string().trim().max(50).optional(),
  actorId: z.string().trim().max(100).optional(),
  companyId: z.string().trim().max(100).optional(),
  from: z.iso.datetime({ error: 'from must be an ISO date-time', offset: true }).optional(),
  to: z.iso.datetime({ error: 'to must be an ISO date-time', offset: true }).optional(),
});

export const auditEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  actor: z.object({ id: z.string().nullable(), email: z.string() }),
  /** e.g. `company.update`, `user.invite`, `team.member.add`. */
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  targetLabel: z.string(),
  companyId: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  requestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const SYSTEM_SETTING_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const systemSettingFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  createdAt: z.string(),
});
export type SystemSettingFile = z.infer<typeof systemSettingFileSchema>;
