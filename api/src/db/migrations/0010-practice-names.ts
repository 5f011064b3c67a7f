import { sql, type Kysely } from 'kysely';

/**
 * Practice names are unique ignoring case (issue 7 checks them so; 0003's constraint is case-sensitive):
 * a unique index on lower(name) settles two writers racing with "SOC" and "soc". Names that already
 * differ only in case keep the oldest as is and get " (2)", " (3)"… on the others first. Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const rows = await db.selectFrom('practices').select(['id', 'name']).orderBy('created_at').orderBy('id').execute();
  const taken = new Set(rows.map((r) => String(r.name).toLowerCase()));
  const seen = new Set<string>();
  for (const row of rows) {
    const key = String(row.name).toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    let n = 2;
    while (taken.has(`${key} (${n})`)) n += 1;
    const name = `${row.name} (${n})`;
    taken.add(name.toLowerCase());
    seen.add(name.toLowerCase());
    await db.updateTable('practices').set({ name }).where('id', '=', row.id).execute();
  }
  await db.schema
    .createIndex('practices_name_lower_unique')
    .on('practices')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('practices_name_lower_unique').execute();
}
