/**
 * The companies operations (base /api/v1): companies, their settings (modules, password policy,
 * identity provider and email domains), their users and their teams, each described once (see
 * ../contract.ts). The rules behind the policies and the errors are in ../settings/index.ts.
 */
import { z } from 'zod';
import { defineOperation } from '../contract';
import { companyDomainInputSchema, identityProviderInputSchema, passwordPolicySchema } from '../schemas';
import {
  IMAGE_TYPES,
  companyCreateSchema,
  companyModulesAccessSchema,
  companyUpdateSchema,
  companyUserInviteSchema,
  companyUserRoleSchema,
  companyUsersQuerySchema,
  moduleAccessPatchSchema,
  moduleAccessPutSchema,
  teamNameSchema,
} from '../settings';
import { assignedObjectList } from '../users/results';
import {
  accessPermissions,
  company,
  companyDomain,
  companyList,
  companyUser,
  companyUserList,
  identityProviderSettings,
  passwordPolicy,
  team,
  teamList,
  teamModulesAccess,
  userModulesAccess,
} from './results';

export const companiesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
  ignorePagination: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  search: z.string().trim().max(200).optional(),
  sort: z.enum(['name', '-name'], { error: 'sort must be name or -name' }).default('name'),
});

const idText = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(100, `${field} is too long`);

/** `userIds[]=a&userIds[]=b` (as the web encodes arrays), `userIds=a&userIds=b` or one value. */
export const userIdsSchema = z.object({
  userIds: z.preprocess(
    (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
    z
      .array(idText('userIds'), { error: 'userIds must be a list of user ids' })
      .min(1, 'userIds must name at least one user')
      .max(200, 'userIds may name at most 200 users'),
  ),
});

const COMPANY = '/api/v1/companies/:id';
const IDENTITY_PROVIDER = `${COMPANY}/identity-provider` as const;
const DOMAINS = `${COMPANY}/domains` as const;
const USERS = `${COMPANY}/users` as const;
const USER = `${USERS}/:userId` as const;
const TEAMS = `${COMPANY}/teams` as const;
const TEAM = `${TEAMS}/:teamId` as const;
const IMAGE_FILE = 'an image (PNG, JPEG, GIF or WebP), at most 2 MB (IMAGE_MAX_BYTES)';

const MEMBER = { company: 'member' } as const;
const EDIT_INFORMATION = { company: 'settings', permission: 'company.editInformation' } as const;
const EDIT_MODULES_ACCESS = { company: 'settings', permission: 'company.editModulesAccess' } as const;
const EDIT_USERS_AND_TEAMS = { company: 'settings', permission: 'company.editUsersAndTeams' } as const;

// ---- Companies

export const listCompanies = defineOperation({
  method: 'GET',
  url: '/api/v1/companies',
  summary: "List the caller's companies",
  tag: 'Companies',
  policy: 'signedIn',
  query: companiesQuerySchema,
  responses: { 200: 'the page of companies' },
  result: companyList,
});

/** Modules default to all on. */
export const createCompany = defineOperation({
  method: 'POST',
  url: '/api/v1/companies',
  summary: 'Add a company',
  tag: 'Companies',
  policy: 'staffAdmin',
  body: companyCreateSchema,
  responses: { 201: 'the created company' },
  result: company,
});

export const getCompany = defineOperation({
  method: 'GET',
  url: COMPANY,
  summary: 'Get a company',
  tag: 'Companies',
  policy: MEMBER,
  responses: { 200: 'the company' },
  result: company,
});

/** Name and/or logo: multipart from the web, JSON for the name alone; one of them at least (else 400). */
export const updateCompany = defineOperation({
  method: 'PATCH',
  url: COMPANY,
  summary: "Update a company's name and logo",
  tag: 'Companies',
  policy: EDIT_INFORMATION,
  body: companyUpdateSchema,
  form: { fields: companyUpdateSchema, files: { logo: `the new logo: ${IMAGE_FILE}` } },
  responses: { 200: 'the updated company' },
  result: company,
});

export const getCompanyLogo = defineOperation({
  method: 'GET',
  url: `${COMPANY}/logo`,
  summary: "Get a company's logo image",
  tag: 'Companies',
  policy: MEMBER,
  responses: { 200: 'the logo image' },
  produces: IMAGE_TYPES,
});

export const deleteCompanyLogo = defineOperation({
  method: 'DELETE',
  url: `${COMPANY}/logo`,
  summary: "Remove a company's logo",
  tag: 'Companies',
  policy: EDIT_INFORMATION,
  responses: { 204: 'removed' },
});

export const getAccessPermissions = defineOperation({
  method: 'GET',
  url: `${COMPANY}/access-permissions`,
  summary: "Get the caller's permissions in a company",
  tag: 'Companies',
  policy: MEMBER,
  responses: { 200: 'the permissions the caller holds in the company' },
  result: accessPermissions,
});

export const updateCompanyModulesAccess = defineOperation({
  method: 'PATCH',
  url: `${COMPANY}/modules-access`,
  summary: 'Turn modules on or off for a company',
  tag: 'Companies',
  policy: EDIT_MODULES_ACCESS,
  body: companyModulesAccessSchema,
  responses: { 200: 'the updated company' },
  result: company,
});

// ---- Password policy

/** The default (12 characters, no rotation) until the company sets one. */
export const getPasswordPolicy = defineOperation({
  method: 'GET',
  url: `${COMPANY}/password-policy`,
  summary: "Get a company's password policy",
  tag: 'Companies',
  policy: MEMBER,
  responses: { 200: 'the password policy' },
  result: passwordPolicy,
});

export const setPasswordPolicy = defineOperation({
  method: 'POST',
  url: `${COMPANY}/password-policy`,
  summary: "Set a company's password policy",
  tag: 'Companies',
  policy: EDIT_INFORMATION,
  body: passwordPolicySchema,
  responses: { 200: 'the saved password policy' },
  result: passwordPolicy,
});

// ---- Identity provider and email domains

export const getIdentityProvider = defineOperation({
  method: 'GET',
  url: IDENTITY_PROVIDER,
  summary: "Get a company's SAML identity provider settings",
  tag: 'Companies',
  policy: EDIT_INFORMATION,
  responses: { 200: 'the identity provider settings (or none) and the service provider details' },
  result: identityProviderSettings,
});

/** The certificate must also read as X.509 (else 400 naming certificate); it is stored as PEM. */
export const setIdentityProvider = defineOperation({
  method: 'PUT',
  url: IDENTITY_PROVIDER,
  summary: "Set a company's SAML identity provider",
  tag: 'Companies',
  policy: EDIT_INFORMATION,
  body: identityProviderInputSchema,
  responses: { 200: 'the saved identity provider settings' },
  result: identityProviderSettings,
});

export const deleteIdentityProvider = defineOperation({
  method: 'DELETE',
  url: IDENTITY_PROVIDER,
  summary: "Remove a company's SAML identity provider",
  tag: 'Companies',
  policy: EDIT_INFORMATION,
  responses: { 204: 'removed' },
});

export const addCompanyDomain = defineOperation({
  method: 'POST',
  url: DOMAINS,
  summary: "Claim an email domain for the company's single sign-on",
  tag: 'Companies',
  policy: EDIT_INFORMATION,
  body: companyDomainInputSchema,
  responses: { 201: 'the domain, pending verification, with the DNS TXT record that verifies it' },
  result: companyDomain,
  errors: { 409: 'domain_taken: the company lists it already, or another company has verified it' },
});

export const verifyCompanyDomain = defineOperation({
  method: 'POST',
  url: `${DOMAINS}/:domainId/verify`,
  summary: "Verify a company's email domain by its DNS TXT record",
  tag: 'Companies',
  policy: EDIT_INFORMATION,
  responses: { 200: 'the verified domain' },
  result: companyDomain,
  errors: {
    400: 'domain_not_verified: the TXT record was not found',
    404: 'domain_not_found',
    409: 'domain_taken: another company has verified it',
  },
});

/** Staff admins only (else 403), whatever the policy lets through. */
export const confirmCompanyDomain = defineOperation({
  method: 'POST',
  url: `${DOMAINS}/:domainId/confirm`,
  summary: "Confirm a company's email domain without DNS (staff admins)",
  tag: 'Companies',
  policy: EDIT_INFORMATION,
  responses: { 200: 'the verified domain' },
  result: companyDomain,
  errors: { 404: 'domain_not_found', 409: 'domain_taken: another company has verified it' },
});

export const deleteCompanyDomain = defineOperation({
  method: 'DELETE',
  url: `${DOMAINS}/:domainId`,
  summary: "Remove an email domain from a company's single sign-on",
  tag: 'Companies',
  policy: EDIT_INFORMATION,
  responses: { 204: 'removed: its users sign in with a password again' },
  errors: { 404: 'domain_not_found' },
});

// ---- Company users (a user of another company is not found: 404 user_not_found)

export const listCompanyUsers = defineOperation({
  method: 'GET',
  url: USERS,
  summary: "List a company's users",
  tag: 'Companies',
  policy: MEMBER,
  query: companyUsersQuerySchema,
  responses: { 200: 'the page of company users' },
  result: companyUserList,
});

/** A set-password mail, or a note to use single sign-on; nobody is invited when the mail fails (503). */
export const inviteCompanyUser = defineOperation({
  method: 'POST',
  url: USERS,
  summary: 'Invite a user to a company',
  tag: 'Companies',
  policy: EDIT_USERS_AND_TEAMS,
  body: companyUserInviteSchema,
  responses: { 201: 'the invited company user' },
  result: companyUser,
});

/** Not one's own role (400). */
export const updateCompanyUserRole = defineOperation({
  method: 'PATCH',
  url: `${USER}/role`,
  summary: "Change a company user's role",
  tag: 'Companies',
  policy: EDIT_USERS_AND_TEAMS,
  body: companyUserRoleSchema,
  responses: { 200: 'the updated company user' },
  result: companyUser,
});

/** Not one's own access (400); the user's sessions go on (they may work for other companies). */
export const revokeCompanyAccess = defineOperation({
  method: 'DELETE',
  url: `${USER}/revoke-access`,
  summary: "Revoke a user's access to a company (they stay listed)",
  tag: 'Companies',
  policy: EDIT_USERS_AND_TEAMS,
  responses: { 200: 'the updated company user' },
  result: companyUser,
});

export const restoreCompanyAccess = defineOperation({
  method: 'POST',
  url: `${USER}/restore-access`,
  summary: "Restore a user's access to a company",
  tag: 'Companies',
  policy: EDIT_USERS_AND_TEAMS,
  responses: { 200: 'the updated company user' },
  result: companyUser,
});

/** Not oneself (400); a lead role on a project must be reassigned first (409 lead_user_can_not_be_revoked). */
export const removeCompanyUser = defineOperation({
  method: 'DELETE',
  url: USER,
  summary: 'Remove a user from a company with their teams and project roles in it',
  tag: 'Companies',
  policy: EDIT_USERS_AND_TEAMS,
  responses: { 204: 'removed' },
});

export const getCompanyUserModulesAccess = defineOperation({
  method: 'GET',
  url: `${USER}/modules-access`,
  summary: "Get a company user's module access",
  tag: 'Companies',
  policy: EDIT_USERS_AND_TEAMS,
  responses: { 200: "the user's module access" },
  result: userModulesAccess,
});

export const updateCompanyUserModulesAccess = defineOperation({
  method: 'PATCH',
  url: `${USER}/modules-access`,
  summary: "Change a company user's module access",
  tag: 'Companies',
  policy: { company: 'settings', permission: 'users.editModulesAccess' },
  body: moduleAccessPatchSchema,
  responses: { 200: "the user's module access now" },
  result: userModulesAccess,
});

// ---- Teams (a team of another company is not found: 404 team_not_found)

export const listTeams = defineOperation({
  method: 'GET',
  url: TEAMS,
  summary: "List a company's teams",
  tag: 'Teams',
  policy: MEMBER,
  responses: { 200: 'the teams' },
  result: teamList,
});

/** Team names are unique in a company, whatever their case (409 team_name_taken). */
export const createTeam = defineOperation({
  method: 'POST',
  url: TEAMS,
  summary: 'Create a team',
  tag: 'Teams',
  policy: EDIT_USERS_AND_TEAMS,
  body: teamNameSchema,
  responses: { 201: 'the created team' },
  result: team,
});

export const renameTeam = defineOperation({
  method: 'PATCH',
  url: TEAM,
  summary: 'Rename a team',
  tag: 'Teams',
  policy: EDIT_USERS_AND_TEAMS,
  body: teamNameSchema,
  responses: { 200: 'the updated team' },
  result: team,
});

export const deleteTeam = defineOperation({
  method: 'DELETE',
  url: TEAM,
  summary: 'Delete a team',
  tag: 'Teams',
  policy: EDIT_USERS_AND_TEAMS,
  responses: { 204: 'deleted' },
});

/** Active members of the company only (else 404 user_not_found). */
export const addTeamMember = defineOperation({
  method: 'PUT',
  url: `${TEAM}/users/:userId`,
  summary: 'Add a user to a team',
  tag: 'Teams',
  policy: EDIT_USERS_AND_TEAMS,
  responses: { 204: 'added' },
});

/** All must be active members of the company, else nobody is added (400 naming userIds). */
export const addTeamMembers = defineOperation({
  method: 'PUT',
  url: `${TEAM}/users`,
  summary: 'Add several users to a team (`userIds` or `userIds[]`, repeated)',
  tag: 'Teams',
  policy: EDIT_USERS_AND_TEAMS,
  query: userIdsSchema,
  responses: { 204: 'added' },
});

export const removeTeamMember = defineOperation({
  method: 'DELETE',
  url: `${TEAM}/users/:userId`,
  summary: 'Remove a user from a team',
  tag: 'Teams',
  policy: EDIT_USERS_AND_TEAMS,
  responses: { 204: 'removed' },
});

export const getTeamModulesAccess = defineOperation({
  method: 'GET',
  url: `${TEAM}/modules-access`,
  summary: "Get a team's module access",
  tag: 'Teams',
  policy: MEMBER,
  responses: { 200: "the team's module access" },
  result: teamModulesAccess,
});

export const setTeamModulesAccess = defineOperation({
  method: 'PUT',
  url: `${TEAM}/modules-access`,
  summary: "Set a team's module access",
  tag: 'Teams',
  policy: EDIT_MODULES_ACCESS,
  body: moduleAccessPutSchema,
  responses: { 200: "the team's module access now" },
  result: teamModulesAccess,
});

export const listTeamAssignedObjects = defineOperation({
  method: 'GET',
  url: `${TEAM}/assigned-objects`,
  summary: 'List the objects assigned to a team',
  tag: 'Teams',
  policy: EDIT_USERS_AND_TEAMS,
  responses: { 200: 'the assigned objects' },
  result: assignedObjectList,
});
