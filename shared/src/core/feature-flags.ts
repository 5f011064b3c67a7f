/**
 * Feature flags: the contract between the api (which stores and evaluates flags) and the web (whose
 * OpenFeature provider reads them). Framework-free and zod-free: the shell's lazy flag client imports
 * it; the request schemas live in ./schemas, the answers' in ./notifications/results (types only here).
 */
import type { z } from 'zod';
import type { flagDefinition, flagsPayload } from './notifications/results';

/** The flag service's defaults, in one place (not all are used by our own service). */
export const FLAG_SERVICE_DEFAULTS = {
  eventCapacity: 100,
  flushIntervalMs: 2000,
  /** First reconnect delay of the stream; doubles on each failure, with jitter. */
  streamReconnectDelayMs: 1000,
  streamReconnectMaxDelayMs: 30_000,
  diagnosticsIntervalMs: 900_000,
  /** A stream that delivers nothing (not even a heartbeat) for this long is reconnected. */
  streamReadTimeoutMs: 300_000,
  tagValueMaxLength: 64,
  cacheSchemaVersion: 1,
} as const;

/** The server's heartbeat on the flag stream: far inside the read timeout, and under common proxy idle limits (60 s). */
export const FLAG_STREAM_HEARTBEAT_MS = 25_000;
/** How often each api instance looks for changes written by other instances. */
export const FLAG_CHANGE_POLL_MS = 2000;

export const FLAG_KEY_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
/** A flag value (and each rule value) as JSON, at most this many UTF-8 bytes. */
export const FLAG_VALUE_MAX_BYTES = 4096;
export const FLAG_RULES_MAX = 50;
export const FLAG_DESCRIPTION_MAX_LENGTH = 500;

export type FlagJson = boolean | number | string | null | FlagJson[] | { [key: string]: FlagJson };
/** What a flag serves: never null at the top level. */
export type FlagValue = boolean | number | string | FlagJson[] | { [key: string]: FlagJson };

/** Attributes a rule can test, by kind. */
export const FLAG_ATTRIBUTE_KINDS = {
  key: 'string',
  email: 'string',
  isTevora: 'boolean',
  isAuditor: 'boolean',
  isAdmin: 'boolean',
  companyIds: 'list',
} as const;
export type FlagAttribute = keyof typeof FLAG_ATTRIBUTE_KINDS;
export const FLAG_ATTRIBUTES = Object.keys(FLAG_ATTRIBUTE_KINDS) as FlagAttribute[];

/**
 * Operators by attribute kind: `eq`/`neq` compare one value, `in`/`notIn` take a list (for `companyIds`:
 * the user is in any / none of them), `endsWith` matches a suffix (e.g. an email domain), `contains`
 * asks whether `companyIds` holds one id.
 */
export const FLAG_OPERATORS = ['eq', 'neq', 'in', 'notIn', 'endsWith', 'contains'] as const;
export type FlagOperator = (typeof FLAG_OPERATORS)[number];
export const FLAG_OPERATORS_BY_KIND: Record<'string' | 'boolean' | 'list', readonly FlagOperator[]> = {
  string: ['eq', 'neq', 'in', 'notIn', 'endsWith'],
  boolean: ['eq', 'neq'],
  list: ['contains', 'in', 'notIn'],
};
/** What the value of a condition must be for an operator. */
export function flagOperandKind(attribute: FlagAttribute, op: FlagOperator): 'boolean' | 'string' | 'strings' {
  if (op === 'in' || op === 'notIn') return 'strings';
  return FLAG_ATTRIBUTE_KINDS[attribute] === 'boolean' ? 'boolean' : 'string';
}

export interface FlagCondition {
  attribute: FlagAttribute;
  op: FlagOperator;
  value: boolean | string | string[];
}

/** Rules are evaluated in order; the first whose condition holds serves its value. */
export interface FlagRule {
  if: FlagCondition;
  value: FlagValue;
  variant?: string;
}

/** A flag as staff admins read and write it. */
export type FeatureFlagDefinition = z.output<typeof flagDefinition>;

/**
 * GET /api/v1/feature-flags and each `flags` event of the stream. `version` is an opaque revision of
 * the stored definitions: it changes whenever any flag is created, changed or deleted.
 */
export type FeatureFlagsPayload = z.output<typeof flagsPayload>;

export type FlagEvaluation = FeatureFlagsPayload['flags'][string];

/** OpenFeature's standard reasons, as far as our evaluation gives them. */
export type FlagReason = FlagEvaluation['reason'];

/** The flag evaluation context: the user id as key, never anonymous. */
export interface FeatureFlagContext {
  key: string;
  firstName: string;
  lastName: string;
  email: string;
  anonymous: false;
  custom: { isTevora: boolean };
}

export function featureFlagContextOf(user: {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  isTevora: boolean;
}): FeatureFlagContext {
  return {
    key: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    anonymous: false,
    custom: { isTevora: user.isTevora },
  };
}

/** The JSON type of a flag value, for checking that rules serve the same type as the default. */
export function flagValueType(value: unknown): 'boolean' | 'number' | 'string' | 'object' | 'array' | 'null' | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'boolean' || t === 'number' || t === 'string' || t === 'object' ? t : 'other';
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
