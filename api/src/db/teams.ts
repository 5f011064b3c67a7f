import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { MODULES, emptyModuleAccess, type ModuleAccess, type ModuleName } from '@portal/shared/core/modules';
import type { AssignedObject, Team } from '@portal/shared/core/settings';
import type { Database } from './schema';
import { nowIso, toIso, toNullableBool } from './values';

export async function insertTeam(db: Kysely<Database>, companyId: string, name: string): Promise<string> {
  const id = randomUUID();
  await db.insertInto('teams').values({ id, company_id: companyId, name, created_at: nowIso() }).execute();
  return id;
}

export async function addTeamMember(db: Kysely<Database>, teamId: string, userId: string): Promise<void> {
  await db.insertInto('team_members').values({ team_id: teamId, user_id: userId }).execute();
}

/** A team as the api answers it (shared `Team`): members by name, the team's own module values. */
export async function listTeams(db: Kysely<Database>, companyId: string, teamId?: string): Promise<Team[]> {
  let query = db
    .selectFrom('teams')
    .select(['id', 'company_id', 'name', 'created_at'])
    .where('company_id', '=', companyId);
  if (teamId !== undefined) query = query.where('id', '=', teamId);
  const teams = await query.orderBy('name').orderBy('id').execute();
  if (teams.length === 0) return [];
  const ids = teams.map((team) => team.id);
  // One query for the members of every team and one for their module values, not one per team.
  const [members, modules] = await Promise.all([
    db
      .selectFrom('team_members')
      .innerJoin('users', 'users.id', 'team_members.user_id')
      .select(['team_members.team_id', 'users.id', 'users.first_name', 'users.last_name', 'users.email'])
      .where('team_members.team_id', 'in', ids)
      .orderBy('users.first_name')
      .orderBy('users.last_name')
      .orderBy('users.email')
      .execute(),
    db.selectFrom('team_modules_access').select(['team_id', 'module', 'enabled']).where('team_id', 'in', ids).execute(),
  ]);
  const byId = new Map<string, Team>(
    teams.map((team) => [
      team.id,
      {
        id: team.id,
        companyId: team.company_id,
        name: team.name,
        users: [],
        modulesAccess: emptyModuleAccess(),
        createdAt: toIso(team.created_at),
      },
    ]),
  );
  for (const m of members)
    byId.get(m.team_id)?.users.push({ id: m.id, firstName: m.first_name, lastName: m.last_name, email: m.email });
  for (const row of modules) {
    const team = byId.get(row.team_id);
    if (team && (MODULES as readonly string[]).includes(row.module))
      team.modulesAccess[row.module as ModuleName] = toNullableBool(row.enabled);
  }
  return [...byId.values()];
}

/** The team if it belongs to the company; null otherwise (another company's team is not revealed). */
export async function findTeam(db: Kysely<Database>, companyId: string, teamId: string): Promise<Team | null> {
  return (await listTeams(db, companyId, teamId))[0] ?? null;
}

/** Whether another team of the company already has this name, compared case-insensitively. */
export async function teamNameTaken(
  db: Kysely<Database>,
  companyId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('teams')
    .select('id')
    .where('company_id', '=', companyId)
    .where(sql<boolean>`lower(name) = lower(${name})`);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function renameTeam(db: Kysely<Database>, teamId: string, name: string): Promise<void> {
  await db.updateTable('teams').set({ name }).where('id', '=', teamId).execute();
}

/** Deletes the team; its members, module values and objects go with it (cascade). */
export async function deleteTeam(db: Kysely<Database>, teamId: string): Promise<void> {
  await db.deleteFrom('teams').where('id', '=', teamId).execute();
}

/** Of `userIds`, those who are members of the company with access (not revoked). */
export async function activeCompanyMemberIds(
  db: Kysely<Database>,
  companyId: string,
  userIds: string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('company_memberships')
    .select('user_id')
    .where('company_id', '=', companyId)
    .where('user_id', 'in', userIds)
    .where('access_revoked_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

/** Adds the users who are not members yet; returns those added (members already are skipped), with their emails. */
export async function addTeamMembers(
  db: Kysely<Database>,
  teamId: string,
  userIds: string[],
): Promise<{ id: string; email: string }[]> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return [];
  const candidates = await db
    .selectFrom('users')
    .leftJoin('team_members', (join) =>
      join.onRef('team_members.user_id', '=', 'users.id').on('team_members.team_id', '=', teamId),
    )
    .select(['users.id', 'users.email', 'team_members.team_id'])
    .where('users.id', 'in', unique)
    .execute();
  const added = candidates.filter((c) => c.team_id === null).map(({ id, email }) => ({ id, email }));
  if (added.length) {
    await db
      .insertInto('team_members')
      .values(added.map(({ id }) => ({ team_id: teamId, user_id: id })))
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
      .execute();
  }
  return added;
}

/** Whether the user was a member. */
export async function removeTeamMember(db: Kysely<Database>, teamId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Replaces the team's values for every module (null: members inherit). */
export async function setTeamModulesAccess(
  db: Kysely<Database>,
  companyId: string,
  teamId: string,
  access: ModuleAccess,
): Promise<void> {
  await db
    .insertInto('team_modules_access')
    .values(MODULES.map((module) => ({ company_id: companyId, team_id: teamId, module, enabled: access[module] })))
    .onConflict((oc) =>
      oc.columns(['team_id', 'module']).doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled') })),
    )
    .execute();
}

/** Gives the team access to an object (a project now); already given: nothing changes. */
export async function addTeamObject(
  db: Kysely<Database>,
  teamId: string,
  module: ModuleName,
  objectId: string,
): Promise<void> {
  await db
    .insertInto('team_objects')
    .values({ team_id: teamId, module, object_id: objectId, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['team_id', 'module', 'object_id']).doNothing())
    .execute();
}

/** The objects the team has been given access to, by name (projects of the team's company). */
export async function teamAssignedObjects(
  db: Kysely<Database>,
  companyId: string,
  teamId: string,
): Promise<AssignedObject[]> {
  const rows = await db
    .selectFrom('team_objects')
    .innerJoin('projects', 'projects.id', 'team_objects.object_id')
    .select(['projects.id', 'projects.title', 'projects.company_id'])
    .where('team_objects.team_id', '=', teamId)
    .where('team_objects.module', '=', 'projects')
    .where('projects.company_id', '=', companyId)
    .orderBy('projects.title')
    .orderBy('projects.id')
    .execute();
  // A team holds no project role: nothing blocks removing its access.
  return rows.map((r) => ({
    module: 'projects',
    objectId: r.id,
    name: r.title,
    companyId: r.company_id,
    role: null,
    removable: true,
  }));
}
