import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { PracticeDetail, PracticeStatus, PracticeSummary } from '@portal/shared/core/practices';
import type { Database } from './schema';
import { inTransaction, likePattern, nowIso, toCount, toIso } from './values';

/** Practices (issue 7 adds their task tracker templates). */
export async function insertPractice(
  db: Kysely<Database>,
  input: { name: string; description?: string; status?: 'active' | 'retired' },
): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('practices')
    .values({
      id,
      name: input.name,
      description: input.description ?? '',
      status: input.status ?? 'active',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** The practices of each of the given staff users, by name. */
export async function practicesOfUsers(
  db: Kysely<Database>,
  userIds: string[],
): Promise<Map<string, { id: string; name: string }[]>> {
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
    if (unique.length)
      await trx
        .insertInto('staff_practices')
        .values(unique.map((practice_id) => ({ user_id: userId, practice_id })))
        .execute();
  };
  await inTransaction(db, work);
}

// ---------------------------------------------------------------------------------------------
// Practices & Templates (issue 7)

export interface PracticeRecord {
  id: string;
  name: string;
  description: string;
  status: PracticeStatus;
}

const practiceColumns = ['p.id', 'p.name', 'p.description', 'p.status', 'p.updated_at'] as const;

type PracticeRow = { id: string; name: string; description: string; status: PracticeStatus; updated_at: Date | string };

/** Templates (all and published), assigned staff and projects of these practices: one grouped query each. */
async function withCounts(db: Kysely<Database>, rows: PracticeRow[]): Promise<PracticeSummary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [templates, staff, projects] = await Promise.all([
    db
      .selectFrom('task_trackers')
      .select((eb) => [
        'practice_id',
        eb.fn.countAll().as('n'),
        sql<number | string>`sum(case when status = 'published' then 1 else 0 end)`.as('published'),
      ])
      .where('practice_id', 'in', ids)
      .groupBy('practice_id')
      .execute(),
    db
      .selectFrom('staff_practices')
      .select((eb) => ['practice_id', eb.fn.countAll().as('n')])
      .where('practice_id', 'in', ids)
      .groupBy('practice_id')
      .execute(),
    db
      .selectFrom('projects')
      .select((eb) => ['practice_id', eb.fn.countAll().as('n')])
      .where('practice_id', 'in', ids)
      .groupBy('practice_id')
      .execute(),
  ]);
  const templateCounts = new Map(
    templates.map((r) => [r.practice_id, { n: toCount(r.n as string | number), published: toCount(r.published) }]),
  );
  const staffCounts = new Map(staff.map((r) => [r.practice_id, toCount(r.n as string | number)]));
  const projectCounts = new Map(projects.map((r) => [r.practice_id, toCount(r.n as string | number)]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    status: r.status,
    templateCount: templateCounts.get(r.id)?.n ?? 0,
    publishedTemplateCount: templateCounts.get(r.id)?.published ?? 0,
    staffCount: staffCounts.get(r.id) ?? 0,
    projectCount: projectCounts.get(r.id) ?? 0,
    updatedAt: toIso(r.updated_at),
  }));
}

/** Practices by name, filtered by status and searched in name and description. */
export async function listPracticeSummaries(
  db: Kysely<Database>,
  query: { status: PracticeStatus | 'all'; search?: string },
): Promise<PracticeSummary[]> {
  let select = db.selectFrom('practices as p').select([...practiceColumns]);
  if (query.status !== 'all') select = select.where('p.status', '=', query.status);
  if (query.search) {
    const pattern = likePattern(query.search);
    select = select.where(
      sql<SqlBool>`(lower(p.name) like ${pattern} escape '!' or lower(p.description) like ${pattern} escape '!')`,
    );
  }
  return withCounts(
    db,
    await select
      .orderBy(sql`lower(p.name)`)
      .orderBy('p.id')
      .execute(),
  );
}

export async function findPractice(db: Kysely<Database>, id: string): Promise<PracticeRecord | null> {
  const row = await db
    .selectFrom('practices')
    .select(['id', 'name', 'description', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

export async function findPracticeSummary(db: Kysely<Database>, id: string): Promise<PracticeSummary | null> {
  const rows = await db
    .selectFrom('practices as p')
    .select([...practiceColumns])
    .where('p.id', '=', id)
    .execute();
  return (await withCounts(db, rows))[0] ?? null;
}

/** The staff users assigned the practice, by name. */
export async function staffOfPractice(db: Kysely<Database>, id: string): Promise<PracticeDetail['staff']> {
  const rows = await db
    .selectFrom('staff_practices as sp')
    .innerJoin('users as u', 'u.id', 'sp.user_id')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email'])
    .where('sp.practice_id', '=', id)
    .orderBy('u.first_name')
    .orderBy('u.last_name')
    .orderBy('u.id')
    .execute();
  return rows.map((r) => ({ id: r.id, firstName: r.first_name, lastName: r.last_name, email: r.email }));
}

/** Whether another practice has this name, ignoring case. */
export async function practiceNameTaken(db: Kysely<Database>, name: string, exceptId?: string): Promise<boolean> {
  let query = db
    .selectFrom('practices')
    .select('id')
    .where(sql<SqlBool>`lower(name) = lower(${name})`);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function updatePractice(
  db: Kysely<Database>,
  id: string,
  changes: Partial<Omit<PracticeRecord, 'id'>>,
): Promise<void> {
  await db
    .updateTable('practices')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .execute();
}
