/**
 * Flag evaluation on the server: the context comes from the session, never from
 * the client, so a user cannot claim to be staff to see a staff-only value.
 */
import {
  featureFlagContextOf,
  type FeatureFlagContext,
  type FeatureFlagDefinition,
  type FeatureFlagsPayload,
  type FlagCondition,
  type FlagEvaluation,
  type FlagRule,
  type FlagValue,
} from '@portal/shared/core/feature-flags';
import { featureFlagRulesSchema, featureFlagValueSchema } from '@portal/shared/core/schemas';
import type { FeatureFlagRecord } from '../db/feature-flags';

/** What rules can test: the evaluation context plus what only the server knows. */
export interface FlagSubject {
  context: FeatureFlagContext;
  isAuditor: boolean;
  isAdmin: boolean;
  companyIds: string[];
}

export function flagSubjectOf(
  user: {
    id: string;
    firstName: string;
    lastName: string;
    email: string;
    isTevora: boolean;
    isAuditor: boolean;
    isAdmin: boolean;
  },
  companyIds: string[],
): FlagSubject {
  return {
    context: featureFlagContextOf(user),
    isAuditor: user.isAuditor,
    // A staff admin: an admin flag on a client user means nothing here.
    isAdmin: user.isTevora && user.isAdmin,
    companyIds,
  };
}

/** A definition validated once per change, then evaluated for every connected user. */
export type CompiledFlag =
  | { key: string; ok: true; enabled: boolean; defaultValue: FlagValue; rules: FlagRule[] }
  | { key: string; ok: false; defaultValue: FlagValue | null; problem: string };

export function compileFlag(record: FeatureFlagRecord): CompiledFlag {
  const defaultValue = featureFlagValueSchema.safeParse(record.defaultValue);
  const rules = featureFlagRulesSchema.safeParse(record.rules);
  if (!defaultValue.success)
    return { key: record.key, ok: false, defaultValue: null, problem: 'default_value is not a valid flag value' };
  if (!rules.success)
    return { key: record.key, ok: false, defaultValue: defaultValue.data, problem: 'rules are not valid' };
  return { key: record.key, ok: true, enabled: record.enabled, defaultValue: defaultValue.data, rules: rules.data };
}

function attributeOf(subject: FlagSubject, attribute: FlagCondition['attribute']): string | boolean | string[] {
  switch (attribute) {
    case 'key':
      return subject.context.key;
    case 'email':
      return subject.context.email.toLowerCase();
    case 'isTevora':
      return subject.context.custom.isTevora;
    case 'isAuditor':
      return subject.isAuditor;
    case 'isAdmin':
      return subject.isAdmin;
    case 'companyIds':
      return subject.companyIds;
  }
}

/** Emails are stored lowercased; rule values may not be. */
function operand(condition: FlagCondition): FlagCondition['value'] {
  if (condition.attribute !== 'email') return condition.value;
  return Array.isArray(condition.value)
    ? condition.value.map((v) => v.toLowerCase())
    : typeof condition.value === 'string'
      ? condition.value.toLowerCase()
      : condition.value;
}

export function conditionHolds(condition: FlagCondition, subject: FlagSubject): boolean {
  const actual = attributeOf(subject, condition.attribute);
  const expected = operand(condition);
  if (Array.isArray(actual)) {
    // companyIds
    if (condition.op === 'contains') return typeof expected === 'string' && actual.includes(expected);
    const any = Array.isArray(expected) && expected.some((id) => actual.includes(id));
    if (condition.op === 'in') return any;
    if (condition.op === 'notIn') return !any;
    return false;
  }
  switch (condition.op) {
    case 'eq':
      return actual === expected;
    case 'neq':
      return actual !== expected;
    case 'in':
      return Array.isArray(expected) && typeof actual === 'string' && expected.includes(actual);
    case 'notIn':
      return Array.isArray(expected) && typeof actual === 'string' && !expected.includes(actual);
    case 'endsWith':
      return typeof actual === 'string' && typeof expected === 'string' && actual.endsWith(expected);
    default:
      return false;
  }
}

/** One flag for one user: disabled serves the default (DISABLED); otherwise the first matching rule wins. */
export function evaluateFlag(flag: CompiledFlag, subject: FlagSubject): FlagEvaluation | null {
  if (!flag.ok) return flag.defaultValue === null ? null : { value: flag.defaultValue, reason: 'ERROR' };
  if (!flag.enabled) return { value: flag.defaultValue, reason: 'DISABLED' };
  for (const rule of flag.rules) {
    if (conditionHolds(rule.if, subject)) {
      return rule.variant === undefined
        ? { value: rule.value, reason: 'TARGETING_MATCH' }
        : { value: rule.value, variant: rule.variant, reason: 'TARGETING_MATCH' };
    }
  }
  // STATIC: nothing to evaluate; DEFAULT: rules exist and none matched (OpenFeature's distinction).
  return { value: flag.defaultValue, reason: flag.rules.length === 0 ? 'STATIC' : 'DEFAULT' };
}

/** Every flag for one user. A flag whose stored default is unusable is left out: the web uses its own default. */
export function evaluateFlags(flags: CompiledFlag[], subject: FlagSubject, version: string): FeatureFlagsPayload {
  const out: FeatureFlagsPayload['flags'] = {};
  for (const flag of flags) {
    const evaluation = evaluateFlag(flag, subject);
    if (evaluation) out[flag.key] = evaluation;
  }
  return { flags: out, version };
}

/** The definition as staff admins read it; a broken stored value is shown as stored (null when unparsable). */
export function toDefinitionDto(record: FeatureFlagRecord): FeatureFlagDefinition {
  const isJson = (v: unknown) => v !== undefined && typeof v !== 'symbol';
  return {
    key: record.key,
    description: record.description,
    defaultValue: (isJson(record.defaultValue) ? record.defaultValue : null) as FlagValue,
    rules: (Array.isArray(record.rules) ? record.rules : []) as FlagRule[],
    enabled: record.enabled,
    version: record.version,
    updatedAt: record.updatedAt,
  };
}
