import type { Kysely } from 'kysely';
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '@portal/shared/core/schemas';
import type { Database } from './schema';
import { nowIso } from './values';

/** The company's policy, or the default (minimum length 12, no rotation) when it has not set one. */
export async function findPasswordPolicy(db: Kysely<Database>, companyId: string): Promise<PasswordPolicy> {
  const row = await db
    .selectFrom('password_policies')
    .select(['minimum_length', 'rotation_in_days'])
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row
    ? { minimumLength: row.minimum_length, rotationInDays: row.rotation_in_days }
    : { ...DEFAULT_PASSWORD_POLICY };
}

export async function savePasswordPolicy(
  db: Kysely<Database>,
  companyId: string,
  policy: PasswordPolicy,
): Promise<PasswordPolicy> {
  const values = {
    minimum_length: policy.minimumLength,
    rotation_in_days: policy.rotationInDays,
    updated_at: nowIso(),
  };
  await db
    .insertInto('password_policies')
    .values({ company_id: companyId, ...values })
    .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
    .execute();
  return { minimumLength: policy.minimumLength, rotationInDays: policy.rotationInDays };
}

/** The strictest of several policies: the longest minimum length and the shortest rotation that is on (0 is off). */
export function strictestPolicy(policies: PasswordPolicy[]): PasswordPolicy {
  if (policies.length === 0) return { ...DEFAULT_PASSWORD_POLICY };
  const rotations = policies.map((p) => p.rotationInDays).filter((days) => days > 0);
  return {
    minimumLength: Math.max(...policies.map((p) => p.minimumLength)),
    rotationInDays: rotations.length ? Math.min(...rotations) : 0,
  };
}

/**
 * The policy a user's password must meet: the strictest across the companies they belong to (a
 * company without a policy counts with the default); staff follow the staff policy. A user of no
 * company gets the default.
 */
export async function passwordPolicyForUser(
  db: Kysely<Database>,
  user: { id: string; isTevora: boolean },
  staffPolicy: PasswordPolicy,
): Promise<PasswordPolicy> {
  const rows = await db
    .selectFrom('company_memberships')
    .leftJoin('password_policies', 'password_policies.company_id', 'company_memberships.company_id')
    .select(['password_policies.minimum_length', 'password_policies.rotation_in_days'])
    .where('company_memberships.user_id', '=', user.id)
    .execute();
  const policies: PasswordPolicy[] = rows.map((row) =>
    row.minimum_length === null || row.rotation_in_days === null
      ? DEFAULT_PASSWORD_POLICY
      : { minimumLength: row.minimum_length, rotationInDays: row.rotation_in_days },
  );
  if (user.isTevora) policies.push(staffPolicy);
  return strictestPolicy(policies);
}
