/**
 * What the files of this folder share: bounded `in (...)` lists, the case-blind key Task IDs, Control
 * IDs and point names compare by (also exported from the folder), and counting template rows per
 * template.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import { toCount } from '../values';

/** Values in one `in (...)` list: bounded, so a 20,000-row file stays under every bind parameter limit. */
const IN_CHUNK = 1000;

export function chunks<T>(values: T[], size = IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

/** The key Task IDs, Control IDs and point names compare by (the unique indexes use lower() too). */
export const caseless = (value: string): string => value.toLowerCase();

/** Rows of `table` per template. */
export async function countBy(
  db: Kysely<Database>,
  table: 'tracker_tasks' | 'tracker_controls' | 'tracker_points_of_focus',
  trackerIds: string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const ids of chunks(trackerIds)) {
    const rows = await db
      .selectFrom(table)
      .select((eb) => ['tracker_id', eb.fn.countAll().as('n')])
      .where('tracker_id', 'in', ids)
      .groupBy('tracker_id')
      .execute();
    for (const r of rows) out.set(r.tracker_id, toCount(r.n as string | number));
  }
  return out;
}
