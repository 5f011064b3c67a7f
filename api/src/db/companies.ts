import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { MODULES, type CompanyRole, type ModuleName } from '@portal/shared/core/modules';
import { preparedQuery } from './prepared';
import type { Database } from './schema';
import { likePattern, nowIso, toBool, toCount } from './values';

export interface CompanyRecord {
  id: string;
  name: string;
  logo: string | null;
  /** Company-level module access: the ceiling for everybody in the company. */
  modulesAccess: Record<ModuleName, boolean>;
}

/** Who is looking: decides which companies are visible. */
export interface CompanyViewer {
  id: string;
  isTevora: boolean;
  isAuditor: boolean;
}

/**
 * Staff (not auditors) see every company. Auditors see the companies of projects where they hold a
 * role; client users their memberships.
 */
function seesAllCompanies(viewer: CompanyViewer): boolean {
  return viewer.isTevora && !viewer.isAuditor;
}

/** The ids of companies a viewer who does not see all companies may see, as a subquery. */
function visibleCompanyIds(db: Kysely<Database>, viewer: CompanyViewer) {
  if (viewer.isAuditor) {
    return db
      .selectFrom('project_members')
      .innerJoin('projects', 'projects.id', 'project_members.project_id')
      .select('projects.company_id as company_id')
      .where('project_members.user_id', '=', viewer.id);
  }
  return db
    .selectFrom('company_memberships')
    .select('company_id')
    .where('user_id', '=', viewer.id)
    .where('access_revoked_at', 'is', null);
}

/** The ids of the companies a viewer sees, or 'all' for staff who see every company. */
export async function visibleCompanyIdList(db: Kysely<Database>, viewer: CompanyViewer): Promise<string[] | 'all'> {
  if (seesAllCompanies(viewer)) return 'all';
  const rows = await visibleCompanyIds(db, viewer).execute();
  return [...new Set(rows.map((r) => r.company_id))];
}

async function companyModules(
  db: Kysely<Database>,
  companyIds: string[],
): Promise<Map<string, Record<ModuleName, boolean>>> {
  const out = new Map<string, Record<ModuleName, boolean>>();
  for (const id of companyIds) out.set(id, noModules());
  if (companyIds.length === 0) return out;
  const rows = await db
    .selectFrom('company_modules_access')
    .select(['company_id', 'module', 'enabled'])
    .where('company_id', 'in', companyIds)
    .execute();
  for (const row of rows) {
    const access = out.get(row.company_id);
    if (access) setModule(access, row);
  }
  return out;
}

/** A module without a row is off: access is granted explicitly. */
function noModules(): Record<ModuleName, boolean> {
  return Object.fromEntries(MODULES.map((m) => [m, false])) as Record<ModuleName, boolean>;
}

/** One row of company_modules_access (module null: a company without rows, from a left join). */
function setModule(
  access: Record<ModuleName, boolean>,
  row: { module: string | null; enabled: boolean | number | null },
): void {
  if (row.module !== null && row.enabled !== null && (MODULES as readonly string[]).includes(row.module))
    access[row.module as ModuleName] = toBool(row.enabled);
}

export interface CompanyListQuery {
  search?: string;
  /** By name, Z to A. */
  descending?: boolean;
  /** null: all rows (offset is then ignored). */
  limit: number | null;
  offset: number;
}

export async function listVisibleCompanies(
  db: Kysely<Database>,
  viewer: CompanyViewer,
  query: CompanyListQuery,
): Promise<{ results: CompanyRecord[]; total: number }> {
  let base = db.selectFrom('companies');
  if (!seesAllCompanies(viewer)) {
    base = base.where('companies.id', 'in', visibleCompanyIds(db, viewer));
  }
  if (query.search) {
    base = base.where(sql<boolean>`lower(companies.name) like ${likePattern(query.search)} escape '!'`);
  }
  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const direction = query.descending ? 'desc' : 'asc';
  let page = base.select(['id', 'name', 'logo']).orderBy('name', direction).orderBy('id', direction);
  // SQLite accepts OFFSET only after a LIMIT.
  if (query.limit !== null) page = page.limit(query.limit).offset(query.offset);
  const rows = await page.execute();
  const modules = await companyModules(
    db,
    rows.map((r) => r.id),
  );
  return {
    results: rows.map((r) => ({ id: r.id, name: r.name, logo: r.logo, modulesAccess: modules.get(r.id)! })),
    total: toCount(totalRow.n as string | number),
  };
}

const companyWithModules = preparedQuery((db, id: string) =>
  db
    .selectFrom('companies as c')
    .leftJoin('company_modules_access as m', 'm.company_id', 'c.id')
    .select(['c.id', 'c.name', 'c.logo', 'm.module', 'm.enabled'])
    .where('c.id', '=', id),
);

/** The company with its module access, in one query (every request of a company page asks for it). */
export async function findCompanyById(db: Kysely<Database>, id: string): Promise<CompanyRecord | null> {
  return companyFromRows(await companyWithModules(db, id));
}

/**
 * A company from the rows of a company left joined to its module access (one row per module, one
 * with module null when it has none); null without rows.
 */
export function companyFromRows(
  rows: readonly {
    id: string;
    name: string;
    logo: string | null;
    module: string | null;
    enabled: boolean | number | null;
  }[],
): CompanyRecord | null {
  if (rows.length === 0) return null;
  return companyRecord(rows[0], rows);
}

/** A company with the module access of these rows (modules without one: off). */
export function companyRecord(
  company: { id: string; name: string; logo: string | null },
  modules: readonly { module: string | null; enabled: boolean | number | null }[],
): CompanyRecord {
  const modulesAccess = noModules();
  for (const m of modules) setModule(modulesAccess, m);
  return { id: company.id, name: company.name, logo: company.logo, modulesAccess };
}

export async function findCompanyRole(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
): Promise<CompanyRole | null> {
  const row = await db
    .selectFrom('company_memberships')
    .select('role')
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('access_revoked_at', 'is', null)
    .executeTakeFirst();
  return row?.role ?? null;
}

/** The company if the viewer may see it; null both when it does not exist and when it is not theirs. */
export async function findVisibleCompany(
  db: Kysely<Database>,
  viewer: CompanyViewer,
  companyId: string,
  /** The company already read (companyFromRows), when the caller has it: then only visibility is checked. */
  known?: CompanyRecord,
): Promise<CompanyRecord | null> {
  if (!seesAllCompanies(viewer)) {
    const visible = await db
      .selectFrom('companies')
      .select('id')
      .where('id', '=', companyId)
      .where('id', 'in', visibleCompanyIds(db, viewer))
      .executeTakeFirst();
    if (!visible) return null;
  }
  return known?.id === companyId ? known : findCompanyById(db, companyId);
}

export async function insertCompany(
  db: Kysely<Database>,
  input: { name: string; logo?: string | null; modulesAccess: Record<ModuleName, boolean> },
): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('companies')
    .values({ id, name: input.name, logo: input.logo ?? null, created_at: now, updated_at: now })
    .execute();
  await db
    .insertInto('company_modules_access')
    .values(MODULES.map((module) => ({ company_id: id, module, enabled: input.modulesAccess[module] })))
    .execute();
  return id;
}

export async function addCompanyMember(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
  role: CompanyRole,
): Promise<void> {
  await db
    .insertInto('company_memberships')
    .values({ company_id: companyId, user_id: userId, role, created_at: nowIso() })
    .execute();
}

/** Whether another company already has this name, compared case-insensitively. */
export async function companyNameTaken(db: Kysely<Database>, name: string, exceptId?: string): Promise<boolean> {
  let query = db
    .selectFrom('companies')
    .select('id')
    .where(sql<boolean>`lower(name) = lower(${name})`);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Changes the name and/or the logo key (undefined: unchanged). */
export async function updateCompany(
  db: Kysely<Database>,
  id: string,
  input: { name?: string; logo?: string | null },
): Promise<void> {
  const values: { name?: string; logo?: string | null; updated_at: string } = { updated_at: nowIso() };
  if (input.name !== undefined) values.name = input.name;
  if (input.logo !== undefined) values.logo = input.logo;
  await db.updateTable('companies').set(values).where('id', '=', id).execute();
}

/** Sets some modules on or off for the company (the ceiling for everybody in it). */
export async function setCompanyModulesAccess(
  db: Kysely<Database>,
  id: string,
  access: Partial<Record<ModuleName, boolean>>,
): Promise<void> {
  const rows = MODULES.filter((m) => access[m] !== undefined).map((module) => ({
    company_id: id,
    module,
    enabled: access[module]!,
  }));
  if (rows.length === 0) return;
  await db
    .insertInto('company_modules_access')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['company_id', 'module']).doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled') })),
    )
    .execute();
}
