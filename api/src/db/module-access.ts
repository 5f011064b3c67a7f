import type { Kysely } from 'kysely';
import {
  MODULES,
  effectiveModuleAccess,
  emptyModuleAccess,
  type EffectiveModuleAccess,
  type ModuleAccess,
  type ModuleName,
} from '@portal/shared/core/modules';
import { findCompanyById, visibleCompanyIdList, type CompanyRecord, type CompanyViewer } from './companies';
import { preparedQuery } from './prepared';
import type { Database } from './schema';
import { toBool, toNullableBool } from './values';

function isModule(name: string): name is ModuleName {
  return (MODULES as readonly string[]).includes(name);
}

// Read on every request of a client in a company (the policy's module check): prepared once.
const userModuleRows = preparedQuery((db, companyId: string, userId: string) =>
  db
    .selectFrom('user_modules_access')
    .select(['module', 'enabled'])
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId),
);

const teamModuleRows = preparedQuery((db, companyId: string, userId: string) =>
  db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .leftJoin('team_modules_access', 'team_modules_access.team_id', 'teams.id')
    .select(['teams.id as teamId', 'team_modules_access.module', 'team_modules_access.enabled'])
    .where('team_members.user_id', '=', userId)
    .where('teams.company_id', '=', companyId),
);

/** A user's own explicit module values in a company (null: inherit). */
export async function userModuleAccess(db: Kysely<Database>, companyId: string, userId: string): Promise<ModuleAccess> {
  const rows = await userModuleRows(db, companyId, userId);
  const access = emptyModuleAccess();
  for (const row of rows) if (isModule(row.module)) access[row.module] = toNullableBool(row.enabled);
  return access;
}

/** The module values of every team of the company the user belongs to. */
export async function userTeamsModuleAccess(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
): Promise<ModuleAccess[]> {
  const rows = await teamModuleRows(db, companyId, userId);
  const byTeam = new Map<string, ModuleAccess>();
  for (const row of rows) {
    const access = byTeam.get(row.teamId) ?? emptyModuleAccess();
    byTeam.set(row.teamId, access);
    if (row.module && isModule(row.module)) access[row.module] = toNullableBool(row.enabled);
  }
  return [...byTeam.values()];
}

export async function setUserModuleAccess(
  db: Kysely<Database>,
  companyId: string,
  userId: string,
  module: ModuleName,
  enabled: boolean | null,
): Promise<void> {
  await db
    .insertInto('user_modules_access')
    .values({ company_id: companyId, user_id: userId, module, enabled })
    .onConflict((oc) => oc.columns(['company_id', 'user_id', 'module']).doUpdateSet({ enabled }))
    .execute();
}

/**
 * Effective module access of a user in a company (company ceiling, then the user's own value,
 * then the user's teams). Staff are not in client teams: only the company's values count for them.
 * All modules off when the company does not exist.
 */
export async function moduleAccessFor(
  db: Kysely<Database>,
  userId: string,
  companyId: string,
): Promise<EffectiveModuleAccess> {
  const [company, user] = await Promise.all([
    findCompanyById(db, companyId),
    db.selectFrom('users').select(['is_tevora']).where('id', '=', userId).executeTakeFirst(),
  ]);
  if (!company || !user)
    return effectiveModuleAccess(
      Object.fromEntries(MODULES.map((m) => [m, false])) as Record<ModuleName, boolean>,
      null,
      [],
    );
  return moduleAccessIn(db, { id: userId, isTevora: toBool(user.is_tevora) }, company);
}

/** moduleAccessFor when the caller already holds the user and the company (the request's policy check). */
export async function moduleAccessIn(
  db: Kysely<Database>,
  user: { id: string; isTevora: boolean },
  company: Pick<CompanyRecord, 'id' | 'modulesAccess'>,
): Promise<EffectiveModuleAccess> {
  if (user.isTevora) return effectiveModuleAccess(company.modulesAccess, null, []);
  const [own, teams] = await Promise.all([
    userModuleAccess(db, company.id, user.id),
    userTeamsModuleAccess(db, company.id, user.id),
  ]);
  return effectiveModuleAccess(company.modulesAccess, own, teams);
}

/**
 * The modules a user may use in at least one of the companies they see: for staff who see every
 * company, the modules on in any company; for the others, their effective access company by company.
 */
export async function modulesUsableAnywhere(db: Kysely<Database>, viewer: CompanyViewer): Promise<Set<ModuleName>> {
  const companies = await visibleCompanyIdList(db, viewer);
  const usable = new Set<ModuleName>();
  if (companies === 'all') {
    const rows = await db
      .selectFrom('company_modules_access')
      .select('module')
      .distinct()
      .where('enabled', '=', true)
      .execute();
    for (const row of rows) if (isModule(row.module)) usable.add(row.module);
    return usable;
  }
  for (const id of companies) {
    const company = await findCompanyById(db, id);
    if (!company) continue;
    const access = await moduleAccessIn(db, viewer, company);
    for (const m of MODULES) if (access[m]) usable.add(m);
  }
  return usable;
}
