import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { nowIso } from './values';

export async function insertTeam(db: Kysely<Database>, companyId: string, name: string): Promise<string> {
  const id = randomUUID();
  await db.insertInto('teams').values({ id, company_id: companyId, name, created_at: nowIso() }).execute();
  return id;
}

export async function addTeamMember(db: Kysely<Database>, teamId: string, userId: string): Promise<void> {
  await db.insertInto('team_members').values({ team_id: teamId, user_id: userId }).execute();
}
