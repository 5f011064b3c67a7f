import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Practice } from '@portal/shared/core/settings';
import type { Database } from './schema';
import { inTransaction, likePattern, toBool, toCount, toIso } from './values';

/** A staff user as the staff list shows it (the avatar is the stored key; practices are added by the caller). */
export interface StaffUserRecord {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  title: string | null;
  avatar: string | null;
  status: 'active' | 'suspended';
  isAdmin: boolean;
  isAuditor: boolean;
  lastSignInAt: string | null;
}

function staffQuery(db: Kysely<Database>) {
  return db.selectFrom('users as u').where('u.is_tevora', '=', true);
}

function selectStaff(query: ReturnType<typeof staffQuery>) {
  return query.select([
    'u.id',
    'u.first_name',
    'u.last_name',
    'u.email',
    'u.title',
    'u.avatar',
    'u.status',
    'u.is_admin',
    'u.is_auditor',
    'u.last_sign_in_at',
  ]);
}

type StaffRow = Awaited<ReturnType<ReturnType<typeof selectStaff>['executeTakeFirstOrThrow']>>;

function toRecord(row: StaffRow): StaffUserRecord {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    title: row.title,
    avatar: row.avatar,
    status: row.status,
    isAdmin: toBool(row.is_admin),
    isAuditor: toBool(row.is_auditor),
    lastSignInAt: row.last_sign_in_at === null ? null : toIso(row.last_sign_in_at),
  };
}

/** Staff users by name, searched over name and email. */
export async function listStaffUsers(
  db: Kysely<Database>,
  query: { search?: string; limit: number; offset: number },
): Promise<{ results: StaffUserRecord[]; total: number }> {
  let base = staffQuery(db);
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where(
      sql<boolean>`(lower(u.first_name || ' ' || u.last_name) like ${pattern} escape '!' or lower(u.email) like ${pattern} escape '!')`,
    );
  }
  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await selectStaff(base)
    .orderBy(sql`lower(u.first_name)`)
    .orderBy(sql`lower(u.last_name)`)
    .orderBy('u.id')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return { results: rows.map(toRecord), total: toCount(totalRow.n as string | number) };
}

/** The staff user, or null when there is none with that id (client users included). */
export async function findStaffUser(db: Kysely<Database>, id: string): Promise<StaffUserRecord | null> {
  const row = await selectStaff(staffQuery(db).where('u.id', '=', id)).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/**
 * Sets a staff user's admin flag. Demoting is refused (false) when it would leave no active staff
 * admin. The check and the change share a transaction that locks the admin rows, so two admins
 * demoting each other at once cannot both succeed.
 */
export async function setStaffAdmin(db: Kysely<Database>, id: string, isAdmin: boolean): Promise<boolean> {
  if (isAdmin) {
    await db
      .updateTable('users')
      .set({ is_admin: true, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('is_tevora', '=', true)
      .execute();
    return true;
  }
  const work = async (trx: Kysely<Database>) => {
    const admins = await trx
      .selectFrom('users')
      .select(['id', 'status'])
      .where('is_tevora', '=', true)
      .where('is_admin', '=', true)
      .orderBy('id')
      // SQLite runs one write transaction at a time; PostgreSQL needs the admin rows locked.
      .$call((q) => (trx.getExecutor().adapter instanceof PostgresAdapter ? q.forUpdate() : q))
      .execute();
    const othersActive = admins.filter((a) => a.id !== id && a.status === 'active').length;
    if (othersActive === 0) return false;
    await trx
      .updateTable('users')
      .set({ is_admin: false, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    return true;
  };
  return inTransaction(db, work);
}

/** The number of active staff admins. */
export async function countActiveStaffAdmins(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('is_tevora', '=', true)
    .where('is_admin', '=', true)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return toCount(row.n as string | number);
}

/** The given practice ids that do not exist. */
export async function unknownPracticeIds(db: Kysely<Database>, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await db.selectFrom('practices').select('id').where('id', 'in', unique).execute();
  const known = new Set(found.map((r) => r.id));
  return unique.filter((id) => !known.has(id));
}

/** A staff user's practices, by name. */
export async function practicesOfStaffUser(db: Kysely<Database>, userId: string): Promise<Practice[]> {
  return db
    .selectFrom('staff_practices')
    .innerJoin('practices', 'practices.id', 'staff_practices.practice_id')
    .select(['practices.id', 'practices.name', 'practices.description', 'practices.status'])
    .where('staff_practices.user_id', '=', userId)
    .orderBy('practices.name')
    .orderBy('practices.id')
    .execute();
}
