import { createTestApp, TEST_DATABASE_URL, type TestApp } from '../test/app';
import { findCompanyById } from './companies';
import { activeSessionIds, createSession, deleteSession } from './sessions';
import { findSessionWithUser, findUserCredentialsByEmail } from './users';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('activeSessionIds', () => {
  it('keeps only sessions that are neither expired, idle too long nor deleted', async () => {
    const db = t.database.db;
    const userId = (await findUserCredentialsByEmail(db, 'member@acme.test'))!.user.id;
    const now = new Date('2026-11-21T12:00:00Z');
    const open = async (at: Date, maxHours = 8) =>
      (await createSession(db, { userId, userAgent: null, maxHours, now: at })).session.id;

    const fresh = await open(new Date(now.getTime() - 60_000));
    const idle = await open(new Date(now.getTime() - 31 * 60_000), 24);
    const expired = await open(new Date(now.getTime() - 2 * 3_600_000), 1);
    const deleted = await open(now);
    await deleteSession(db, deleted);

    const active = await activeSessionIds(db, [fresh, idle, expired, deleted, 'no-such-session'], 30, now);
    expect([...active]).toEqual([fresh]);
    expect(await activeSessionIds(db, [], 30, now)).toEqual(new Set());
  });
});

describe('findSessionWithUser', () => {
  it('reads the session of a token and its user in one go, and nothing for an unknown token', async () => {
    const db = t.database.db;
    const user = (await findUserCredentialsByEmail(db, 'member@acme.test'))!.user;
    const now = new Date('2026-11-21T12:00:00Z');
    const { token, session } = await createSession(db, { userId: user.id, userAgent: null, maxHours: 8, now });

    const found = await findSessionWithUser(db, token);
    expect(found).toEqual({ session, user });
    expect(found?.session.id).not.toBe(user.id);
    expect(await findSessionWithUser(db, `${token}x`)).toBeNull();
    await deleteSession(db, session.id);
    expect(await findSessionWithUser(db, token)).toBeNull();
  });

  (TEST_DATABASE_URL ? it.skip : it)(
    'reads nothing along with the session on SQLite, where the policies read their own (a query is no round trip there)',
    async () => {
      const db = t.database.db;
      const member = (await findUserCredentialsByEmail(db, 'member@acme.test'))!.user;
      const { token, session } = await createSession(db, { userId: member.id, userAgent: null, maxHours: 8 });
      const project = await db.selectFrom('projects').select('id').executeTakeFirstOrThrow();
      expect(await findSessionWithUser(db, token, { project: project.id })).toEqual({ session, user: member });
    },
  );

  (TEST_DATABASE_URL ? it : it.skip)(
    'reads with the session, on PostgreSQL, the project or company a policy needs, the same as reading them on their own, and none that does not exist',
    async () => {
      const db = t.database.db;
      const member = (await findUserCredentialsByEmail(db, 'member@acme.test'))!.user;
      const { token, session } = await createSession(db, { userId: member.id, userAgent: null, maxHours: 8 });
      const acme = await db
        .selectFrom('companies')
        .select('id')
        .where('name', '=', 'Acme Corp')
        .executeTakeFirstOrThrow();
      const project = await db
        .selectFrom('projects')
        .select(['id', 'title', 'status'])
        .where('company_id', '=', acme.id)
        .executeTakeFirstOrThrow();
      const role = await db
        .selectFrom('project_members')
        .select('role')
        .where('project_id', '=', project.id)
        .where('user_id', '=', member.id)
        .executeTakeFirst();
      const company = (await findCompanyById(db, acme.id))!;

      const topLevel = await db
        .selectFrom('project_task_counts')
        .select('top_level')
        .where('project_id', '=', project.id)
        .executeTakeFirstOrThrow();

      expect(await findSessionWithUser(db, token, { project: project.id })).toEqual({
        session,
        user: member,
        along: {
          project: {
            id: project.id,
            companyId: acme.id,
            title: project.title,
            status: project.status,
            role: role?.role ?? null,
            topLevel: Number(topLevel.top_level),
            company,
          },
        },
      });
      expect(await findSessionWithUser(db, token, { company: acme.id })).toEqual({
        session,
        user: member,
        along: { company },
      });

      // the session is found all the same; the project or company is not
      expect(await findSessionWithUser(db, token, { project: 'no-such-project' })).toEqual({
        session,
        user: member,
        along: { project: null },
      });
      expect(await findSessionWithUser(db, token, { company: 'no-such-company' })).toEqual({
        session,
        user: member,
        along: { company: null },
      });
      expect(await findSessionWithUser(db, `${token}x`, { project: project.id })).toBeNull();
    },
  );
});
