/** Result schemas (see index.ts) of users, companies, company users, teams and the audit log. */
import { z } from 'zod';
import { assertSame, count, id, page, ref, timestamp, type Same } from './common';
import { MODULES, type ModuleName } from '@portal/shared/core/modules';
import { PRACTICE_STATUSES } from '@portal/shared/core/practices';
import { PROJECT_ROLES, PROJECT_STATUSES, type UserProject } from '@portal/shared/core/projects';
import {
  userSchema,
  type AccessPermissions,
  type Company,
  type CompanyDomain,
  type IdentityProviderSettings,
  type PasswordPolicy,
  type User,
} from '@portal/shared/core/schemas';
import {
  COMPANY_ROLES,
  type AssignedObject,
  type AuditEntry,
  type CompanyUser,
  type Practice,
  type StaffUser,
  type Team,
  type UserDetail,
  type UserModulesAccess,
  type UserStatus,
} from '@portal/shared/core/settings';

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
const userStatusBody = z.strictObject({ status: userStatus, invited: z.boolean(), isFederated: z.boolean() });

export const assignedObject = z.strictObject({
  module: z.enum(MODULES),
  objectId: id,
  name: z.string(),
  companyId: id,
  role: z.string().nullable(),
  removable: z.boolean(),
});
const assignedObjectList = z.strictObject({ results: z.array(assignedObject) });

const userProjects = z.strictObject({
  results: z.array(
    z.strictObject({
      projectId: id,
      title: z.string(),
      companyId: id,
      companyName: z.string(),
      status: z.enum(PROJECT_STATUSES),
      role: z.enum(PROJECT_ROLES),
    }),
  ),
});

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
const staffUserList = z.strictObject({ results: z.array(staffUser), ...page });

export const practice = z.strictObject({
  id,
  name: z.string(),
  description: z.string(),
  status: z.enum(PRACTICE_STATUSES),
});
const practiceList = z.strictObject({ results: z.array(practice) });

export const company = z.strictObject({
  id,
  name: z.string(),
  logo: z.string().nullable(),
  modulesAccess: effectiveModules,
});
const companyList = z.strictObject({ results: z.array(company), ...pageOrAll });

const accessPermissions = z.strictObject({
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

const passwordPolicy = z.strictObject({
  minimumLength: z.number().int().min(8).max(128),
  rotationInDays: z.number().int().min(0).max(3650),
});

const identityProviderSettings = z.strictObject({
  identityProvider: z
    .strictObject({
      entityId: z.string().min(1),
      ssoUrl: z.string().min(1),
      certificate: z.string().min(1),
      sloUrl: z.string().nullable(),
      // both '' when the stored certificate cannot be read (identity-provider.ts)
      certificateFingerprint: z.string(),
      certificateExpiresAt: z.union([timestamp, z.literal('')]),
      updatedAt: timestamp,
    })
    .nullable(),
  serviceProvider: z.strictObject({
    entityId: z.string().min(1),
    acsUrl: z.string().min(1),
    metadataUrl: z.string().min(1),
  }),
  domains: z.array(z.lazy(() => companyDomain)),
  canConfirmDomains: z.boolean(),
});

const companyDomain = z.strictObject({
  id,
  domain: z.string().min(3),
  status: z.enum(['pending', 'verified']),
  verification: z.strictObject({ name: z.string().min(3), type: z.literal('TXT'), value: z.string().min(1) }),
  verifiedAt: timestamp.nullable(),
  verifiedBy: z.enum(['dns', 'staff']).nullable(),
  createdAt: timestamp,
});

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
const companyUserList = z.strictObject({ results: z.array(companyUser), ...pageOrAll });

const userModulesAccess = z.strictObject({
  modulesAccess: moduleLevel,
  effective: effectiveModules,
  company: effectiveModules,
});

export const team = z.strictObject({
  id,
  companyId: id,
  name: z.string(),
  users: z.array(z.strictObject({ id, firstName: z.string(), lastName: z.string(), email: z.string() })),
  modulesAccess: moduleLevel,
  createdAt: timestamp,
});
const teamList = z.strictObject({ results: z.array(team) });
const teamModulesAccess = z.strictObject({ modulesAccess: moduleLevel });

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
const auditLog = z.strictObject({ results: z.array(auditEntry), ...page });

type ListOf<T> = { results: T[]; total: number; page: number; pageSize: number };

assertSame<Same<z.output<typeof user>, User>>();
assertSame<Same<z.output<typeof userDetail>, UserDetail>>();
assertSame<Same<z.output<typeof userStatusBody>, UserStatus>>();
assertSame<Same<z.output<typeof assignedObjectList>, { results: AssignedObject[] }>>();
assertSame<Same<z.output<typeof userProjects>, { results: UserProject[] }>>();
assertSame<Same<z.output<typeof staffUserList>, ListOf<StaffUser>>>();
assertSame<Same<z.output<typeof staffUser>, StaffUser>>();
assertSame<Same<z.output<typeof practiceList>, { results: Practice[] }>>();
assertSame<Same<z.output<typeof company>, Company>>();
assertSame<Same<z.output<typeof companyList>, ListOf<Company>>>();
assertSame<Same<z.output<typeof accessPermissions>, AccessPermissions>>();
assertSame<Same<z.output<typeof passwordPolicy>, PasswordPolicy>>();
assertSame<Same<z.output<typeof identityProviderSettings>, IdentityProviderSettings>>();
assertSame<Same<z.output<typeof companyDomain>, CompanyDomain>>();
assertSame<Same<z.output<typeof companyUser>, CompanyUser>>();
assertSame<Same<z.output<typeof companyUserList>, ListOf<CompanyUser>>>();
assertSame<Same<z.output<typeof userModulesAccess>, UserModulesAccess>>();
assertSame<Same<z.output<typeof team>, Team>>();
assertSame<Same<z.output<typeof teamList>, { results: Team[] }>>();
assertSame<Same<z.output<typeof teamModulesAccess>, { modulesAccess: Team['modulesAccess'] }>>();
assertSame<Same<z.output<typeof auditLog>, ListOf<AuditEntry>>>();

/** The success bodies of users, companies, company users, teams and the audit log, by operation. */
export const PEOPLE_RESULTS: Record<string, z.ZodType> = {
  'GET /api/v1/users/profile/me': user,
  'PUT /api/v1/users/profile/me': user,
  'DELETE /api/v1/users/profile/me/avatar': user,
  'GET /api/v1/users/:id': userDetail,
  'PATCH /api/v1/users/:id': userDetail,
  'DELETE /api/v1/users/:id/avatar': userDetail,
  'GET /api/v1/users/:id/status': userStatusBody,
  'GET /api/v1/users/:id/assigned-objects': assignedObjectList,
  'GET /api/v1/users/:id/get-projects': userProjects,
  'GET /api/v1/users/staff': staffUserList,
  'PUT /api/v1/users/admin/:id': staffUser,
  'GET /api/v1/users/:id/practices': practiceList,
  'PUT /api/v1/users/:id/practices': practiceList,
  'GET /api/v1/companies': companyList,
  'POST /api/v1/companies': company,
  'GET /api/v1/companies/:id': company,
  'PATCH /api/v1/companies/:id': company,
  'PATCH /api/v1/companies/:id/modules-access': company,
  'GET /api/v1/companies/:id/access-permissions': accessPermissions,
  'GET /api/v1/companies/:id/password-policy': passwordPolicy,
  'POST /api/v1/companies/:id/password-policy': passwordPolicy,
  'GET /api/v1/companies/:id/identity-provider': identityProviderSettings,
  'PUT /api/v1/companies/:id/identity-provider': identityProviderSettings,
  'POST /api/v1/companies/:id/domains': companyDomain,
  'POST /api/v1/companies/:id/domains/:domainId/verify': companyDomain,
  'POST /api/v1/companies/:id/domains/:domainId/confirm': companyDomain,
  'GET /api/v1/companies/:id/users': companyUserList,
  'POST /api/v1/companies/:id/users': companyUser,
  'PATCH /api/v1/companies/:id/users/:userId/role': companyUser,
  'DELETE /api/v1/companies/:id/users/:userId/revoke-access': companyUser,
  'POST /api/v1/companies/:id/users/:userId/restore-access': companyUser,
  'GET /api/v1/companies/:id/users/:userId/modules-access': userModulesAccess,
  'PATCH /api/v1/companies/:id/users/:userId/modules-access': userModulesAccess,
  'GET /api/v1/companies/:id/teams': teamList,
  'POST /api/v1/companies/:id/teams': team,
  'PATCH /api/v1/companies/:id/teams/:teamId': team,
  'GET /api/v1/companies/:id/teams/:teamId/modules-access': teamModulesAccess,
  'PUT /api/v1/companies/:id/teams/:teamId/modules-access': teamModulesAccess,
  'GET /api/v1/companies/:id/teams/:teamId/assigned-objects': assignedObjectList,
  'GET /api/v1/audit-log': auditLog,
};
