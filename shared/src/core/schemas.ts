/** Entities and bodies shared by the api and the web (SPEC.md section 3). */
import { z } from 'zod';
import { MODULES } from './modules';

const moduleAccessShape = Object.fromEntries(MODULES.map((m) => [m, z.boolean().nullable()])) as Record<
  (typeof MODULES)[number],
  z.ZodNullable<z.ZodBoolean>
>;
export const moduleAccessSchema = z.object(moduleAccessShape);
export const effectiveModuleAccessSchema = z.object(
  Object.fromEntries(MODULES.map((m) => [m, z.boolean()])) as Record<(typeof MODULES)[number], z.ZodBoolean>,
);

export const userSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  title: z.string().nullable(),
  email: z.string(),
  login: z.string(),
  avatar: z.string().nullable(),
  status: z.enum(['active', 'suspended']),
  primaryPhone: z.string().nullable(),
  isTevora: z.boolean(),
  isAuditor: z.boolean(),
  admin: z.object({ active: z.boolean() }),
  sendDailyEmails: z.boolean(),
  metadata: z.object({ firstLogin: z.boolean(), isFederated: z.boolean(), isLead: z.boolean() }),
  projectRoles: z.array(z.object({ projectId: z.string(), role: z.string() })),
  ldhmac: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const companySchema = z.object({
  id: z.string(),
  name: z.string(),
  logo: z.string().nullable(),
  modulesAccess: effectiveModuleAccessSchema,
});
export type Company = z.infer<typeof companySchema>;

export const settingsPermissionsSchema = z.object({
  users: z.object({
    editHelp: z.boolean(),
    editTevoraAdmins: z.boolean(),
    editModulesAccess: z.boolean(),
    editPractices: z.boolean(),
  }),
  company: z.object({
    editInformation: z.boolean(),
    editModulesAccess: z.boolean(),
    editUsersAndTeams: z.boolean(),
    addCompany: z.boolean(),
  }),
  loaded: z.boolean(),
});

export const accessPermissionsSchema = z.object({
  modulesAccess: effectiveModuleAccessSchema,
  settingsPermissions: settingsPermissionsSchema,
});
export type AccessPermissions = z.infer<typeof accessPermissionsSchema>;

/** A list reply: `results` plus paging. */
export function listSchema<T extends z.ZodTypeAny>(item: T) {
  return z.object({ results: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
}

export const signInSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').email('Email is not a valid address'),
  password: z.string().min(1, 'Password is required'),
});

/** name -> URL of the remote's mf-manifest.json */
export const remotesManifestSchema = z.record(z.string().regex(/^[a-z][a-z0-9-]*$/), z.string().min(1));
export type RemotesManifest = z.infer<typeof remotesManifestSchema>;

export const healthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok'), apiVersion: z.string() });
