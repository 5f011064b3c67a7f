/**
 * What the files of this folder share and the folder does not export: a user row as a FileUserRef.
 */
import type { FileUserRef } from '@portal/shared/core/files';

type UserRow = { id: string; first_name: string; last_name: string; email: string };

export const userRef = (r: UserRow): FileUserRef => ({
  id: r.id,
  name: `${r.first_name} ${r.last_name}`.trim(),
  email: r.email,
});
