import argon2 from 'argon2';
import { findPasswordPolicy } from './password-policies';
import { moduleAccessFor } from './module-access';
import { migrateToLatest } from './migrate';
import { DEMO_PASSWORD, seedIfEmpty } from './seed';
import { findUserCredentialsByEmail } from './users';
import { createTestDatabase, type TestDatabase } from '../test/app';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await migrateToLatest(database.db, database.dialect);
  await seedIfEmpty(database.db);
});
afterAll(() => database.destroy());

const db = () => database.db;
const idOf = async (email: string) => (await findUserCredentialsByEmail(db(), email))!.user.id;
const companyIdOf = async (name: string) => (await db().selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

describe('the demo seed', () => {
  it('hashes once (argon2 is the slow part): one hash serves every user with the demo password', async () => {
    const hashes = await db().selectFrom('users').select('password_hash').where('password_hash', 'is not', null).execute();
    expect(new Set(hashes.map((h) => h.password_hash)).size).toBe(1);
    expect(await argon2.verify(hashes[0].password_hash!, DEMO_PASSWORD)).toBe(true);
  });

  it("keeps DESIGN.md's users, and their access, as they were", async () => {
    for (const email of ['admin@demo.test', 'consultant@demo.test', 'auditor@demo.test', 'lead@acme.test', 'member@acme.test', 'client@globex.test', 'both@acme.test']) {
      const found = await findUserCredentialsByEmail(db(), email);
      expect({ email, active: found?.user.status, firstLogin: found?.user.firstLogin }).toEqual({ email, active: 'active', firstLogin: false });
    }
    const acme = await companyIdOf('Acme Corp');
    const globex = await companyIdOf('Globex Inc');
    expect(await moduleAccessFor(db(), await idOf('member@acme.test'), acme)).toEqual({ risks: true, projects: true, requests: true, reports: false, assets: true });
    expect(await moduleAccessFor(db(), await idOf('lead@acme.test'), acme)).toEqual({ risks: true, projects: true, requests: true, reports: true, assets: true });
    expect(await moduleAccessFor(db(), await idOf('both@acme.test'), globex)).toEqual({ risks: true, projects: true, requests: false, reports: true, assets: true });
    const memberships = await db()
      .selectFrom('company_memberships')
      .innerJoin('users', 'users.id', 'company_memberships.user_id')
      .select('company_memberships.company_id')
      .where('users.email', '=', 'client@globex.test')
      .execute();
    expect(memberships).toEqual([{ company_id: globex }]);
  });

  it('gives the users list a suspended user, an invited one without a password and a revoked member', async () => {
    const mia = (await findUserCredentialsByEmail(db(), 'mia.rossi@acme.test'))!;
    expect(mia.user.status).toBe('suspended');
    const noah = (await findUserCredentialsByEmail(db(), 'noah.fischer@acme.test'))!;
    expect(noah.passwordHash).toBeNull();
    const revoked = await db()
      .selectFrom('company_memberships')
      .select('access_revoked_at')
      .where('user_id', '=', await idOf('chloe.martin@acme.test'))
      .executeTakeFirstOrThrow();
    expect(revoked.access_revoked_at).not.toBeNull();
  });

  it('gives each of Acme and Globex three teams with members, module values and projects', async () => {
    for (const company of ['Acme Corp', 'Globex Inc']) {
      const teams = await db().selectFrom('teams').select('id').where('company_id', '=', await companyIdOf(company)).execute();
      expect(teams).toHaveLength(3);
      for (const { id } of teams) {
        expect((await db().selectFrom('team_members').select('user_id').where('team_id', '=', id).execute()).length).toBeGreaterThan(0);
      }
    }
    const objects = await db()
      .selectFrom('team_objects')
      .innerJoin('projects', 'projects.id', 'team_objects.object_id')
      .select('projects.title')
      .execute();
    expect(objects.length).toBeGreaterThanOrEqual(4);
    expect((await db().selectFrom('team_modules_access').select('team_id').execute()).length).toBeGreaterThan(0);
  });

  it('assigns the two practices to staff, sets a password policy on Acme and shows an active help message', async () => {
    const practices = await db()
      .selectFrom('staff_practices')
      .innerJoin('practices', 'practices.id', 'staff_practices.practice_id')
      .innerJoin('users', 'users.id', 'staff_practices.user_id')
      .select(['users.email', 'practices.name'])
      .where('users.email', 'in', ['consultant@demo.test', 'admin@demo.test'])
      .orderBy('users.email')
      .orderBy('practices.name')
      .execute();
    expect(practices).toEqual([
      { email: 'admin@demo.test', name: 'SOC 2 Readiness' },
      { email: 'consultant@demo.test', name: 'PCI DSS Assessment' },
      { email: 'consultant@demo.test', name: 'SOC 2 Readiness' },
    ]);
    // rotation off: demo passwords never expire, however old the database
    expect(await findPasswordPolicy(db(), await companyIdOf('Acme Corp'))).toEqual({ minimumLength: 14, rotationInDays: 0 });
    expect(DEMO_PASSWORD.length).toBeGreaterThanOrEqual(14);
    const help = await db().selectFrom('portal_messages').select(['status']).where('key', '=', 'help').execute();
    expect(help).toEqual([{ status: 'active' }]);
  });

  it('has an audit history of earlier changes', async () => {
    const rows = await db().selectFrom('audit_log').select(['created_at', 'actor_id']).execute();
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of rows) {
      expect(row.actor_id).not.toBeNull();
      expect(Date.parse(String(row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at))).toBeLessThan(Date.now() - 24 * 3_600_000);
    }
  });
});
