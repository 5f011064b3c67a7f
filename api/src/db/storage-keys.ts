import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** Every table whose rows name stored bytes: the storage sweep removes only what none of them names. */
const TABLES = ['file_versions', 'transfer_files', 'system_setting_files', 'request_files'] as const;
const BATCH = 500;

/** The keys among `keys` that some row still names. */
export async function referencedStorageKeys(db: Kysely<Database>, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += BATCH) {
    const batch = keys.slice(i, i + BATCH);
    for (const table of TABLES) {
      const rows = await db.selectFrom(table).select('storage_key').where('storage_key', 'in', batch).execute();
      for (const row of rows) found.add(row.storage_key);
    }
  }
  return found;
}
