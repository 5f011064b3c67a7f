/**
 * The portal's own operations, each described once (see ../contract.ts): health and portal config
 * (base /api/v1), the sign-in, sign-out and password pages and the SAML endpoints under /auth, and
 * the system settings (portal messages). The api registers its routes from them and the web infers
 * its calls' types from them.
 *
 * The pages under /auth answer HTML: their form posts (application/x-www-form-urlencoded) show a
 * problem on the page again (`pageErrors`), a form the schema refuses included; the schemas below
 * say what the forms hold.
 */
import { z } from 'zod';
import { defineOperation } from '../contract';
import {
  PASSWORD_MAX_LENGTH,
  remoteOverrideBodySchema,
  portalMessageBodySchema,
  portalMessageDismissSchema,
  portalMessageKeySchema,
  signInEmailSchema,
} from '../schemas';
import { health, portalConfig, portalMessage, remoteOverrides, systemSettingsList } from './results';

const HTML = ['text/html'];

// ---- Health

export const getHealth = defineOperation({
  method: 'GET',
  url: '/api/v1/health',
  summary: 'Check that the api and its database are up',
  tag: 'Health',
  policy: 'public',
  responses: { 200: 'status ok, the database ok and the api version' },
  result: health,
});

/** What the web needs before anyone signs in: the brand (BRAND_NAME, the portal's {brand}) and the versions. */
export const getPortalConfig = defineOperation({
  method: 'GET',
  url: '/api/v1/portal-config',
  summary: 'Get the brand name and the api and ui versions',
  tag: 'Health',
  policy: 'public',
  responses: { 200: 'the portal configuration' },
  result: portalConfig,
});

// ---- Auth (pages under /auth; form posts are application/x-www-form-urlencoded)

/** The sign-in form (identifier first): an email alone, or an email and a password. */
export const signInFormSchema = signInEmailSchema.extend({
  password: z
    .string()
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
    .optional()
    .describe('empty or absent: the password step (or the identity provider) comes next'),
  step: z.string().optional().describe('`password` when sent from the password step (the password is then required)'),
});

export const resetPasswordQuerySchema = z.object({
  token: z.string().optional().describe('the token of the reset link'),
});

export const resetPasswordFormSchema = z.object({
  token: z.string().describe('the token of the reset link (or of an expired password)'),
  reason: z.enum(['reset', 'expired']).optional(),
  password: z.string().max(PASSWORD_MAX_LENGTH).describe("the new password, under the user's password policy"),
  confirmPassword: z.string().describe('the same password again'),
});

export const samlResponseFormSchema = z.object({
  SAMLResponse: z.string().describe("the identity provider's signed SAML response (base64)"),
  RelayState: z.string().optional().describe('the path on the portal to return to'),
});

export const showSignInPage = defineOperation({
  method: 'GET',
  url: '/auth/saml/login',
  summary: 'Show the sign-in page',
  tag: 'Auth',
  policy: 'public',
  responses: { 200: 'the sign-in page', 303: 'redirect to / when already signed in' },
  produces: HTML,
});

/**
 * Identifier-first: an email alone goes to the company's identity provider, or on to the password
 * step (unknown emails too: the answer does not tell who has an account). Email and password
 * together sign in at once, unless the company signs in with SSO.
 */
export const signIn = defineOperation({
  method: 'POST',
  url: '/auth/saml/login',
  summary: 'Sign in with email and password (form post)',
  tag: 'Auth',
  policy: 'public',
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
});

/** A GET signs nobody out (a link, an image another site embeds): it shows the page with its button. */
export const showSignOutPage = defineOperation({
  method: 'GET',
  url: '/auth/saml/logout',
  summary: 'Ask to sign out: a page with a button that posts the sign-out (a GET signs nobody out)',
  tag: 'Auth',
  policy: 'public',
  responses: { 200: 'the sign-out page' },
  produces: HTML,
});

/** CSRF proof: a same-origin Origin or Referer (the shell's form post), or the sign-out page's `token` field. */
export const signOut = defineOperation({
  method: 'POST',
  url: '/auth/saml/logout',
  summary:
    'Sign out (form post with a same-origin Origin or Referer, or the sign-out page token) and go back to the sign-in page',
  tag: 'Auth',
  policy: 'public',
  responses: { 303: 'redirect to the sign-in page' },
  pageErrors: { 200: 'the sign-out page again: the post carried no proof that this portal sent it' },
  produces: HTML,
});

export const showForgotPasswordPage = defineOperation({
  method: 'GET',
  url: '/auth/forgot-password',
  summary: 'Show the forgot-password page',
  tag: 'Auth',
  policy: 'public',
  responses: { 200: 'the forgot-password page' },
  produces: HTML,
});

/** The same answer for any well-formed email (no user enumeration); limited per email and per address. */
export const requestPasswordReset = defineOperation({
  method: 'POST',
  url: '/auth/forgot-password',
  summary: 'Ask for a password reset link by email (form post)',
  tag: 'Auth',
  policy: 'public',
  body: signInEmailSchema,
  responses: { 200: 'the "check your email" page (the same whether or not the account exists)' },
  pageErrors: { 429: 'the page again: too many reset links asked for, wait and try again' },
  produces: HTML,
});

export const showResetPasswordPage = defineOperation({
  method: 'GET',
  url: '/auth/reset-password',
  summary: 'Show the page to choose a new password from a reset link',
  tag: 'Auth',
  policy: 'public',
  query: resetPasswordQuerySchema,
  responses: { 200: 'the choose-a-new-password page' },
  pageErrors: { 403: 'the link page: the account is suspended or not yet active' },
  produces: HTML,
});

/** Sets the password under the user's policy, uses the token up, ends every session, then signs this browser in. */
export const resetPassword = defineOperation({
  method: 'POST',
  url: '/auth/reset-password',
  summary: 'Set a new password from a reset link and sign in (form post)',
  tag: 'Auth',
  policy: 'public',
  body: resetPasswordFormSchema,
  responses: { 303: 'signed in: redirect to the remembered return path' },
  pageErrors: { 403: 'the link page: the account is suspended or not yet active' },
});

export const getSamlMetadata = defineOperation({
  method: 'GET',
  url: '/auth/saml/metadata',
  summary: "Get the portal's SAML service provider metadata",
  tag: 'Auth',
  policy: 'public',
  responses: { 200: 'the SAML metadata document' },
  produces: ['application/samlmetadata+xml'],
});

/**
 * The identity provider's form post (cross-site: no session or toUrl cookie arrives with it, only the
 * SameSite=None binding cookie of the browser that started the sign-in). A refusal is a page.
 */
export const signInWithSaml = defineOperation({
  method: 'POST',
  url: '/auth/saml/acs',
  summary: "Sign in with the identity provider's SAML response (form post)",
  tag: 'Auth',
  policy: 'public',
  body: samlResponseFormSchema,
  responses: { 303: 'signed in: redirect to the relay state path' },
});

// ---- System settings (portal messages): everyone signed in reads the active ones and closes them;
// staff admins see all and edit them.

/** `keys[]=Banner` (as the web sends lists), `keys=Banner`, one key or several. */
export const systemSettingsQuerySchema = z.object({
  keys: z.preprocess(
    (v) => (v === undefined || Array.isArray(v) ? v : [v]),
    z.array(portalMessageKeySchema).max(10, 'keys: at most 10 keys').optional(),
  ),
});

/** Drafts (inactive messages) are listed to the staff admins who edit them only. */
export const listPortalMessages = defineOperation({
  method: 'GET',
  url: '/api/v1/system-settings',
  summary: 'List the portal messages (banner, help, bell) for the caller',
  tag: 'System settings',
  policy: 'signedIn',
  query: systemSettingsQuerySchema,
  responses: { 200: 'the portal messages, with whether the caller dismissed each' },
  result: systemSettingsList,
});

export const createPortalMessage = defineOperation({
  method: 'POST',
  url: '/api/v1/system-settings',
  summary: 'Create a portal message',
  tag: 'System settings',
  policy: 'staffAdmin',
  body: portalMessageBodySchema,
  responses: { 201: 'the created message' },
  result: portalMessage,
});

/** Clients call create with or without a trailing slash: both spellings work. */
export const createPortalMessageTrailingSlash = defineOperation({
  ...createPortalMessage,
  url: '/api/v1/system-settings/',
  summary: 'Create a portal message (trailing-slash spelling)',
});

export const updatePortalMessage = defineOperation({
  method: 'PUT',
  url: '/api/v1/system-settings/:id',
  summary: 'Update a portal message',
  tag: 'System settings',
  policy: 'staffAdmin',
  body: portalMessageBodySchema,
  responses: { 200: 'the updated message' },
  result: portalMessage,
});

export const deletePortalMessage = defineOperation({
  method: 'DELETE',
  url: '/api/v1/system-settings/:id',
  summary: 'Delete a portal message',
  tag: 'System settings',
  policy: 'staffAdmin',
  responses: { 204: 'deleted' },
});

/**
 * The caller closed this version of the message (inactive ones too); it shows again when the message
 * changes. A version past the message's: 400 naming `version`.
 */
export const dismissPortalMessage = defineOperation({
  method: 'POST',
  url: '/api/v1/system-settings/:id/dismiss',
  summary: 'Dismiss a portal message for the caller',
  tag: 'System settings',
  policy: 'signedIn',
  body: portalMessageDismissSchema,
  responses: { 204: 'dismissed' },
});

// ---- Remote overrides: this browser alone loads a remote from another address (staff, for testing a release)

const REMOTE_OVERRIDES = '/api/v1/remote-overrides';
const remoteParam = z.object({
  remote: z.string().regex(/^[a-z][a-z0-9-]*$/, 'The remote is named in lower case letters, digits and -'),
});

export const listRemoteOverrides = defineOperation({
  method: 'GET',
  url: REMOTE_OVERRIDES,
  summary: 'List the remotes this browser loads from another address',
  tag: 'Remotes',
  policy: 'staff',
  responses: { 200: "this browser's overrides (a signed cookie of this user's)" },
  result: remoteOverrides,
});

export const setRemoteOverride = defineOperation({
  method: 'PUT',
  url: `${REMOTE_OVERRIDES}/:remote`,
  summary: 'Load one remote from another address, in this browser alone',
  tag: 'Remotes',
  policy: 'staff',
  params: remoteParam,
  body: remoteOverrideBodySchema,
  responses: { 200: "this browser's overrides, the new one included" },
  errors: { 404: 'the manifest in force has no such remote' },
  result: remoteOverrides,
});

export const deleteRemoteOverride = defineOperation({
  method: 'DELETE',
  url: `${REMOTE_OVERRIDES}/:remote`,
  summary: 'Load one remote from the manifest again in this browser',
  tag: 'Remotes',
  policy: 'staff',
  params: remoteParam,
  responses: { 200: "this browser's overrides left" },
  result: remoteOverrides,
});
