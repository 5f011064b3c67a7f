import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Practice } from '@portal/shared/core/settings';
import type { Database } from './schema';
import { inTransaction, nowIso } from './values';

/** Practices (SPEC.md section 3 names them; issue 7 adds their task tracker templates). */
export async function insertPractice(db: Kysely<Database>, input: { name: string; description?: string; status?: 'active' | 'retired' }): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('practices')
    .values({ id, name: input.name, description: input.description ?? '', status: input.status ?? 'active', created_at: now, updated_at: now })
    .execute();
  return id;
}

export async function listPractices(db: Kysely<Database>): Promise<Practice[]> {
  return db.selectFrom('practices').select(['id', 'name', 'description', 'status']).orderBy('name').orderBy('id').execute();
}

/** The practices of each of the given staff users, by name. */
export async function practicesOfUsers(db: Kysely<Database>, userIds: string[]): Promise<Map<string, { id: string; name: string }[]>> {
  const out = new Map<string, { id: string; name: string }[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('staff_practices')
    .innerJoin('practices', 'practices.id', 'staff_practices.practice_id')
    .select(['staff_practices.user_id', 'practices.id', 'practices.name'])
    .where('staff_practices.user_id', 'in', userIds)
    .orderBy('practices.name')
    .execute();
  for (const r of rows) out.get(r.user_id)?.push({ id: r.id, name: r.name });
  return out;
}

/** Replaces a staff user's practices with `practiceIds` (all must exist: the caller checks). */
export async function setStaffPractices(db: Kysely<Database>, userId: string, practiceIds: string[]): Promise<void> {
  const work = async (trx: Kysely<Database>) => {
    await trx.deleteFrom('staff_practices').where('user_id', '=', userId).execute();
    const unique = [...new Set(practiceIds)];
    if (unique.length) await trx.insertInto('staff_practices').values(unique.map((practice_id) => ({ user_id: userId, practice_id }))).execute();
  };
  await inTransaction(db, work);
}
