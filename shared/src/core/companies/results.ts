/**
 * What the companies operations answer (companies, their permissions, password policy, identity
 * provider and domains, company users, teams), as zod schemas (see projects/results.ts).
 */
import { z } from 'zod';
import { count, id, page, ref, timestamp } from '../answers';
import { MODULES, type ModuleName } from '../modules';
import { userSchema } from '../schemas';
import { COMPANY_ROLES } from '../settings';

/** The account's status, as the shared user contract has it. */
const userStatus = userSchema.shape.status;

/** One value per module: effective (boolean) or at one level (boolean, null inherits). */
const perModule = <T extends z.ZodType>(value: T) =>
  z.strictObject(Object.fromEntries(MODULES.map((m) => [m, value])) as { [M in ModuleName]: T });
const effectiveModules = perModule(z.boolean());
const moduleLevel = perModule(z.boolean().nullable());

/**
 * The paging fields of a list with `ignorePagination=true`: one page holding all `total` rows, so
 * `pageSize` is `total` and may be 0 (lib/paging.ts).
 */
const pageOrAll = { ...page, pageSize: count };

// ---- Companies

export const company = z.strictObject({
  id,
  name: z.string(),
  logo: z.string().nullable(),
  modulesAccess: effectiveModules,
});
export const companyList = z.strictObject({ results: z.array(company), ...pageOrAll });

export const accessPermissions = z.strictObject({
  modulesAccess: effectiveModules,
  settingsPermissions: z.strictObject({
    users: z.strictObject({
      editHelp: z.boolean(),
      editTevoraAdmins: z.boolean(),
      editModulesAccess: z.boolean(),
      editPractices: z.boolean(),
    }),
    company: z.strictObject({
      editInformation: z.boolean(),
      editModulesAccess: z.boolean(),
      editUsersAndTeams: z.boolean(),
      addCompany: z.boolean(),
    }),
    loaded: z.boolean(),
  }),
});

export const passwordPolicy = z.strictObject({
  minimumLength: z.number().int().min(8).max(128),
  rotationInDays: z.number().int().min(0).max(3650),
});

// ---- Identity provider and domains

export const companyDomain = z.strictObject({
  id,
  domain: z.string().min(3),
  status: z.enum(['pending', 'verified']),
  verification: z.strictObject({ name: z.string().min(3), type: z.literal('TXT'), value: z.string().min(1) }),
  verifiedAt: timestamp.nullable(),
  verifiedBy: z.enum(['dns', 'staff']).nullable(),
  createdAt: timestamp,
});

export const identityProvider = z.strictObject({
  entityId: z.string().min(1),
  ssoUrl: z.string().min(1),
  certificate: z.string().min(1),
  sloUrl: z.string().nullable(),
  // both '' when the stored certificate cannot be read (api/src/routes/api/v1/companies/identity-provider.ts)
  certificateFingerprint: z.string(),
  certificateExpiresAt: z.union([timestamp, z.literal('')]),
  updatedAt: timestamp,
});

export const serviceProvider = z.strictObject({
  entityId: z.string().min(1),
  acsUrl: z.string().min(1),
  metadataUrl: z.string().min(1),
});

export const identityProviderSettings = z.strictObject({
  identityProvider: identityProvider.nullable(),
  serviceProvider,
  domains: z.array(companyDomain),
  canConfirmDomains: z.boolean(),
});

// ---- Company users

export const companyUser = z.strictObject({
  id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  title: z.string().nullable(),
  avatar: z.string().nullable(),
  role: z.enum(COMPANY_ROLES),
  status: userStatus,
  invited: z.boolean(),
  accessRevoked: z.boolean(),
  isFederated: z.boolean(),
  teams: z.array(ref),
  lastSignInAt: timestamp.nullable(),
  joinedAt: timestamp,
});
export const companyUserList = z.strictObject({ results: z.array(companyUser), ...pageOrAll });

export const userModulesAccess = z.strictObject({
  modulesAccess: moduleLevel,
  effective: effectiveModules,
  company: effectiveModules,
});

// ---- Teams

export const team = z.strictObject({
  id,
  companyId: id,
  name: z.string(),
  users: z.array(z.strictObject({ id, firstName: z.string(), lastName: z.string(), email: z.string() })),
  modulesAccess: moduleLevel,
  createdAt: timestamp,
});
export const teamList = z.strictObject({ results: z.array(team) });
export const teamModulesAccess = z.strictObject({ modulesAccess: moduleLevel });
