import argon2 from 'argon2';
import { newPasswordSchema, type PasswordPolicy } from '@portal/shared/core/schemas';

/** argon2id with the library's defaults (the seed uses the same). */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

let dummyHash: Promise<string> | null = null;
/** Verifying against a real hash when there is none keeps the reply time the same (no user enumeration). */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= argon2.hash(`no-such-user-${Math.random()}`, { type: argon2.argon2id });
  return dummyHash;
}

/** Whether `password` matches `hash`; a missing or malformed hash is a mismatch that costs the same time. */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  try {
    if (!hash) {
      await argon2.verify(await dummyPasswordHash(), password);
      return false;
    }
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/**
 * Why `password` cannot be the user's new password, or null when it can: the policy's length,
 * at most 256 characters, and not the current password (else a forced change changes nothing).
 * `field` names the input in the message ("New password", "newPassword").
 */
export async function newPasswordProblem(
  password: string,
  policy: PasswordPolicy,
  currentHash: string | null,
  field = 'Password',
): Promise<string | null> {
  const parsed = newPasswordSchema(policy, field).safeParse(password);
  if (!parsed.success) return parsed.error.issues[0].message;
  if (currentHash && (await verifyPassword(currentHash, password))) {
    return `${field} must be different from the current password`;
  }
  return null;
}

/** Whether the rotation of `policy` requires a new password now; an unknown change date counts as due. */
export function isPasswordExpired(
  passwordChangedAt: string | null,
  policy: PasswordPolicy,
  now: Date = new Date(),
): boolean {
  if (policy.rotationInDays <= 0) return false;
  if (!passwordChangedAt) return true;
  return Date.parse(passwordChangedAt) + policy.rotationInDays * 86_400_000 < now.getTime();
}
