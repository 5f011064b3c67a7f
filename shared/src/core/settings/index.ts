/**
 * Settings and administration (docs/settings.md): the bodies the api validates and the
 * replies the web reads, one source of truth for both. Framework-free: the api imports it.
 *
 * The operations, and who may call each, are described once in each area's `api.ts` (users, staff
 * and the audit log: ../users/api.ts). Rules they share: federated (single sign-on) users cannot
 * change their own profile; images (avatars, logos) come as a multipart `avatar`/`logo` file beside
 * the text fields; a user's access to a company is revoked (and restored) without touching the
 * account, while suspending the account is for whoever administers every company of the user.
 *
 * Errors: 400 `validation_failed` with `details: [{ field, message }]` naming each bad field;
 * 409 `email_already_taken` (details field `email`), 409 `team_name_taken` (field `name`),
 * 409 `company_name_taken` (field `name`); 404 `user_not_found`, `company_not_found`, `team_not_found`.
 */
import { z } from 'zod';
import { MODULES, type ModuleName } from '../modules';
import type { assignedObject, auditEntry, practice, staffUser, userDetail, userStatusBody } from '../users/results';
import type { companyUser, team, userModulesAccess } from '../companies/results';

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

/**
 * A member of a company, as the users list shows it. `status` is the account's (suspended users
 * cannot sign in anywhere); `invited`: has not chosen a password (nor signed in with single sign-on)
 * yet; `accessRevoked`: still listed, no longer sees the company.
 */
export type CompanyUser = z.output<typeof companyUser>;

/** GET /users/:id: a user and the companies of theirs the caller may see. */
export type UserDetail = z.output<typeof userDetail>;

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
export type UserStatus = z.output<typeof userStatusBody>;

/**
 * A company user's module access: `modulesAccess` their own values (null: inherit), `effective`
 * after the company ceiling and the user's teams, `company` the company's.
 */
export type UserModulesAccess = z.output<typeof userModulesAccess>;

export const teamNameSchema = z.object({ name: requiredText('name', 80) });

/** A team of a company: its members and its module values (null: inherit). */
export type Team = z.output<typeof team>;

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
export type AssignedObject = z.output<typeof assignedObject>;
export const assignedObjectListSchema = z.object({ results: z.array(assignedObjectSchema) });

export const objectAccessQuerySchema = z.object({
  module: z.enum(MODULES, { error: `module must be one of ${MODULES.join(', ')}` }),
});

/** GET /users/staff */
export type StaffUser = z.output<typeof staffUser>;

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
export type Practice = z.output<typeof practice>;

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
export type AuditEntry = z.output<typeof auditEntry>;

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
