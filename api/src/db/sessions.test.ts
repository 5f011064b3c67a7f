import { createTestApp, type TestApp } from '../test/app';
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
    const open = async (at: Date, maxHours = 8) => (await createSession(db, { userId, userAgent: null, maxHours, now: at })).session.id;

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
});
