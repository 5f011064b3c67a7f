import { randomUUID } from 'node:crypto';
import { findCompanyById, insertCompany } from './companies';
import { migrateTo, migrateToLatest } from './migrate';
import { moduleAccessFor, setUserModuleAccess } from './module-access';
import { DEMO_PASSWORD, seedIfEmpty } from './seed';
import { insertProject } from './projects';
import { createSession, findSessionByToken } from './sessions';
import { countUsers, findUserCredentialsByEmail, insertUser } from './users';
import argon2 from 'argon2';
import { toIso } from './values';
import { createTestDatabase, type TestDatabase } from '../test/app';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

describe('migrations and seed', () => {
  it('migrate to latest twice without error', async () => {
    await migrateToLatest(database.db, database.dialect);
    await migrateToLatest(database.db, database.dialect);
    expect(await countUsers(database.db)).toBe(0);
  });

  it('seed an empty database once, with argon2id hashes of the demo password', async () => {
    expect(await seedIfEmpty(database.db)).toBe(true);
    expect(await seedIfEmpty(database.db)).toBe(false);
    // the seven demo users and sixteen more (two staff, clients of Acme, Globex and two further companies)
    expect(await countUsers(database.db)).toBe(23);
    const companies = await database.db.selectFrom('companies').select('name').orderBy('name').execute();
    // the demo companies Acme Corp and Globex Inc come first by name; ten more clients follow them
    expect(companies.map((c) => c.name).slice(0, 2)).toEqual(['Acme Corp', 'Globex Inc']);
    expect(companies).toHaveLength(12);
    const admin = await findUserCredentialsByEmail(database.db, 'admin@demo.test');
    expect(admin!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await argon2.verify(admin!.passwordHash!, DEMO_PASSWORD)).toBe(true);
    expect(admin!.user).toMatchObject({ isTevora: true, isAdmin: true, isAuditor: false, status: 'active' });
    expect(admin!.user.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const teams = await database.db
      .selectFrom('team_members')
      .innerJoin('teams', 'teams.id', 'team_members.team_id')
      .where('teams.name', 'in', ['Compliance Team', 'Security Team'])
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(teams.n)).toBe(5);
  });

  it('stores booleans on both dialects and reads them back as booleans', async () => {
    const id = await insertUser(database.db, {
      email: 'Flags@Example.test',
      firstName: 'F',
      lastName: 'L',
      isAuditor: true,
    });
    const row = await findUserCredentialsByEmail(database.db, 'flags@example.test');
    expect(row!.user).toMatchObject({
      id,
      email: 'flags@example.test',
      isAuditor: true,
      isTevora: false,
      firstLogin: true,
    });
    const companyId = await insertCompany(database.db, {
      name: 'Bool Co',
      modulesAccess: { risks: false, projects: true, requests: true, reports: true, assets: true },
    });
    expect((await findCompanyById(database.db, companyId))!.modulesAccess.risks).toBe(false);
    await setUserModuleAccess(database.db, companyId, id, 'projects', false);
    expect(await moduleAccessFor(database.db, id, companyId)).toEqual({
      risks: false,
      projects: false,
      requests: true,
      reports: true,
      assets: true,
    });
  });

  it('returns ISO timestamps for sessions', async () => {
    const user = await findUserCredentialsByEmail(database.db, 'lead@acme.test');
    const { token } = await createSession(database.db, { userId: user!.user.id, userAgent: null, maxHours: 2 });
    const session = await findSessionByToken(database.db, token);
    expect(Date.parse(session!.expiresAt) - Date.parse(session!.createdAt)).toBe(2 * 3_600_000);
    expect(session!.lastSeenAt).toMatch(/Z$/);
  });

  it('enforces lowercase emails and cascades user deletes', async () => {
    const now = new Date().toISOString();
    await expect(
      database.db
        .insertInto('users')
        .values({
          id: 'x',
          email: 'UPPER@x.test',
          first_name: 'a',
          last_name: 'b',
          status: 'active',
          created_at: now,
          updated_at: now,
        } as never)
        .execute(),
      // Not toThrow(): better-sqlite3's error class can come from another jest realm of the same worker.
    ).rejects.toHaveProperty('message', expect.stringMatching(/check constraint/i));
    const user = await findUserCredentialsByEmail(database.db, 'both@acme.test');
    await database.db.deleteFrom('users').where('id', '=', user!.user.id).execute();
    const left = await database.db
      .selectFrom('company_memberships')
      .select('user_id')
      .where('user_id', '=', user!.user.id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('migration 0012-reports', () => {
  let fresh: TestDatabase;
  beforeAll(async () => {
    fresh = await createTestDatabase();
  });
  afterAll(() => fresh.destroy());

  it("counts each request's returns from its history and stamps the closed tasks with their closing time", async () => {
    await migrateTo(fresh.db, fresh.dialect, '0011-requests');
    const db = fresh.db;
    const companyId = await insertCompany(db, {
      name: 'Backfill Co',
      modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true },
    });
    const at = (day: number) => `2026-03-${String(day).padStart(2, '0')}T09:00:00.000Z`;

    const request = async (reference: string) => {
      const id = randomUUID();
      // The 0011 columns only.
      await db
        .insertInto('requests')
        .values({
          id,
          company_id: companyId,
          reference,
          title: reference,
          status: 'submitted',
          created_at: at(1),
          updated_at: at(1),
        } as never)
        .execute();
      return id;
    };
    const returnedTwice = await request('REQ-1');
    const neverReturned = await request('REQ-2');
    const event = (requestId: string, type: string, detail: object, day: number) =>
      db
        .insertInto('request_events')
        .values({
          id: randomUUID(),
          request_id: requestId,
          actor_id: null,
          type,
          detail: JSON.stringify(detail),
          internal: false,
          created_at: at(day),
        })
        .execute();
    await event(returnedTwice, 'status', { from: 'submitted', to: 'returned', reason: 'Missing pages' }, 2);
    await event(returnedTwice, 'status', { from: 'returned', to: 'submitted' }, 3);
    await event(returnedTwice, 'status', { from: 'submitted', to: 'returned', reason: 'Still missing' }, 4);
    await event(neverReturned, 'comment', { commentId: 'c1' }, 2);

    const projectId = await insertProject(db, { companyId, title: 'Backfill project', status: 'active' });
    const task = async (status: string, updated: string, completed: string | null) => {
      const id = randomUUID();
      await db
        .insertInto('tasks')
        .values({
          id,
          project_id: projectId,
          company_id: companyId,
          parent_id: null,
          reference_id: null,
          title: status,
          description: null,
          status,
          due_date: null,
          created_by: null,
          created_at: at(1),
          updated_at: updated,
          completed_at: completed,
        } as never)
        .execute();
      return id;
    };
    const completed = await task('COMPLETED', at(9), at(5));
    const notApplicable = await task('NOT_APPLICABLE', at(7), null);
    const open = await task('IN_PROGRESS', at(8), null);

    await migrateToLatest(db, fresh.dialect);
    const requests = await db.selectFrom('requests').select(['id', 'return_count']).execute();
    expect(new Map(requests.map((r) => [r.id, Number(r.return_count)]))).toEqual(
      new Map([
        [returnedTwice, 2],
        [neverReturned, 0],
      ]),
    );
    const tasks = await db.selectFrom('tasks').select(['id', 'closed_at']).execute();
    expect(new Map(tasks.map((t) => [t.id, t.closed_at === null ? null : toIso(t.closed_at)]))).toEqual(
      new Map([
        [completed, at(5)],
        [notApplicable, at(7)],
        [open, null],
      ]),
    );
  });
});
