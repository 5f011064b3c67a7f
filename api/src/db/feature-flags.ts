/** Feature flag definitions (table feature_flags): JSON columns are parsed here, validated by flag-evaluation. */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { FlagRule, FlagValue } from '@portal/shared/core/feature-flags';
import type { Database, FeatureFlagsTable } from './schema';
import { nowIso, toBool, toCount, toIso } from './values';

/** A stored flag. `defaultValue` and `rules` are as parsed from JSON: unknown until validated. */
export interface FeatureFlagRecord {
  key: string;
  description: string;
  defaultValue: unknown;
  rules: unknown;
  enabled: boolean;
  version: number;
  updatedAt: string;
}

/** Parse errors surface as a value that fails validation, never as a thrown error. */
const UNPARSABLE = Symbol('unparsable JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return UNPARSABLE;
  }
}

function toRecord(row: Selectable<FeatureFlagsTable>): FeatureFlagRecord {
  return {
    key: row.key,
    description: row.description,
    defaultValue: parseJson(row.default_value),
    rules: parseJson(row.rules),
    enabled: toBool(row.enabled),
    version: row.version,
    updatedAt: toIso(row.updated_at),
  };
}

export async function listFeatureFlags(db: Kysely<Database>): Promise<FeatureFlagRecord[]> {
  const rows = await db.selectFrom('feature_flags').selectAll().orderBy('key').execute();
  return rows.map(toRecord);
}

export interface FeatureFlagWrite {
  description: string;
  defaultValue: FlagValue;
  rules: FlagRule[];
  enabled: boolean;
}

/**
 * Creates the flag (version 1) or replaces it (version + 1) in one statement, so two admins writing
 * at once both land and the version counts both. `created` is true for a new flag.
 */
export async function upsertFeatureFlag(
  db: Kysely<Database>,
  key: string,
  input: FeatureFlagWrite,
  now: string = nowIso(),
): Promise<{ flag: FeatureFlagRecord; created: boolean }> {
  const values = {
    description: input.description,
    default_value: JSON.stringify(input.defaultValue),
    rules: JSON.stringify(input.rules),
    enabled: input.enabled,
    updated_at: now,
  };
  const row = await db
    .insertInto('feature_flags')
    .values({ key, ...values, version: 1 })
    .onConflict((oc) => oc.column('key').doUpdateSet({ ...values, version: sql<number>`feature_flags.version + 1` }))
    .returningAll()
    .executeTakeFirstOrThrow();
  const flag = toRecord(row);
  return { flag, created: flag.version === 1 };
}

export async function deleteFeatureFlag(db: Kysely<Database>, key: string): Promise<boolean> {
  const result = await db.deleteFrom('feature_flags').where('key', '=', key).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * A cheap fingerprint of every definition: count, sum of versions and latest update. Any create,
 * update or delete changes it (a write bumps a version and updated_at; a delete changes the count).
 */
export async function featureFlagsRevision(db: Kysely<Database>): Promise<string> {
  const row = await db
    .selectFrom('feature_flags')
    .select((eb) => [
      eb.fn.countAll().as('count'),
      eb.fn.sum<number | string>('version').as('versions'),
      eb.fn.max('updated_at').as('latest'),
    ])
    .executeTakeFirstOrThrow();
  const count = toCount(row.count as string | number);
  const latest = row.latest ? Date.parse(toIso(row.latest as Date | string)) : 0;
  return `${count}.${toCount(row.versions ?? 0)}.${latest}`;
}

/** The companies a user is a member of (client users; staff are members of none). */
export async function companyIdsOfMember(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('company_memberships')
    .select('company_id')
    .where('user_id', '=', userId)
    .where('access_revoked_at', 'is', null)
    .orderBy('company_id')
    .execute();
  return rows.map((r) => r.company_id);
}

/** The demo flags: the bell and the Help link change the shell visibly, staff-preview shows targeting. */
export const DEMO_FEATURE_FLAGS: (FeatureFlagWrite & { key: string })[] = [
  {
    key: 'notifications-bell',
    description: 'Shows the notifications bell in the header.',
    defaultValue: true,
    rules: [],
    enabled: true,
  },
  {
    key: 'header-help-link',
    description: 'Shows a Help link in the header.',
    defaultValue: false,
    rules: [],
    enabled: true,
  },
  {
    key: 'help-url',
    description: "Where the header's Help link leads.",
    defaultValue: 'mailto:support@demo.test',
    rules: [],
    enabled: true,
  },
  {
    key: 'staff-preview',
    description: 'Early features for staff before clients see them.',
    defaultValue: false,
    rules: [{ if: { attribute: 'isTevora', op: 'eq', value: true }, value: true, variant: 'staff' }],
    enabled: true,
  },
];

export async function seedFeatureFlags(db: Kysely<Database>): Promise<void> {
  for (const { key, ...flag } of DEMO_FEATURE_FLAGS) await upsertFeatureFlag(db, key, flag);
}
