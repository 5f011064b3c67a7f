/**
 * What the notifications and feature flags operations answer, as zod schemas (see
 * projects/results.ts).
 */
import { z } from 'zod';
import { count, id, page, timestamp } from '../answers';
import { FLAG_ATTRIBUTES, FLAG_KEY_PATTERN, FLAG_OPERATORS, type FlagAttribute, type FlagJson } from '../feature-flags';

// ---- Feature flags

const flagJson: z.ZodType<FlagJson> = z.lazy(() =>
  z.union([z.boolean(), z.number(), z.string(), z.null(), z.array(flagJson), z.record(z.string(), flagJson)]),
);
/** A served value: any JSON but null at the top level. */
const flagValue = z.union([z.boolean(), z.number(), z.string(), z.array(flagJson), z.record(z.string(), flagJson)]);
const flagRule = z.strictObject({
  if: z.strictObject({
    attribute: z.enum(FLAG_ATTRIBUTES as [FlagAttribute, ...FlagAttribute[]]),
    op: z.enum(FLAG_OPERATORS),
    value: z.union([z.boolean(), z.string(), z.array(z.string())]),
  }),
  value: flagValue,
  variant: z.string().optional(),
});
export const flagsPayload = z.strictObject({
  flags: z.record(
    z.string(),
    z.strictObject({
      value: flagValue,
      variant: z.string().optional(),
      reason: z.enum(['STATIC', 'DEFAULT', 'TARGETING_MATCH', 'DISABLED', 'ERROR']),
    }),
  ),
  version: z.string(),
});
export const flagDefinition = z.strictObject({
  key: z.string().regex(FLAG_KEY_PATTERN),
  description: z.string(),
  defaultValue: flagValue,
  rules: z.array(flagRule),
  enabled: z.boolean(),
  version: z.number().int().min(1),
  updatedAt: timestamp,
});
export const flagDefinitionList = z.strictObject({ results: z.array(flagDefinition) });

// ---- Notifications

export const notification = z.strictObject({
  id,
  companyId: id.nullable(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  createdAt: timestamp,
  readAt: timestamp.nullable(),
});
export const notificationList = z.strictObject({ results: z.array(notification), ...page, unreadCount: count });
export const unreadCount = z.strictObject({ unreadCount: count });
