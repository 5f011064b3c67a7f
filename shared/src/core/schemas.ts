/** Entities and bodies shared by the api and the web. */
import { z } from 'zod';
import { MODULES } from './modules';
import * as flags from './feature-flags';
import type { notification, notificationList, unreadCount } from './notifications/results';
import type {
  accessPermissions,
  company,
  companyDomain,
  identityProvider,
  identityProviderSettings,
  passwordPolicy,
  serviceProvider,
} from './companies/results';

const moduleAccessShape = Object.fromEntries(MODULES.map((m) => [m, z.boolean().nullable()])) as Record<
  (typeof MODULES)[number],
  z.ZodNullable<z.ZodBoolean>
>;
export const moduleAccessSchema = z.object(moduleAccessShape);

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

export type Company = z.output<typeof company>;

/** The caller's modules and settings permissions in a company. */
export type AccessPermissions = z.output<typeof accessPermissions>;

/** A list reply: `results` plus paging. */
export function listSchema<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    results: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/** Longest password accepted anywhere (hashing cost stays bounded). */
export const PASSWORD_MAX_LENGTH = 256;

export const signInEmailSchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(320, 'Email is too long')
    .email('Email is not a valid address'),
});

export const signInSchema = signInEmailSchema.extend({
  password: z
    .string()
    .min(1, 'Password is required')
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
});

function wholeNumber(field: string, min: number, max: number) {
  const range = `${field} must be a whole number from ${min} to ${max}`;
  return z
    .number({ error: (issue) => (issue.input === undefined ? `${field} is required` : range) })
    .int({ error: range })
    .min(min, { error: `${field} must be at least ${min}` })
    .max(max, { error: `${field} must be at most ${max}` });
}

/** A company's password policy (docs/identity-and-sso.md); numbers are sent as integers. */
export const passwordPolicySchema = z.object({
  minimumLength: wholeNumber('minimumLength', 8, 128),
  /** 0: passwords never expire. */
  rotationInDays: wholeNumber('rotationInDays', 0, 3650),
});
export type PasswordPolicy = z.output<typeof passwordPolicy>;

/** The policy of a company that has not set one. */
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minimumLength: 12, rotationInDays: 0 };

/** A new password under a policy: the web's forms and the api check it with the same rule. */
export function newPasswordSchema(policy: PasswordPolicy, label = 'Password') {
  return z
    .string({ error: `${label} is required` })
    .min(1, `${label} is required`)
    .min(policy.minimumLength, `${label} must be at least ${policy.minimumLength} characters`)
    .max(PASSWORD_MAX_LENGTH, `${label} must be at most ${PASSWORD_MAX_LENGTH} characters`);
}

/** POST /users/profile/me/password; the policy's length is checked by the api against the user's policy. */
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'currentPassword is required' })
    .min(1, 'currentPassword is required')
    .max(PASSWORD_MAX_LENGTH),
  newPassword: z
    .string({ error: 'newPassword is required' })
    .min(1, 'newPassword is required')
    .max(PASSWORD_MAX_LENGTH, `newPassword must be at most ${PASSWORD_MAX_LENGTH} characters`),
});
export type ChangePasswordBody = z.infer<typeof changePasswordSchema>;

/** A remote's name: lowercase words joined by hyphens (`mfe-reports`). */
export const remoteNameSchema = z.string().regex(/^[a-z][a-z0-9-]*$/);

/** name -> URL of the remote's mf-manifest.json */
export const remotesManifestSchema = z.record(remoteNameSchema, z.string().min(1));
export type RemotesManifest = z.infer<typeof remotesManifestSchema>;

/**
 * The icons a navigation entry may name: the shell draws these (any other module gets a generic one).
 * A new icon is a shell release; a new remote is not.
 */
export const NAV_ICONS = ['projects', 'transfer', 'requests', 'reports', 'settings', 'risks', 'assets'] as const;
export type NavIcon = (typeof NAV_ICONS)[number];

/** A path of the portal: `/`, or lowercase segments (`/v2/projects`). */
const portalPath = z
  .string()
  .max(100)
  .regex(/^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/, 'Must be / or lowercase segments such as /reports');

/** One entry of the portal's main navigation, declared by the remote that shows its page. */
export const remoteNavEntrySchema = z.strictObject({
  /** Unique in the portal; the entry the shell marks as current. */
  key: z.string().regex(/^[a-z][a-z0-9-]*$/),
  label: z.string().min(1).max(40),
  path: portalPath,
  icon: z.enum(NAV_ICONS).optional(),
  /** Entries are listed by this number, smallest first (Home is always first). */
  order: z.number().int().min(0).max(1000),
});
export type RemoteNavEntry = z.infer<typeof remoteNavEntrySchema>;

/**
 * What a remote declares of itself (its `src/portal-module.json`, published with each build as
 * `portal-module.json` next to its mf-manifest.json): the module access that gates it (null: every
 * signed-in user), where the shell mounts it, the paths it shows when mounted at `/`, and its
 * navigation entries. The shell builds its routes and navigation from these: adding a remote is an
 * entry in the remotes manifest, not a shell release (docs/federation.md).
 */
export const remoteDeclarationSchema = z.strictObject({
  module: z.enum(MODULES).nullable(),
  /** Mounted at this path and every path under it; `/` with `paths`: only those. */
  basePath: portalPath,
  /** For a remote mounted at `/`: the paths it shows (a trailing `/*`: and every path under it). */
  paths: z
    .array(z.string().regex(/^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?(\/\*)?$/))
    .max(20)
    .optional(),
  nav: z.array(remoteNavEntrySchema).max(10),
});
export type RemoteDeclaration = z.infer<typeof remoteDeclarationSchema>;

/** A remote the signed-in user may mount, with its declaration: the portal config's `remotes`. */
export const portalRemoteSchema = remoteDeclarationSchema.extend({ name: remoteNameSchema });
export type PortalRemote = z.infer<typeof portalRemoteSchema>;

export const healthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok'), apiVersion: z.string() });

/** GET /api/v1/portal-config: public, read by the shell at start (the brand is BRAND_NAME, the portal's {brand}). */
export const portalConfigSchema = z.strictObject({
  brandName: z.string().min(1),
  apiVersion: z.string(),
  uiVersion: z.string(),
  /** The remotes this user may mount and what each declares (none before sign-in), by name. */
  remotes: z.array(portalRemoteSchema),
});
export type PortalConfig = z.infer<typeof portalConfigSchema>;

/** An identity provider's endpoint: https, or http on the local machine (a test identity provider). */
export function isIdentityProviderUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

const identityProviderUrl = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .max(2048, `${field} must be at most 2048 characters`)
    .refine(isIdentityProviderUrl, `${field} must be an https URL (http only for localhost)`);

/** A PEM certificate block or its base64 DER body. Only the api can parse it as X.509 (node:crypto). */
export function looksLikeCertificate(value: string): boolean {
  const body = value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  return body.length >= 64 && /^[A-Za-z0-9+/]+={0,2}$/.test(body);
}

/** PUT /companies/{id}/identity-provider: the company's SAML 2.0 identity provider. */
export const identityProviderInputSchema = z.object({
  entityId: z
    .string({ error: 'entityId is required' })
    .trim()
    .min(1, 'entityId is required')
    .max(1024, 'entityId must be at most 1024 characters'),
  ssoUrl: identityProviderUrl('ssoUrl'),
  certificate: z
    .string({ error: 'certificate is required' })
    .trim()
    .min(1, 'certificate is required')
    .max(16_384, 'certificate must be at most 16384 characters')
    .refine(looksLikeCertificate, 'certificate must be an X.509 certificate in PEM or base64 DER'),
  sloUrl: identityProviderUrl('sloUrl').nullable().optional(),
});
export type IdentityProviderInput = z.infer<typeof identityProviderInputSchema>;

/**
 * A company's identity provider: `certificate` as PEM, `certificateFingerprint` its SHA-256
 * fingerprint (`AB:CD:…`, to compare with the identity provider's screen).
 */
export type IdentityProvider = z.output<typeof identityProvider>;

/** What the identity provider's administrator enters for the portal. */
export type ServiceProvider = z.output<typeof serviceProvider>;

/** A host name of at least two labels (example.com), lowercase letters, digits and hyphens. */
export function isDomainName(value: string): boolean {
  if (value.length > 253) return false;
  const labels = value.split('.');
  return (
    labels.length >= 2 &&
    labels.every((l) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(l)) &&
    !/^\d+$/.test(labels[labels.length - 1])
  );
}

/** POST /companies/{id}/domains: an email domain the company's identity provider is to sign in. */
export const companyDomainInputSchema = z.object({
  domain: z
    .string({ error: 'Domain is required' })
    .trim()
    .toLowerCase()
    .min(1, 'Domain is required')
    .max(253, 'Domain must be at most 253 characters')
    .transform((d) => d.replace(/^@/, '').replace(/\.$/, ''))
    .refine(isDomainName, 'Domain must be a domain name such as example.com, without @ or https://'),
});
export type CompanyDomainInput = z.input<typeof companyDomainInputSchema>;

/**
 * An email domain a company claims. Its identity provider signs in the company's users of a verified
 * domain only; a domain is verified by a DNS TXT record (`verification`, whose `name` is the domain
 * itself) or a staff admin (`verifiedBy`: `dns` or `staff`), and by one company at most.
 */
export type CompanyDomain = z.output<typeof companyDomain>;

/** The prefix of a domain's verification TXT record value. */
export const DOMAIN_VERIFICATION_PREFIX = 'portal-domain-verification=';

/**
 * GET and PUT /companies/{id}/identity-provider; `identityProvider` is null when none is configured.
 * `domains` are the email domains it may sign in; `canConfirmDomains`: the caller is a staff admin.
 */
export type IdentityProviderSettings = z.output<typeof identityProviderSettings>;

// Feature flags (docs/flags-and-notifications.md): what staff admins write, validated where it enters.
const flagTag = z.string().min(1).max(flags.FLAG_SERVICE_DEFAULTS.tagValueMaxLength);

export const featureFlagKeySchema = z
  .string()
  .regex(
    flags.FLAG_KEY_PATTERN,
    'must start with a lowercase letter and hold only a-z, 0-9 and "-" (at most 64 characters)',
  );

export const featureFlagValueSchema = z
  .json()
  .refine((v) => v !== null, 'must be a boolean, number, string, object or array, not null')
  .refine(
    (v) => flags.utf8Length(JSON.stringify(v)) <= flags.FLAG_VALUE_MAX_BYTES,
    `must be at most ${flags.FLAG_VALUE_MAX_BYTES} bytes as JSON`,
  )
  .transform((v) => v as flags.FlagValue);

export const featureFlagConditionSchema = z
  .strictObject({
    attribute: z.enum(flags.FLAG_ATTRIBUTES as [flags.FlagAttribute, ...flags.FlagAttribute[]]),
    op: z.enum(flags.FLAG_OPERATORS),
    value: z.unknown(),
  })
  .superRefine((c, ctx) => {
    const allowed = flags.FLAG_OPERATORS_BY_KIND[flags.FLAG_ATTRIBUTE_KINDS[c.attribute]];
    if (!allowed.includes(c.op)) {
      ctx.addIssue({ code: 'custom', path: ['op'], message: `${c.attribute} supports ${allowed.join(', ')}` });
      return;
    }
    const kind = flags.flagOperandKind(c.attribute, c.op);
    const result =
      kind === 'boolean'
        ? z.boolean().safeParse(c.value)
        : kind === 'string'
          ? flagTag.safeParse(c.value)
          : z.array(flagTag).min(1).max(100).safeParse(c.value);
    if (!result.success) {
      const expected =
        kind === 'boolean'
          ? 'a boolean'
          : kind === 'string'
            ? 'a string of 1 to 64 characters'
            : 'a list of 1 to 100 strings of 1 to 64 characters';
      ctx.addIssue({ code: 'custom', path: ['value'], message: `must be ${expected} for ${c.attribute} ${c.op}` });
    }
  })
  .transform((c) => c as flags.FlagCondition);

export const featureFlagRuleSchema = z.strictObject({
  if: featureFlagConditionSchema,
  value: featureFlagValueSchema,
  variant: flagTag.optional(),
});

export const featureFlagRulesSchema = z.array(featureFlagRuleSchema).max(flags.FLAG_RULES_MAX);

/** PUT /api/v1/feature-flags/:key: creates or replaces a flag. Rules must serve the default's type. */
export const featureFlagInputSchema = z
  .strictObject({
    description: z.string().trim().max(flags.FLAG_DESCRIPTION_MAX_LENGTH).default(''),
    defaultValue: featureFlagValueSchema,
    rules: featureFlagRulesSchema.default([]),
    enabled: z.boolean().default(true),
  })
  .superRefine((input, ctx) => {
    const type = flags.flagValueType(input.defaultValue);
    input.rules.forEach((rule, i) => {
      const ruleType = flags.flagValueType(rule.value);
      if (ruleType !== type) {
        ctx.addIssue({
          code: 'custom',
          path: ['rules', i, 'value'],
          message: `must be a ${type} like defaultValue, not a ${ruleType}`,
        });
      }
    });
  });
export type FeatureFlagInput = z.infer<typeof featureFlagInputSchema>;

/** Portal messages (docs/flags-and-notifications.md): the maintenance banner, help text and bell message, as HTML. */
export const PORTAL_MESSAGE_KEYS = ['banner', 'help', 'bell'] as const;
export const PORTAL_MESSAGE_STATUSES = ['active', 'inactive'] as const;
export const PORTAL_MESSAGE_MAX_LENGTH = 20000;
export type PortalMessageKey = (typeof PORTAL_MESSAGE_KEYS)[number];

/** A key as callers send it: `Banner` and `banner` are the same key. */
export const portalMessageKeySchema = z
  .string({ error: 'key is required' })
  .trim()
  .toLowerCase()
  .pipe(z.enum(PORTAL_MESSAGE_KEYS, { error: `key must be one of ${PORTAL_MESSAGE_KEYS.join(', ')}` }));

export const portalMessageSchema = z.object({
  id: z.string(),
  key: z.enum(PORTAL_MESSAGE_KEYS),
  status: z.enum(PORTAL_MESSAGE_STATUSES),
  /** HTML; the web sanitizes it before showing it. */
  value: z.string(),
  /** Bumped on every change: a message closed at version n shows again at n + 1. */
  version: z.number().int(),
  /** The caller closed this version. */
  dismissed: z.boolean(),
  updatedAt: z.string(),
});
export type PortalMessage = z.infer<typeof portalMessageSchema>;

/** GET /system-settings: `{ data }`. */
export const systemSettingsListSchema = z.object({ data: z.array(portalMessageSchema) });
export type SystemSettingsList = z.infer<typeof systemSettingsListSchema>;

/** POST /system-settings and PUT /system-settings/{id}. */
export const portalMessageBodySchema = z.object({
  key: portalMessageKeySchema,
  status: z.enum(PORTAL_MESSAGE_STATUSES, { error: `status must be one of ${PORTAL_MESSAGE_STATUSES.join(', ')}` }),
  value: z
    .string({ error: 'value must be a text' })
    .max(PORTAL_MESSAGE_MAX_LENGTH, `value must be at most ${PORTAL_MESSAGE_MAX_LENGTH} characters`),
});
export type PortalMessageBody = z.input<typeof portalMessageBodySchema>;

/** POST /system-settings/{id}/dismiss: the version the user closed. */
export const portalMessageDismissSchema = z.object({
  version: z
    .number({ error: 'version must be a whole number' })
    .int('version must be a whole number')
    .min(1, 'version must be at least 1'),
});

/**
 * A notification of the bell (a list plus an unread count): `body` is plain text, `link` a path
 * inside the portal or null.
 */
export type Notification = z.output<typeof notification>;

export type NotificationList = z.output<typeof notificationList>;

/** Replies of the read calls and the data of the stream's `unread` event. */
export type UnreadCount = z.output<typeof unreadCount>;

// ---- Remote overrides (core/portal/api.ts: this browser loads a remote from another address)

/** An address a browser may load a remote's manifest from: https, or http on this computer (a dev server). */
export function isRemoteOverrideUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  return (url.protocol === 'https:' || (url.protocol === 'http:' && local)) && url.pathname.endsWith('.json');
}

export const REMOTE_OVERRIDE_URL_MAX_LENGTH = 2000;

export const remoteOverrideBodySchema = z.object({
  url: z
    .string()
    .max(REMOTE_OVERRIDE_URL_MAX_LENGTH, `The address must be at most ${REMOTE_OVERRIDE_URL_MAX_LENGTH} characters`)
    .refine(
      // one problem at a time: an address too long is not read further
      (value) => value.length > REMOTE_OVERRIDE_URL_MAX_LENGTH || isRemoteOverrideUrl(value),
      'The address must be the https address of a mf-manifest.json (http only on this computer: localhost)',
    )
    .describe("the address of the remote's mf-manifest.json"),
});
